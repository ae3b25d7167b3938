"""Tune ultimate's evaluation by self-play: one weight at a time, each try against the current
weights at a fixed depth, sides alternating, openings of a few random moves shared by each
pair of games. A try that scores over `--accept` replaces the current weights; a round
that keeps none ends the tuning (the games are deterministic: another round would repeat it).

    .venv/bin/python scripts/tune_ultimate.py --games 400 --depth 6 --rounds 2

Prints one line per try and the weights found; engine/ultimate/evaluation.py holds them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

from engine.ultimate import UltimateBoard, analyse
from engine.ultimate.evaluation import DEFAULT, Weights

# The tries for each weight: factors of its current value.
TRIES: dict[str, tuple[float, ...]] = {
    "boards": (0.5, 2.0),
    "choice": (0.0, 2.0, 4.0),
    "fill": (0.75, 1.25),
}


def opening(seed: int, plies: int) -> UltimateBoard:
    rng = random.Random(seed)
    board = UltimateBoard.empty()
    for _ in range(plies):
        board = board.play(rng.choice(board.legal_moves()))
    return board


def game(job: tuple[int, Weights, Weights, int, int]) -> float:
    """One game from an opening: the score of `trial` (1 a win, 0.5 a draw)."""
    index, trial, current, depth, plies = job
    board = opening(index // 2, plies)
    trial_side = "X" if index % 2 == 0 else "O"
    while board.outcome() is None:
        weights = trial if board.turn == trial_side else current
        board = board.play(analyse(board, depth=depth, safe=False, weights=weights).move)
    outcome = board.outcome()
    assert outcome is not None
    return 0.5 if outcome.winner is None else float(outcome.winner == trial_side)


def match(
    pool: multiprocessing.pool.Pool, trial: Weights, current: Weights, args: argparse.Namespace
) -> float:
    jobs = [(i, trial, current, args.depth, args.plies) for i in range(args.games)]
    return sum(pool.map(game, jobs)) / args.games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games a try (even)")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--plies", type=int, default=4, help="random moves of each opening")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--accept", type=float, default=0.55)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    current = DEFAULT
    started = time.monotonic()
    with multiprocessing.get_context("forkserver").Pool(args.workers) as pool:
        for round_ in range(1, args.rounds + 1):
            start = current
            for name, tries in TRIES.items():
                for factor in tries:
                    value = round(getattr(current, name) * factor, 4)
                    if value == getattr(current, name):
                        continue
                    trial = current._replace(**{name: value})
                    score = match(pool, trial, current, args)
                    kept = score > args.accept
                    print(
                        f"round {round_}: {name} {getattr(current, name):g} -> {value:g}: "
                        f"{score:.1%} of {args.games} games{' (kept)' if kept else ''}",
                        flush=True,
                    )
                    if kept:
                        current = trial
            if current == start:
                break  # a round that kept nothing: the games would repeat it exactly
    minutes = (time.monotonic() - started) / 60
    print(f"weights: {current} ({minutes:.1f} min, depth {args.depth})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
