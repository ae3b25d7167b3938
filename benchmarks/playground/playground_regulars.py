"""The playground's regulars at a tournament's size: what a tick of theirs costs with many boards
live, and how long a field of games among them takes to finish on the simulated clock.

    python benchmarks/playground/playground_regulars.py [--games 1,8,32] [--repeats 7] [--seed 1]

For each number of games: that many challenges among the regulars, each in a thread of its own
under #games (the real bot, its SQLite file, SimCord with the playground's thread rules). Then:

- scan: the CPU of the regulars reading every channel and thread for what to click
  (``Regulars._wanted``, the part of a tick that grows with the boards), median over the repeats;
- the field played to its end, a tick a simulated second as in the playground: the simulated
  seconds until every game has ended, the clicks made, and the CPU of the ticks (the regulars
  and the bot answering their clicks) per click.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.playground.regulars import Regulars, words
from devkit.playground.world import World, simulated

ENDED = ("wins with", "draw")


def ended(world: World, thread_id: int) -> bool:
    """Whether the newest board in a thread shows its game's end."""
    backend = world.env.backend
    messages = backend.messages[thread_id].values()
    boards = [m for m in messages if m.author_id == backend.bot_user.id and not m.is_ephemeral]
    return bool(boards) and any(end in words(boards[-1]) for end in ENDED)


async def field(games: int, repeats: int, seed: int) -> dict[str, float]:
    """One field of `games` games among the regulars, measured."""
    with tempfile.TemporaryDirectory() as folder:
        async with simulated(Path(folder)) as world:
            players = world.server.regulars
            threads = []
            for number in range(games):
                x, o = players[number % len(players)], players[(number + 1) % len(players)]
                thread = world.env.backend.create_thread(
                    world.server.channel.id, f"game {number + 1}", x.id
                )
                await world.env.settle()
                await x.slash(world.handle(thread.id), "tictactoe", opponent=o)
                threads.append(thread.id)
            regulars = Regulars(
                world.env, players, world.server.channel.id, rng=random.Random(seed)
            )
            scans = []
            for _ in range(repeats):
                started = time.process_time()
                regulars._wanted()
                scans.append(time.process_time() - started)
            start, cpu = world.env.backend.clock.elapsed, 0.0
            while not all(ended(world, thread) for thread in threads):
                started = time.process_time()
                await regulars.play()
                cpu += time.process_time() - started
                await world.env.advance_time(1.0)
            return {
                "scan_ms": statistics.median(scans) * 1000,
                "seconds": world.env.backend.clock.elapsed - start,
                "clicks": regulars.clicks,
                "cpu_per_click_ms": cpu / max(regulars.clicks, 1) * 1000,
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1,8,32", help="numbers of games, comma-separated")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| games live | scan, CPU ms (median) | simulated s to the end | clicks | "
        "CPU ms a click (ticks) |"
    )
    print("|---:|---:|---:|---:|---:|")
    for games in (int(n) for n in args.games.split(",")):
        got = asyncio.run(field(games, args.repeats, args.seed))
        print(
            f"| {games} | {got['scan_ms']:.2f} | {got['seconds']:.0f} | {got['clicks']:.0f} | "
            f"{got['cpu_per_click_ms']:.1f} |"
        )


if __name__ == "__main__":
    main()
