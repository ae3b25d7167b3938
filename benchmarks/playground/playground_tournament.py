"""A Swiss of five in the playground's world, as a newcomer sees it: how long the regulars take to
fill the field, and how long the tournament takes from Start to its podium, on the simulated clock.

    python benchmarks/playground/playground_tournament.py [--runs 5] [--seed 1]

Each run: alice creates a Swiss of 3x3 in #games (60 s a move) and joins; the regulars fill it to
five players (``bot.playground.tournaments``); alice presses Start. Alice then moves at the pace
the regulars move (a click 1.5 to 4 s after she is asked, a random legal cell), so the times are
those of a newcomer who plays as fast as they do; the real bot, its SQLite file, SimCord with the
playground's thread rules, a tick a simulated second as the playground's clock ticks. Reported
per run: seconds until five are listed, seconds from Start to the podium, rounds, every click
made (the regulars' and alice's), and the CPU of the whole run per click.
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

from bot.playground.channels import threads_under
from bot.playground.regulars import Regulars, words
from bot.playground.tournaments import FIELD, join_tournaments, players
from devkit.playground.tournament import announcement, created, podium, press
from devkit.playground.world import simulated

LIMIT = 1800  # simulated seconds a run may take, at most


async def run(seed: int) -> dict[str, float]:
    """One Swiss of five, from Create to its podium, measured."""
    with tempfile.TemporaryDirectory() as folder:
        async with simulated(Path(folder)) as world:
            env, channel = world.env, world.server.channel
            regulars = Regulars(env, world.server.regulars, channel.id, rng=random.Random(seed))
            join_tournaments(regulars)
            alice = Regulars(env, [world.member("alice")], channel.id, rng=random.Random(seed + 1))
            cpu = time.process_time()
            await created(world)
            await press(world, "alice", "join")
            begun = env.now()
            while len(players(words(announcement(world)))) < FIELD:
                await regulars.play()
                await env.advance_time(1.0)
            filled = (env.now() - begun).total_seconds()
            await press(world, "alice", "start")
            started = env.now()
            while podium(world) is None:
                if (env.now() - started).total_seconds() > LIMIT:
                    raise RuntimeError("the tournament did not finish")
                await regulars.play()
                await alice.play()
                await env.advance_time(1.0)
            clicks = regulars.clicks + alice.clicks + 2  # and alice's Join and Start
            return {
                "filled": filled,
                "finished": (env.now() - started).total_seconds(),
                "rounds": len(threads_under(env.backend, channel.id)) / 2,
                "clicks": clicks,
                "cpu_ms_a_click": (time.process_time() - cpu) * 1000 / clicks,
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = [asyncio.run(run(args.seed + number)) for number in range(args.runs)]
    print(
        "| run | s until five listed | s from Start to the podium | rounds | clicks | CPU a click |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for number, r in enumerate(results, 1):
        print(
            f"| {number} | {r['filled']:.0f} | {r['finished']:.0f} | {r['rounds']:.0f} "
            f"| {r['clicks']:.0f} | {r['cpu_ms_a_click']:.1f} ms |"
        )
    finished = [r["finished"] for r in results]
    print(
        f"\nStart to podium: median {statistics.median(finished):.0f} s, "
        f"max {max(finished):.0f} s over {len(results)} runs"
    )


if __name__ == "__main__":
    main()
