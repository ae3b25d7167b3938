"""Bots compared on the same workload, interleaved: the project's against the floor
(`game_bot.py`), and the project's under several collector thresholds, or with and without
discord.py's speed packages.

Rounds run A B C D A B C D: the project's bot, then the floor, the plain floor (its board as
plain component data, the least a discord.py bot can do) and the durable floor (the plain floor
plus one durable save of each change, in a SQLite file set up as the bot's store sets its own),
each on a fresh fake Discord and world built from the same seed, in a process of its own; with
--before, the bot of another checkout runs first in each round, so before and after are
measured in the same rounds. Each comparison runs one traffic pattern
(`PATTERNS`): waves of clicks (every game clicks, then all wait until every board has answered),
or eager players (each clicks again as soon as its own board has answered, the bot's reply
included). For each run: CPU per interaction of the
bot's process tree (its engine worker processes included), and interactions answered a second.
The ratio of the project's CPU figure to each floor's is taken within each round (its runs are
seconds apart, so the machine's load is alike), then its median over the rounds. The collector
comparison (and that of discord.py's speed packages) runs its variants in rounds the same way,
each ratio taken against the first variant of its round, with the collections' pauses of each
run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from devkit.wire import client as wire

FLOOR_SCRIPT = Path(__file__).with_name("game_bot.py")
# The floors, each with its options: its board built with discord.ui, as plain data, and as
# plain data with one durable save of each change (the same SQLite settings as the bot's store).
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("floor", ()),
    ("plain_floor", ("--plain",)),
    ("durable_floor", ("--durable",)),
)
PATTERNS = ("burst", "eager")  # the traffic patterns (modes of `measure.traffic.play_mode`)


def figures(run: wire.Run) -> dict[str, Any]:
    """CPU ms per interaction and interactions a second of one run, and its GC pauses."""
    interactions = len(run.timings)
    per = 1e3 / interactions if interactions else float("nan")
    return {
        "interactions": interactions,
        "cpu_ms_per_interaction": run.cpu * per,
        # Without the engine's searches: its worker processes' CPU, and that of the searches run
        # in its own threads (ultimate's), left out.
        "cpu_ms_per_interaction_without_engine": (run.cpu - run.engine_cpu) * per,
        "interactions_per_s": interactions / run.wall if run.wall else float("nan"),
        "finished": run.finished,
        "errors": len(run.errors),
        "gc_collections": len(run.gc_pauses),
        "gc_ms": sum(run.gc_pauses) * 1e3,
        "gc_max_ms": max(run.gc_pauses, default=0.0) * 1e3,
        "setup": run.setup,
    }


# Where a checkout keeps its bot process script, newest layout first: in devkit/, in
# benchmarks/wire/ (before devkit/), in benchmarks/ (before benchmarks/'s sub-packages).
BEFORE_SCRIPTS = (
    "devkit/wire/bot_process.py",
    "benchmarks/wire/bot_process.py",
    "benchmarks/_wire_bot.py",
)


def bots(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The project's bots measured: this checkout's, and with --before the one of another
    checkout: its own bot process script (``BEFORE_SCRIPTS``, the first it has), which imports
    that checkout's bot/ and engine/."""
    before = getattr(args, "before", None)
    found = [("bot", wire.BOT_SCRIPT)]
    if before:
        scripts = [Path(before) / place for place in BEFORE_SCRIPTS]
        script = next((s for s in scripts if s.exists()), scripts[-1])
        found.insert(0, ("before", script))
    return found


async def compare(
    n: int, size: int, pairs: int, args: argparse.Namespace, *, pattern: str = "burst"
) -> dict[str, Any]:
    """`pairs` interleaved rounds of N games played in `pattern` on one board size: the
    project's bot (and the one of --before) and each floor; each bot's ratio to each floor
    within the round, and their medians over the rounds. Every other round runs them in the
    reverse order, so that no contender always goes first (the first run of a round was seen
    to cost up to 0.3 of a ratio more than the same code run second)."""
    contenders = bots(args)
    rows = []
    for pair in range(pairs):
        row: dict[str, Any] = {"pair": pair + 1, "ratios": {}}
        runs: list[tuple[str, Path, tuple[str, ...] | None]] = [(b, s, None) for b, s in contenders]
        for floor, extra in FLOORS:  # the bot's collector settings too
            runs.append((floor, FLOOR_SCRIPT, (*wire.bot_options(args), *extra)))
        for name, script, options in runs if pair % 2 == 0 else reversed(runs):
            run = await wire.wire_run(pattern, n, size, args, script=script, extra=options)
            row[name] = figures(run)
        for name, _ in contenders:
            mine = row[name]["cpu_ms_per_interaction"]
            alone = row[name]["cpu_ms_per_interaction_without_engine"]
            row["ratios"][name] = {
                floor: mine / row[floor]["cpu_ms_per_interaction"] for floor, _ in FLOORS
            }
            # Without the engine's searches on either side (only ultimate's floor searches).
            row["ratios"][f"{name} without engine"] = {
                floor: alone / row[floor]["cpu_ms_per_interaction_without_engine"]
                for floor, _ in FLOORS
            }
            print(
                f"  floor {pattern} {size}x{size} x{n} pair {pair + 1}: {name} {mine:.3f} ms per "
                "interaction, ratios "
                + ", ".join(f"{r:.2f} to the {f}" for f, r in row["ratios"][name].items()),
                file=sys.stderr,
            )
        rows.append(row)
    everyone = [name for name, _ in contenders] + [floor for floor, _ in FLOORS]
    return {
        "size": size,
        "games": n,
        "pattern": pattern,
        "pairs": rows,
        "medians": {
            name: {
                floor: statistics.median(r["ratios"][name][floor] for r in rows)
                for floor, _ in FLOORS
            }
            for name in rows[0]["ratios"]
        },
        "per_s": {
            name: statistics.median(r[name]["interactions_per_s"] for r in rows)
            for name in everyone
        },
    }


