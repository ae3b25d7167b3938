"""Pairing tournaments: the CPU time to pair each round of a Swiss (issue's target: a round of
256 players within 50 ms) and an arena's free players, with random results.

    python benchmarks/tournaments.py [--players 256] [--rounds 8] [--repeats 5] [--seed 1]

Prints, for each round, the median CPU milliseconds of ``swiss.pair`` over the repeats (each
repeat a fresh tournament from the same seed, so the same rounds), and the worst round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.tournaments import arena, swiss
from bot.games.tournaments.record import Bye, Game, tally


def swiss_rounds(players: int, rounds: int, seed: int) -> list[tuple[float, int]]:
    """CPU seconds and the rules given up, round by round, of one simulated Swiss."""
    rng = random.Random(seed)
    field = list(range(players))
    games: list[Game] = []
    byes: list[Bye] = []
    out = []
    for number in range(1, rounds + 1):
        started = time.process_time()
        paired = swiss.pair(field, games, byes)
        out.append((time.process_time() - started, paired.relaxed))
        games += [Game(number, x, o, rng.choice((0.0, 0.5, 1.0))) for x, o in paired.pairs]
        byes += [Bye(number, paired.bye)] if paired.bye is not None else []
    return out


def arena_pairing(players: int, seed: int) -> float:
    """CPU seconds of pairing every free player of an arena at once, after 2,000 games."""
    rng = random.Random(seed)
    games = []
    for number in range(2000):
        x, o = rng.sample(range(players), 2)
        games.append(Game(number, x, o, rng.choice((0.0, 0.5, 1.0))))
    records = tally(games)
    started = time.process_time()
    arena.pair_free(list(range(players)), records, playing=0)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = [swiss_rounds(args.players, args.rounds, args.seed) for _ in range(args.repeats)]
    print(f"Swiss of {args.players} players, {args.rounds} rounds, {args.repeats} repeats")
    worst = 0.0
    for number in range(args.rounds):
        median = statistics.median(run[number][0] for run in runs) * 1000
        worst = max(worst, max(run[number][0] for run in runs) * 1000)
        relaxed = runs[0][number][1]
        print(f"  round {number + 1}: {median:6.1f} ms median  (rules given up: {relaxed})")
    print(f"  worst round of any repeat: {worst:.1f} ms")
    times = [arena_pairing(args.players, args.seed) * 1000 for _ in range(args.repeats)]
    median = statistics.median(times)
    print(f"Arena: pairing {args.players} free players at once: {median:.1f} ms median")


if __name__ == "__main__":
    main()
