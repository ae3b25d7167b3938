"""Where the CPU of one click goes, in the bot and in the floors (measured only).

    python benchmarks/load/click_profile.py [--games 60] [--rounds 5] [--size 3] [--bot-k5 3]
                                            [--variant classic|ultimate] [--level DIFFICULTY]

Bursts of N games (`load.py`'s waves, against the local Discord, each bot in a process of its
own) of one kind at a time: only games against the bot, then only games between two people.
Each round runs the plain floor, the durable floor and the project's bot (without and with its
Prometheus metrics) without a profiler (their CPU per interaction, split by thread: the event
loop's, the storage thread's, the engine's thread), then each but the durable floor again with
the loop's thread under cProfile,
whose shares (`measure.profiling.PARTS`: the save, translations, drawing, rules and registry, click
handling, metrics, logging, discord.py and the loop) split the loop thread's CPU of the run
without it. Every figure is the median over the rounds, per interaction (a click, or the
/tictactoe that opens a game: each gets one response).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.compare import FLOOR_SCRIPT
from devkit.measure.profiling import LOOP, PARTS
from devkit.wire import client as wire

KINDS = (("against the bot", True), ("between people", False))
# (name, script, options); the project's bot takes its own (`wire.bot_options`) too.
BOTS = (
    ("plain floor", FLOOR_SCRIPT, ("--plain",)),
    ("durable floor", FLOOR_SCRIPT, ("--durable",)),
    ("bot", wire.BOT_SCRIPT, ()),
    ("bot with metrics", wire.BOT_SCRIPT, ("--metrics",)),  # as with METRICS_PORT set
)
PROFILED = ("plain floor", "bot", "bot with metrics")
THREADS = (("loop", "main"), ("storage", "sqlite"), ("engine", "engine"))


async def one(name: str, profiled: bool, vs_bot: bool, args: argparse.Namespace) -> wire.Run:
    script, options = next((s, o) for n, s, o in BOTS if n == name)
    options = (*wire.bot_options(args), *options)  # floors too take the bot's collector
    if profiled:
        options = (*options, "--profile")
    return await wire.wire_run(
        "burst", args.games, args.size, args, script=script, extra=options, vs_bot=vs_bot
    )


def per_interaction(run: wire.Run, profile: wire.Run | None) -> dict[str, float]:
    """ms per interaction: the whole process, each thread, and the loop thread by part."""
    n = len(run.timings)
    figures = {"CPU": run.cpu / n * 1e3, "errors": len(run.errors), "unfinished": run.stuck}
    named = {thread for _, thread in THREADS} | {"floor-sqlite"}
    for label, thread in THREADS:
        figures[f"{label} thread"] = run.threads.get(thread, 0.0) / n * 1e3
    others = sum(t for name, t in run.threads.items() if name not in named)
    figures["other threads"] = others / n * 1e3
    figures["storage thread"] += run.threads.get("floor-sqlite", 0.0) / n * 1e3
    if profile is not None and profile.parts:
        total = sum(profile.parts.values())
        for part, seconds in profile.parts.items():
            figures[f"loop: {part}"] = figures["loop thread"] * seconds / total
    return figures


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--bot-k5", type=int, default=3, help="win length of 5x5 bot games")
    parser.add_argument("--max-plies", type=int, default=12)
    parser.add_argument("--variant", choices=("classic", "ultimate"), default="classic")
    parser.add_argument("--level", default=None, help="every bot game at this difficulty")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--gc", default=None, help="the bot's collector thresholds")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    command = "python benchmarks/load/click_profile.py " + " ".join(given)
    print(f"# {command.strip()}")
    results: dict[str, dict[str, list[dict[str, float]]]] = {}
    for kind, vs_bot in KINDS:
        rounds = results.setdefault(kind, {name: [] for name, _, _ in BOTS})
        for round_ in range(args.rounds):
            plain = {name: await one(name, False, vs_bot, args) for name, _, _ in BOTS}
            profiles = {name: await one(name, True, vs_bot, args) for name in PROFILED}
            for name, run in plain.items():
                rounds[name].append(per_interaction(run, profiles.get(name)))
                errors = run.errors + (profiles[name].errors if name in profiles else [])
                if errors:
                    print(f"  {name}: errors {errors[:3]}", file=sys.stderr)
            figures = rounds["bot"][-1]
            print(
                f"  {kind} round {round_ + 1}: bot {figures['CPU']:.3f} ms per interaction, "
                f"plain floor {rounds['plain floor'][-1]['CPU']:.3f}",
                file=sys.stderr,
            )
    print_table(results)
    result = {"command": command, "results": results}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return result


def print_table(results: dict[str, dict[str, list[dict[str, float]]]]) -> None:
    """One table per kind of game: median ms per interaction of each figure, each bot."""
    order = ["CPU", *(f"{label} thread" for label, _ in THREADS), "other threads"]
    order += [f"loop: {part}" for part, _ in PARTS] + [f"loop: {LOOP}"]
    for kind, bots in results.items():
        names = list(bots)
        print(f"\n{kind}, ms of CPU per interaction (median of {len(bots['bot'])} rounds)\n")
        print("| figure | " + " | ".join(names) + " | bot - plain floor |")
        print("|---|" + "---:|" * (len(names) + 1))
        for figure in dict.fromkeys(order):
            values = {
                name: statistics.median(r.get(figure, 0.0) for r in runs)
                for name, runs in bots.items()
            }
            if not any(values.values()):
                continue
            cells = " | ".join(f"{values[name]:.3f}" for name in names)
            print(f"| {figure} | {cells} | {values['bot'] - values['plain floor']:+.3f} |")


if __name__ == "__main__":
    asyncio.run(main())
