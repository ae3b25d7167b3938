"""Missed wins: the CPU a finished game costs to search for the puzzles it left behind.

Games on each big board, half between uniformly random players (the most wins to miss) and half
between randomly chosen gentler levels; each is searched with the solver's tables cold (as in a
fresh worker) and CPU time is measured per game. Medians and p99 over the games; measured, not
asserted.

    python benchmarks/missed.py --games 60
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import LEVELS, Board, best_move
from engine.puzzles import missed_wins, prove
from engine.search import solver

BOARDS = ((4, 3), (4, 4), (5, 3), (5, 4), (5, 5))


def _game(size: int, k: int, rng: random.Random, levels: bool) -> list[int]:
    sides = {side: rng.choice(LEVELS[:3]) for side in "XO"}
    board = Board.empty(size, k)
    moves: list[int] = []
    while board.outcome() is None:
        if levels:
            cell = best_move(board, level=sides[board.turn], rng=rng)
        else:
            cell = rng.choice(board.legal_moves())
        moves.append(cell)
        board = board.play(cell)
    return moves


def main() -> None:
    """Time the search of each game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    missed_wins(5, 4, [12])  # load the opening book once, outside the timings
    print("| board | games | moves (median) | found | CPU median | p99 | worst |")
    print("|---|---|---|---|---|---|---|")
    for size, k in BOARDS:
        times, found, lengths = [], 0, []
        for g in range(args.games):
            moves = _game(size, k, rng, levels=bool(g % 2))
            solver(size, k).table.clear()
            start = time.process_time()
            got = missed_wins(size, k, moves)
            times.append(time.process_time() - start)
            assert all(prove(p) for p in got)
            found += len(got)
            lengths.append(len(moves))
        times.sort()
        p99 = times[int(0.99 * (len(times) - 1))]
        print(
            f"| {size}x{size} k={k} | {len(times)} | {statistics.median(lengths):.0f} | {found} | "
            f"{statistics.median(times) * 1e3:.1f} ms | {p99 * 1e3:.0f} ms | "
            f"{times[-1] * 1e3:.0f} ms |"
        )


if __name__ == "__main__":
    main()
