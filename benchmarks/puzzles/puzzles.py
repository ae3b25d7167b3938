"""Puzzle costs: proving each shipped puzzle, and the engine's work for each step of an attempt.

Proofs are timed with the solver's tables cold (cleared before each) and warm (kept, as in a
process that proves them one after another). An attempt is timed per engine call: a right move
with the defence that answers it, a wrong move with its reason and refutation, and a hint, each
by search (`judge`, as for a puzzle without stored answers) and from the puzzle's stored answers
(`play`, a lookup). Medians and p99 over every puzzle; measured, not asserted.

    python benchmarks/puzzles/puzzles.py
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from engine.puzzles import Attempt, hint, judge, play, prove, puzzles
from engine.search import solver


def _line(name: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[int(0.99 * (len(times) - 1))]
    return (
        f"| {name} | {len(times)} | {statistics.median(times) * 1e3:.2f} ms | "
        f"{p99 * 1e3:.1f} ms | {times[-1] * 1e3:.1f} ms |"
    )


def main() -> None:
    """Time every proof and every attempt step, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="time every n-th puzzle only")
    args = parser.parse_args()
    chosen = puzzles()[:: args.every]
    times: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    for mode in ("cold", "warm"):
        for p in chosen:
            if mode == "cold":
                solver(p.board.size, p.board.k).table.clear()
            t = time.perf_counter()
            assert prove(p), p.id
            times[f"prove, {mode}"].append(time.perf_counter() - t)
    for p in chosen:
        board = f"{p.board.size}x{p.board.size} k={p.board.k}"
        attempt = Attempt(p)
        t = time.perf_counter()
        attempt, cell = hint(attempt)
        times["hint"].append(time.perf_counter() - t)
        wrong = next(c for c in p.board.legal_moves() if c != p.solution)
        for how, call in (("searched", judge), ("stored", play)):
            t = time.perf_counter()
            after = call(attempt, cell)
            times[f"right move + defence, {how}, {board}"].append(time.perf_counter() - t)
            t = time.perf_counter()
            call(Attempt(p), wrong)
            times[f"wrong move + refutation, {how}, {board}"].append(time.perf_counter() - t)
            assert after.state in ("playing", "solved")
    print(f"{len(chosen)} puzzles\n")
    print("| engine call | count | median | p99 | worst |")
    print("|---|---|---|---|---|")
    for name in sorted(times):
        print(_line(name, times[name]))
    print(f"\n({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
