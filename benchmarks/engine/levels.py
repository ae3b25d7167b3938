"""Strength of each level: win/draw/loss rates against a uniform random player and every level.

Each pair plays --games games (half with the level as X, half as O) with seeded random sources,
then a markdown table is printed: a row per level, a column per opponent. Measured, not asserted.
With --sides N it instead plays `unbeatable` against the uniform player N games as X and N as O,
and on 3x3 prints the most any value-keeping strategy can win there (exact, by expectimax).

    python benchmarks/engine/levels.py --games 1000
    python benchmarks/engine/levels.py --games 200 --size 4 --k 3
    python benchmarks/engine/levels.py --sides 20000
    python benchmarks/engine/levels.py --games 400 --size 5 --k 4 --levels unbeatable
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine import LEVELS, Board, best_move, small

Player = Callable[[Board], int]
OPPONENTS = ("random", *LEVELS)


def _game(x: Player, o: Player, board: Board) -> str | None:
    while (outcome := board.outcome()) is None:
        board = board.play((x if board.turn == "X" else o)(board))
    return outcome.winner


def _player(level: str, rng: random.Random) -> Player:
    if level == "random":
        return lambda board: rng.choice(board.legal_moves())
    return lambda board: best_move(board, level=level, rng=rng)


def counts(
    level: str, opponent: str, games: int, size: int, k: int | None, seed: int, sides: str = "XO"
) -> list[int]:
    """Wins, draws and losses of `level` against `opponent`, its side alternating over `sides`."""
    rng = random.Random(seed)
    me, them = _player(level, rng), _player(opponent, rng)
    out = [0, 0, 0]
    for i in range(games):
        mine = sides[i % len(sides)]
        x, o = (me, them) if mine == "X" else (them, me)
        winner = _game(x, o, Board.empty(size, k))
        out[0 if winner == mine else 1 if winner is None else 2] += 1
    return out


def _exact_3x3() -> None:
    """Print unbeatable's exact wins on 3x3 against each opponent, with the limit for each."""
    print("\nExact (engine.small.wins_against): unbeatable's wins, and the most a player who")
    print("keeps the exact value can win against that opponent; as X / as O / both, %\n")
    print("| against | unbeatable | the limit |")
    print("|---|---|---|")
    for opponent in ("uniform", "easy", "medium", "hard"):
        cols = []
        for best in (False, True):
            x, o = (100 * float(p) for p in small.wins_against(opponent, best=best))
            cols.append(f"{x:.2f} / {o:.2f} / {(x + o) / 2:.2f}")
        print(f"| {opponent} | {cols[0]} | {cols[1]} |")


def main() -> None:
    """Play every pair and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--k", type=int, default=None)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--sides", type=int, default=0, help="unbeatable vs uniform, N a side")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the rows to play, e.g. hard")
    args = parser.parse_args()
    k = Board.empty(args.size, args.k).k
    start = time.perf_counter()
    if args.sides:
        print(f"{args.size}x{args.size} k={k}, unbeatable against the uniform player\n")
        print("| side | games | win / draw / loss % |")
        print("|---|---|---|")
        for side in "XO":
            c = counts("unbeatable", "random", args.sides, args.size, args.k, args.seed, side)
            rates = " / ".join(f"{100 * n / args.sides:.2f}" for n in c)
            print(f"| {side} | {args.sides} | {rates} |")
        if (args.size, k) == (3, 3):
            _exact_3x3()
    else:
        print(f"{args.size}x{args.size} k={k}, {args.games} games per pair (half as X, half as O)")
        print("win / draw / loss % of the row's level against the column's player\n")
        print("| level | " + " | ".join(f"vs {o}" for o in OPPONENTS) + " |")
        print("|---" * (len(OPPONENTS) + 1) + "|")
        for i, level in enumerate(LEVELS):
            if level not in args.levels.split(","):
                continue
            cols = []
            for j, opponent in enumerate(OPPONENTS):
                c = counts(level, opponent, args.games, args.size, args.k, args.seed + 10 * i + j)
                cols.append(" / ".join(f"{100 * n / args.games:.1f}" for n in c))
            print(f"| {level} | " + " | ".join(cols) + " |")
    print(f"\n({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