def print_table(results: list[dict[str, Any]]) -> None:
    """One line per pair and bot (its CPU per interaction, each floor's and its ratio to each),
    then the median ratios and throughputs of each board and pattern."""
    if not results:
        return
    floors = [floor for floor, _ in FLOORS]
    print(
        "\n| board | pattern | games | pair | bot | bot CPU ms/interaction | "
        + " | ".join(f"{f} CPU ms/interaction | ratio" for f in floors)
        + " |"
    )
    print("|---|---|---:|---:|---|---:|" + "---:|---:|" * len(floors))
    for result in results:
        board = f"| {result['size']}x{result['size']} | {result['pattern']} | {result['games']}"
        for row in result["pairs"]:
            for name, ratios in row["ratios"].items():
                bot, alone, _ = name.partition(" without engine")  # "bot without engine"
                key = "cpu_ms_per_interaction" + ("_without_engine" if alone else "")
                cells = " | ".join(f"{row[f][key]:.3f} | {ratios[f]:.2f}" for f in floors)
                mine = row[bot][key]
                print(f"{board} | {row['pair']} | {name} | {mine:.3f} | {cells} |")
    for result in results:
        for name, medians in result["medians"].items():
            print(
                f"- {result['size']}x{result['size']} {result['pattern']} x{result['games']}, "
                f"{name}: median ratio "
                + ", ".join(f"{medians[f]:.2f} to the {f}" for f in floors)
                + f" over {len(result['pairs'])} pairs"
            )
        print(
            "  interactions a second: "
            + ", ".join(f"{name} {per_s:.0f}" for name, per_s in result["per_s"].items())
        )


async def compare_variants(
    n: int,
    size: int,
    rounds: int,
    variants: list[tuple[str, tuple[str, ...]]],
    args: Any,
    *,
    pattern: str = "burst",
) -> dict[str, Any]:
    """`rounds` rounds of N games of the project's bot played in `pattern`, one run per variant
    (a name and the bot's options) in each round; ratios against the round's first variant."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in variants}
    ratios: dict[str, list[float]] = {name: [] for name, _ in variants}
    for round_ in range(rounds):
        for name, options in variants:
            run = figures(await wire.wire_run(pattern, n, size, args, extra=options))
            runs[name].append(run)
            first = runs[variants[0][0]][round_]["cpu_ms_per_interaction"]
            ratios[name].append(run["cpu_ms_per_interaction"] / first)
            print(
                f"  {name} {pattern} {size}x{size} x{n} round {round_ + 1}: "
                f"{run['cpu_ms_per_interaction']:.2f} ms per interaction, "
                f"{run['gc_collections']:.0f} collections of {run['gc_ms']:.0f} ms in all",
                file=sys.stderr,
            )
    return {
        "size": size,
        "games": n,
        "pattern": pattern,
        "variants": [
            {
                "variant": name,
                "runs": runs[name],
                "median_ratio": statistics.median(ratios[name]),
                "cpu_ms_per_interaction": statistics.median(
                    r["cpu_ms_per_interaction"] for r in runs[name]
                ),
                "interactions_per_s": statistics.median(
                    r["interactions_per_s"] for r in runs[name]
                ),
                "gc_ms": statistics.median(r["gc_ms"] for r in runs[name]),
                "gc_max_ms": statistics.median(r["gc_max_ms"] for r in runs[name]),
            }
            for name, _ in variants
        ],
    }


def print_variants_table(results: list[dict[str, Any]]) -> None:
    """One line per board and variant: medians over the rounds."""
    if not results:
        return
    print(
        "\n| board | pattern | games | variant | CPU ms/interaction | ratio to the first | "
        "interactions/s | GC ms in the run | longest GC pause ms |"
    )
    print("|---|---|---:|---|---:|---:|---:|---:|---:|")
    for result in results:
        for v in result["variants"]:
            print(
                f"| {result['size']}x{result['size']} | {result['pattern']} | {result['games']} "
                f"| {v['variant']} | "
                f"{v['cpu_ms_per_interaction']:.2f} | {v['median_ratio']:.3f} | "
                f"{v['interactions_per_s']:.0f} | {v['gc_ms']:.0f} | {v['gc_max_ms']:.1f} |"
            )
