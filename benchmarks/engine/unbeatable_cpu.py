"""CPU per `unbeatable` move on the big boards against a random player (measured, not asserted).

For each board (4x4 with k 3 and 4, 5x5 with k 3, 4 and 5) the engine at `unbeatable` plays
--games games against a player who picks uniformly among the legal moves, its side alternating
(X in even games, O in odd ones), each game from the empty board, seeded. Every call of
`engine.best_move(board, level="unbeatable", rng=rng)` is timed in CPU time of the calling thread
(`time.thread_time`), so other work on a shared machine counts far less than in wall time. The
engine's data (the opening books, the solver) is loaded before the first timed call; its load is
printed apart. One process plays every board in turn, its tables warm from game to game, as a
worker process of the bot is.

Prints, per board and over all five boards together: the moves timed, median, mean, p99 and the
worst move, and the games won, drawn and lost by `unbeatable`.

    python benchmarks/engine/unbeatable_cpu.py --games 100 --seed 1
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine import Board, best_move

BOARDS = ((4, 3), (4, 4), (5, 3), (5, 4), (5, 5))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def play(size: int, k: int, games: int, seed: int) -> tuple[list[float], list[int]]:
    """CPU seconds of each unbeatable move, and (won, drawn, lost), over `games` games."""
    rng = random.Random(seed * 100 + size * 10 + k)
    times: list[float] = []
    results = [0, 0, 0]
    for game in range(games):
        mine = "X" if game % 2 == 0 else "O"
        board = Board.empty(size, k)
        while (outcome := board.outcome()) is None:
            if board.turn == mine:
                start = time.thread_time()
                cell = best_move(board, level="unbeatable", rng=rng)
                times.append(time.thread_time() - start)
            else:
                cell = rng.choice(board.legal_moves())
            board = board.play(cell)
        winner = outcome.winner
        results[0 if winner == mine else 1 if winner is None else 2] += 1
    return times, results


def row(label: str, times: list[float], results: list[int] | None = None) -> str:
    wdl = " / ".join(str(n) for n in results) if results else ""
    return (
        f"| {label} | {len(times)} | {ms(statistics.median(times))} | "
        f"{ms(statistics.fmean(times))} | {ms(pct(times, 0.99))} | {ms(max(times))} | {wdl} |"
    )


def warm(boards: tuple[tuple[int, int], ...]) -> float:
    """Load the engine's data for every board (books, solvers) and return the CPU it took."""
    start = time.thread_time()
    rng = random.Random(0)
    for size, k in boards:
        best_move(Board.empty(size, k), level="unbeatable", rng=rng)
    return time.thread_time() - start


def main() -> None:
    """Play every board and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", default="", help="e.g. 4:4,5:5 (default: all five)")
    args = parser.parse_args()
    boards = BOARDS
    if args.boards:
        boards = tuple((int(s), int(k)) for s, k in (b.split(":") for b in args.boards.split(",")))
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"loading the engine's data for every board: {ms(warm(boards))} of CPU\n")
    print(f"{args.games} games a board, sides alternating, seed {args.seed}; CPU per move\n")
    print("| board | moves | median | mean | p99 | worst | won / drawn / lost |")
    print("|---|---|---|---|---|---|---|")
    every: list[float] = []
    for size, k in boards:
        times, results = play(size, k, args.games, args.seed)
        every += times
        print(row(f"{size}x{size} k={k}", times, results), flush=True)
    print(row("all together", every))
    print(f"\nload average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
