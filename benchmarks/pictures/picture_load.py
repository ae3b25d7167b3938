"""Picture boards under load: the project's bot with every board drawn as a picture, against the
floor that sends the same picture bytes with the same answers.

    python benchmarks/pictures/picture_load.py [--games 100] [--size 3] [--pairs 3]
                                               [--pattern burst] [--memory-games 500] [--warm 0]

Each round (interleaved, as `floors.compare` does: the runs of a round are seconds apart, so
the machine's load is alike) runs the same seeded traffic through four bots, each in a process
of its own against the local Discord (``wire/bot_process.py``): the project's bot with emoji
boards, the plain floor (``floors/game_bot.py --plain``), the project's bot with picture boards
(``--pictures``: as if every server had set ``board_style`` picture), and the picture floor
(``--picture``: the plain floor with the board's picture, drawn by ``bot.pictures`` once a
position on its loop, and its alt text, uploaded with each answer and edit). CPU per
interaction is the whole process's (the bot's drawing thread and engine included); the ratios
are taken within each round, then their medians.

With ``--warm N`` each picture contender first draws the positions of N random games of the
same size, before the run and outside its CPU: a bot that has been running keeps the strips its
pictures are written from (``bot.pictures.png``), which a bot just started does not have yet.

Then the picture cache's memory: one run of --memory-games games with picture boards, and what
the cache holds at its end (every position shown in the run, the live games' among them).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.compare import FLOOR_SCRIPT, figures
from devkit.wire import client as wire

# (name, script, options): the bots of a round, in order.
CONTENDERS = (
    ("emoji bot", wire.BOT_SCRIPT, ()),
    ("plain floor", FLOOR_SCRIPT, ("--plain",)),
    ("picture bot", wire.BOT_SCRIPT, ("--pictures",)),
    ("picture floor", FLOOR_SCRIPT, ("--picture",)),
)
RATIOS = (
    ("emoji bot", "plain floor"),
    ("picture bot", "picture floor"),
    ("picture bot", "emoji bot"),
)


async def rounds(args: argparse.Namespace) -> list[dict[str, Any]]:
    """`args.pairs` rounds of every contender on the same traffic."""
    found = []
    for n in range(args.pairs):
        row: dict[str, Any] = {}
        for name, script, options in CONTENDERS:
            if args.warm and "picture" in name:  # pictures drawn before, as in a running bot
                options = (*options, "--warm-pictures", str(args.warm), "--size", str(args.size))
            run = await wire.wire_run(
                args.pattern, args.games, args.size, args, script=script, extra=options
            )
            row[name] = figures(run)
            row[name]["pictures"] = row[name]["setup"].get("pictures")
            held = row[name]["pictures"]
            late = f", {held['late']} answers with emoji while drawing" if held else ""
            print(
                f"  round {n + 1}: {name} {row[name]['cpu_ms_per_interaction']:.3f} ms per "
                f"interaction ({row[name]['interactions']} interactions, "
                f"{row[name]['errors']} errors{late})",
                file=sys.stderr,
            )
        found.append(row)
    return found


async def cache_memory(args: argparse.Namespace) -> dict[str, Any]:
    """What the picture cache holds after a run of --memory-games games with picture boards."""
    run = await wire.wire_run(
        args.pattern,
        args.memory_games,
        args.size,
        args,
        script=wire.BOT_SCRIPT,
        extra=("--pictures",),
    )
    held: dict[str, Any] = figures(run)["setup"]["pictures"]
    return {"games": args.memory_games, **held}


def report(found: list[dict[str, Any]], memory: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"\n{args.games} games of {args.size}x{args.size}, {args.pattern}, {args.pairs} rounds\n")
    print("| bot | CPU ms per interaction (each round) | median |")
    print("|---|---|---|")
    for name, _, _ in CONTENDERS:
        each = [row[name]["cpu_ms_per_interaction"] for row in found]
        print(f"| {name} | {', '.join(f'{v:.2f}' for v in each)} | {statistics.median(each):.2f} |")
    print("\n| ratio | each round | median |")
    print("|---|---|---|")
    for mine, floor in RATIOS:
        each = [
            row[mine]["cpu_ms_per_interaction"] / row[floor]["cpu_ms_per_interaction"]
            for row in found
        ]
        print(
            f"| {mine} / {floor} | {', '.join(f'{v:.2f}' for v in each)} | "
            f"{statistics.median(each):.2f} |"
        )
    mib = memory["bytes"] / (1024 * 1024)
    print(
        f"\nThe picture cache after {memory['games']} games: {memory['pictures']} pictures, "
        f"{mib:.1f} MiB ({memory['hits']} hits, {memory['misses']} misses; "
        f"{memory['late']} answers with emoji while their picture was drawn)"
    )


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games in each run")
    parser.add_argument("--size", type=int, default=3, help="board size (3, 4 or 5)")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--pattern", default="burst", help="burst or eager (`measure.scenario`)")
    parser.add_argument("--memory-games", type=int, default=500, help="games of the cache's run")
    parser.add_argument("--max-plies", type=int, default=12, help="resign after this many moves")
    parser.add_argument("--bot-k5", type=int, default=3, help="win length of 5x5 bot games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warm", type=int, default=0, help="games whose pictures each picture bot draws first"
    )
    parser.add_argument("--dir", default=None, help="folder for the SQLite files")
    args = parser.parse_args(argv)
    found = await rounds(args)
    memory = await cache_memory(args)
    report(found, memory, args)


if __name__ == "__main__":
    asyncio.run(main())
