"""Strength of each level: win/draw/loss rates against a random player and against unbeatable.

Each pair plays --games games (half with the level as X, half as O) with seeded random sources,
then a markdown table is printed. Measured, not asserted.

    python benchmarks/levels.py --games 1000
    python benchmarks/levels.py --games 200 --size 4 --k 3
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine import LEVELS, Board, best_move

Player = Callable[[Board], int]


def _game(x: Player, o: Player, board: Board) -> str | None:
    while (outcome := board.outcome()) is None:
        board = board.play((x if board.turn == "X" else o)(board))
    return outcome.winner


def _level(level: str, rng: random.Random) -> Player:
    return lambda board: best_move(board, level=level, rng=rng)


def _random(rng: random.Random) -> Player:
    return lambda board: rng.choice(board.legal_moves())


def rates(
    level: str, opponent: str, games: int, size: int, k: int | None, seed: int
) -> list[float]:
    """Win, draw and loss rates (percent) of `level` against `opponent` ("random" or a level)."""
    rng = random.Random(seed)
    me = _level(level, rng)
    them = _random(rng) if opponent == "random" else _level(opponent, rng)
    counts = [0, 0, 0]
    for i in range(games):
        mine = "X" if i % 2 == 0 else "O"
        winner = (
            _game(me, them, Board.empty(size, k))
            if mine == "X"
            else _game(them, me, Board.empty(size, k))
        )
        counts[0 if winner == mine else 1 if winner is None else 2] += 1
    return [100.0 * c / games for c in counts]


def main() -> None:
    """Play every pair and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--k", type=int, default=None)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    k = Board.empty(args.size, args.k).k
    start = time.perf_counter()
    print(f"{args.size}x{args.size} k={k}, {args.games} games per pair (half as X, half as O)\n")
    print("| level | vs random: win / draw / loss % | vs unbeatable: win / draw / loss % |")
    print("|---|---|---|")
    for i, level in enumerate(LEVELS):
        cols = []
        for j, opponent in enumerate(("random", "unbeatable")):
            w, d, loss = rates(
                level, opponent, args.games, args.size, args.k, args.seed + 10 * i + j
            )
            cols.append(f"{w:.1f} / {d:.1f} / {loss:.1f}")
        print(f"| {level} | {cols[0]} | {cols[1]} |")
    print(f"\n({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
