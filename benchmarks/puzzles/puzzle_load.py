"""CPU per puzzle interaction: the project's bot against the floor, on the same traffic.

    python benchmarks/puzzles/puzzle_load.py [--players 20] [--attempts 4] [--rounds 5] [--seed 1]
                                             [--daily]

Each run starts a fresh local Discord (`devkit/localdiscord`) with one channel and one
member per player, and a bot in a process of its own (`wire.client.WireBot`): the project's bot
(`wire.bot_process`), the floor (`floors.puzzle_bot`: the least a discord.py bot does for the same
traffic, no storage, no engine) and the durable floor (the floor plus one durable save of each
change). Every player, all at once, runs /tictactoe-puzzle and clicks until the attempt ends,
--attempts times: against the project's bot the winning moves (found by the engine in the
benchmark's process), against the floors any free cell; either way a slash command and the
puzzle's number of clicks per attempt, each click waiting for its board's answer. Figures: CPU
of the bot's process tree (its engine worker processes included) per interaction, and without
the engine's workers; rounds run bot, floor, durable floor, interleaved, and the ratio is taken
within each round, then its median over the rounds. With --daily every player solves the
server's daily puzzle (one attempt each, privately: the same puzzle for all, as a server's day
brings). Measured, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from devkit.local_game import buttons, texts
from devkit.localdiscord import FakeDiscord
from devkit.wire.client import BOT_SCRIPT, WireBot
from engine.puzzles import Attempt, by_id, hint, play

FLOOR_SCRIPT = Path(__file__).parents[1] / "floors" / "puzzle_bot.py"
BOTS = (
    ("bot", BOT_SCRIPT, ()),
    ("floor", FLOOR_SCRIPT, ()),
    ("durable floor", FLOOR_SCRIPT, ("--durable",)),
)
TITLE = re.compile(r"Puzzle (\S+)")
WAIT = 30.0  # seconds for one answer


async def until(check: Any, what: str) -> None:
    give_up = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > give_up:
            raise TimeoutError(what)
        await asyncio.sleep(0.002)


def ply_of(message: dict[str, Any]) -> str:
    """The ply the board's buttons were drawn at."""
    return next(buttons(message["components"]))["custom_id"].rpartition("@")[2]


async def answered(fake: FakeDiscord, iid: int, board: int, before: str) -> None:
    """Wait until a click is answered and its board shows the answer (a later ply)."""
    done = fake.interactions[iid]
    await until(lambda: done.answered and ply_of(fake.messages[board]) != before, "an answer")


async def player(
    fake: FakeDiscord, user: Any, channel: Any, attempts: int, solve: bool, which: str
) -> None:
    """Run `attempts` puzzles to their end, one click at a time."""
    for _ in range(attempts):
        iid = await fake.slash(user, channel, "tictactoe-puzzle", puzzle=which)
        started = fake.interactions[iid]
        await until(lambda: started.answered and started.message_id, "a puzzle")  # noqa: B023
        board = started.message_id
        assert board is not None
        found = by_id(TITLE.search(texts(fake.messages[board])).group(1))  # type: ignore[union-attr]
        assert found is not None
        attempt = Attempt(found)
        for _ in range(found.moves):
            message = fake.messages[board]
            cells = [
                b
                for b in buttons(message["components"])
                if b["custom_id"].split(":")[2][0].isdigit()
            ]
            if solve:
                cell = hint(attempt)[1]
                attempt = play(attempt, cell)
            else:
                cell = next(
                    int(b["custom_id"].split(":")[2].split("@")[0])
                    for b in cells
                    if not b.get("disabled")
                )
            button = next(
                b for b in cells if b["custom_id"].split(":")[2].split("@")[0] == str(cell)
            )
            before = ply_of(message)
            clicked = await fake.click(str(cell), user, channel, board, button["custom_id"])
            await answered(fake, clicked, board, before)


async def run(
    name: str, script: Path, options: tuple[str, ...], args: argparse.Namespace
) -> dict[str, float]:
    """One run: a fresh Discord and bot; CPU per interaction of the bot's process tree."""
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = WireBot(fake, Path(folder), *options, script=script)
        try:
            await bot.start()
            await asyncio.wait_for(fake.synced.wait(), 10.0)
            await asyncio.wait_for(fake.connected.wait(), 10.0)
            guild = fake.create_guild("puzzles")
            seats = []
            for n in range(args.players):
                seats.append(
                    (
                        guild.add_member(fake.create_user(f"p{n}")),
                        guild.create_text_channel(f"c{n}"),
                    )
                )
            await bot.command("begin")
            await asyncio.gather(
                *(player(fake, u, c, args.attempts, name == "bot", args.which) for u, c in seats)
            )
            end = await bot.command("end")
        finally:
            await bot.stop()
            await fake.close()
        errors = bot.errors()
    interactions = len(fake.timings)
    if errors:
        print(f"  {name}: {len(errors)} error lines, first: {errors[0]}", file=sys.stderr)
    return {
        "interactions": interactions,
        "ms": (end["cpu"] + end["engine_cpu"]) * 1e3 / interactions,
        "ms_without_engine": end["cpu"] * 1e3 / interactions,
        "per_s": interactions / end["wall"],
    }


async def main(args: argparse.Namespace) -> None:
    rounds: list[dict[str, dict[str, float]]] = []
    for number in range(1, args.rounds + 1):
        row = {name: await run(name, script, options, args) for name, script, options in BOTS}
        rounds.append(row)
        print(
            f"  round {number}: " + ", ".join(f"{n} {r['ms']:.2f} ms" for n, r in row.items()),
            file=sys.stderr,
        )
    print(
        f"\n{args.players} players x {args.attempts} attempts ({args.which}), "
        f"{args.rounds} interleaved rounds\n"
    )
    print(
        "| bot | interactions | CPU ms/interaction (median) | without engine workers | "
        "ratio to the floor (median) | ratio to the durable floor | interactions/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    mid = statistics.median
    for name, _, _ in BOTS:
        cells = (
            rounds[0][name]["interactions"],
            mid(r[name]["ms"] for r in rounds),
            mid(r[name]["ms_without_engine"] for r in rounds),
            mid(r[name]["ms"] / r["floor"]["ms"] for r in rounds),
            mid(r[name]["ms"] / r["durable floor"]["ms"] for r in rounds),
            mid(r[name]["per_s"] for r in rounds),
        )
        print(f"| {name} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--attempts", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--daily", action="store_true", help="everyone plays the daily puzzle")
    parsed = parser.parse_args()
    parsed.which = "daily" if parsed.daily else "near"
    if parsed.daily:
        parsed.attempts = 1  # one attempt a day
    random.seed(parsed.seed)
    asyncio.run(main(parsed))
