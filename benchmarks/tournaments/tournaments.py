"""Pairing tournaments: the CPU time to pair each round of a Swiss (target: a round of 256
players within 50 ms) and an arena's free players, with random results; and an arena played out
in simulated time (players of random strength and pace, 3x3 games at people's pace).

    python benchmarks/tournaments/tournaments.py [--players 256] [--rounds 8] [--repeats 5]
        [--seed 1] [--arena-players 40] [--arena-minutes 30] [--small-arenas 200]

Prints, for each round, the median CPU milliseconds of ``swiss.pair`` over the repeats (each
repeat a fresh tournament from the same seed, so the same rounds), and the worst round. The
simulated arena prints the games played, how long a free player waited for a pairing (p50, p99,
in simulated seconds: what the arena's rules make them wait, the bot's own time apart) and the
CPU of each pairing (the players' records counted again from every game, then ``pair_free``).
Last, many 1-minute arenas of six at a fast pace, the bot pairing once a second (those who came
free meanwhile are paired together, as results that arrive while the bot pairs are): the
immediate rematches per arena (two who had just played each other paired again while anyone
else was free or playing). The pairing of an arena is a maximum matching without immediate
rematches: its matching pass is timed apart, over 256 free players.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.tournaments import arena, swiss
from bot.tournaments.record import Bye, Game, tally


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


def arena_augmenting(players: int, unpaired: int | None, seed: int) -> float:
    """CPU seconds of the maximum-matching pass (``arena._augmented``) over `players` free
    players, each with a last opponent among them, from a pairing that left `unpaired` of them
    (None: from no pair at all, its worst)."""
    rng = random.Random(seed)
    field = list(range(players))
    order = rng.sample(field, players)
    last = {a: b for a, b in zip(order[0::2], order[1::2], strict=True)}
    last.update({b: a for a, b in last.items()})
    mate: dict[int, int] = {}
    if unpaired is not None:
        for a, b in zip(field[0::2], field[1::2], strict=True):
            if last[a] == b:  # the next one along instead
                continue
            mate[a], mate[b] = b, a
        for a in list(mate)[:unpaired]:
            mate.pop(mate.pop(a, a), None)
    started = time.process_time()
    arena._augmented(field, mate, last)
    return time.process_time() - started


def arena_played(
    players: int, minutes: float, seed: int, *, pace: tuple[float, float] = (2, 10), tick: float = 0
) -> dict[str, float]:
    """An arena played in simulated time: each game 5 to 9 moves, each player moving in 2 to 10
    seconds (their own `pace`), the stronger more likely to win, a third of games drawn; a player
    is free again the moment their game ends (with `tick`, at the next whole `tick`: the bot's
    next pairing), and each time someone comes free the free players are paired. Games started
    before the end finish and count."""
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    speed = [rng.uniform(*pace) for _ in range(players)]
    rematches = 0
    end = minutes * 60
    games: list[Game] = []
    free: list[int] = list(range(players))
    free_since = dict.fromkeys(free, 0.0)
    waits: list[float] = []
    cpu: list[float] = []
    events: list[tuple[float, int]] = []  # (when a game ends, its index in games)
    now = 0.0
    while True:
        if now < end and len(free) >= 2:
            started = time.process_time()
            records = tally(games)
            pairs = arena.pair_free(free, records, playing=len(events))
            cpu.append(time.process_time() - started)
            others = len(free) > 2 or len(events) > 0 or len(pairs) > 1
            for x, o in pairs:
                last = records[x].opponents[-1:] if x in records else []
                rematches += others and last == [o]
                for player in (x, o):
                    free.remove(player)
                    waits.append(now - free_since[player])
                moves = rng.randint(5, 9)
                length = sum(speed[x if move % 2 == 0 else o] for move in range(moves))
                ends = now + length
                heapq.heappush(
                    events, (math.ceil(ends / tick) * tick if tick else ends, len(games))
                )
                games.append(Game(len(games), x, o))
        if not events:
            break
        now = events[0][0]
        while events and events[0][0] == now:  # every game that ends by the bot's next pairing
            index = heapq.heappop(events)[1]
            game = games[index]
            edge = 1 / (1 + math.exp(strength[game.o] - strength[game.x]))
            draw = rng.random() < 1 / 3
            result = 0.5 if draw else (1.0 if rng.random() < edge else 0.0)
            games[index] = Game(game.round, game.x, game.o, result)
            for player in (game.x, game.o):
                free.append(player)
                free_since[player] = now
    waits.sort()
    return {
        "games": len(games),
        "wait_p50": statistics.median(waits),
        "wait_p99": waits[min(len(waits) - 1, int(len(waits) * 0.99))],
        "pairings": len(cpu),
        "cpu_p50_ms": statistics.median(cpu) * 1000,
        "cpu_max_ms": max(cpu) * 1000,
        "over_s": now - end,
        "rematches": rematches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arena-players", type=int, default=40)
    parser.add_argument("--arena-minutes", type=float, default=30)
    parser.add_argument("--small-arenas", type=int, default=200)
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
    for unpaired in (8, None):
        times = [arena_augmenting(args.players, unpaired, args.seed + n) for n in range(5)]
        left = "none paired" if unpaired is None else f"{unpaired} or so left unpaired"
        print(
            f"Arena: the matching pass, {args.players} free, {left}: "
            f"{statistics.median(times) * 1000:.1f} ms median"
        )
    run = arena_played(args.arena_players, args.arena_minutes, args.seed)
    print(
        f"Arena of {args.arena_players} players, {args.arena_minutes:g} simulated minutes: "
        f"{run['games']:.0f} games; a free player waited {run['wait_p50']:.1f} s (p50), "
        f"{run['wait_p99']:.1f} s (p99) for a pairing; {run['pairings']:.0f} pairings, CPU "
        f"{run['cpu_p50_ms']:.2f} ms median, {run['cpu_max_ms']:.2f} ms worst; the last game "
        f"ended {run['over_s']:.0f} s after the end; {run['rematches']:.0f} immediate rematches"
    )
    small = [
        arena_played(6, 1, args.seed + n, pace=(0.5, 1.5), tick=1.0)
        for n in range(args.small_arenas)
    ]
    rematches = [run["rematches"] for run in small]
    print(
        f"{args.small_arenas} arenas of 6 players, 1 simulated minute, paired once a second: "
        f"{statistics.mean(run['games'] for run in small):.1f} games each; immediate rematches "
        f"{statistics.mean(rematches):.2f} an arena (max {max(rematches):.0f}; arenas with one: "
        f"{sum(1 for r in rematches if r)})"
    )


if __name__ == "__main__":
    main()
