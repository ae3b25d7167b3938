"""The project's bot against the floor (`_floor_bot.py`), interleaved on the same workload.

Pairs run A B A B: the project's bot, then the floor, each on a fresh fake Discord and world
built from the same seed, in a process of its own. For each run: CPU per interaction of the
bot's process tree (its engine worker processes included), and interactions answered a second.
The ratio of the two CPU figures is taken within each pair (the two runs of a pair are
seconds apart, so the machine's load is alike), then its median over the pairs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks import _wire

FLOOR_SCRIPT = Path(__file__).with_name("_floor_bot.py")


def figures(run: _wire.Run) -> dict[str, float]:
    """CPU ms per interaction and interactions a second of one run."""
    interactions = len(run.timings)
    return {
        "interactions": interactions,
        "cpu_ms_per_interaction": run.cpu / interactions * 1e3 if interactions else float("nan"),
        "interactions_per_s": interactions / run.wall if run.wall else float("nan"),
        "finished": run.finished,
        "errors": len(run.errors),
    }


async def compare(n: int, size: int, pairs: int, args: argparse.Namespace) -> dict[str, Any]:
    """`pairs` interleaved bursts of N games on one board size: project, floor, project, ..."""
    rows = []
    for pair in range(pairs):
        bot = figures(await _wire.wire_run("burst", n, size, args))
        floor = figures(await _wire.wire_run("burst", n, size, args, script=FLOOR_SCRIPT))
        ratio = bot["cpu_ms_per_interaction"] / floor["cpu_ms_per_interaction"]
        rows.append({"pair": pair + 1, "bot": bot, "floor": floor, "ratio": ratio})
        print(
            f"  floor {size}x{size} x{n} pair {pair + 1}: bot "
            f"{bot['cpu_ms_per_interaction']:.2f} ms, floor {floor['cpu_ms_per_interaction']:.2f}"
            f" ms per interaction, ratio {ratio:.2f}",
            file=sys.stderr,
        )
    return {
        "size": size,
        "games": n,
        "pairs": rows,
        "median_ratio": statistics.median(r["ratio"] for r in rows),
        "bot_per_s": statistics.median(r["bot"]["interactions_per_s"] for r in rows),
        "floor_per_s": statistics.median(r["floor"]["interactions_per_s"] for r in rows),
    }


def print_table(results: list[dict[str, Any]]) -> None:
    """One line per pair, then the median ratio and throughput of each board."""
    if not results:
        return
    print("\n| board | games | pair | bot CPU ms/interaction | floor CPU ms/interaction | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for result in results:
        for row in result["pairs"]:
            print(
                f"| {result['size']}x{result['size']} | {result['games']} | {row['pair']} | "
                f"{row['bot']['cpu_ms_per_interaction']:.2f} | "
                f"{row['floor']['cpu_ms_per_interaction']:.2f} | {row['ratio']:.2f} |"
            )
    for result in results:
        print(
            f"- {result['size']}x{result['size']} x{result['games']}: median ratio "
            f"{result['median_ratio']:.2f} over {len(result['pairs'])} pairs; interactions a "
            f"second: bot {result['bot_per_s']:.0f}, floor {result['floor_per_s']:.0f}"
        )
