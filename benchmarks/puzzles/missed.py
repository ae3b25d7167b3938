"""Missed wins: the CPU a finished game costs to search for the puzzles it left behind.

Games on each big board, half between uniformly random players (the most wins to miss) and half
between randomly chosen gentler levels; each is searched with the solver's tables cold (as in a
fresh worker) and CPU time is measured per game. Medians and p99 over the games; measured, not
asserted.

    python benchmarks/puzzles/missed.py --games 60 [--budget 0.5]
    python benchmarks/puzzles/missed.py --burst 40

With ``--budget`` each game is searched as the bot searches it (``bot.puzzles.missed.BUDGET``,
its deadline on the worker's clock): the positions not judged within it are left out, and the
CPU a game costs is then the budget and what a search does past it before it stops. With
``--burst N``, N finished 5x5 games are searched at once in the bot's engine workers (as N games
ending together would be), while another game asks for its unbeatable moves: each search's CPU
in its worker (p50, p99, max) and the moves' time, alone and during the burst.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.compute import jobs
from bot.compute.runner import EngineRunner
from bot.config import default_engine_workers
from bot.games.record import GameRecord
from bot.puzzles.missed import BUDGET
from devkit.measure.jobs import timed
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


def _position(rng: random.Random, plies: int) -> GameRecord:
    """A 5x5 game with 4 in a row against the bot at `unbeatable`, `plies` random moves in,
    the bot to move."""
    board, moves = Board.empty(5, 4), []
    while len(moves) < plies or board.turn != "O":
        cell = rng.choice(board.legal_moves())
        if board.play(cell).outcome() is not None:
            continue
        moves.append(cell)
        board = board.play(cell)
    return GameRecord(
        id=1,
        guild_id=1,
        channel_id=1,
        x_id=1,
        o_id=2,
        challenger_id=1,
        size=5,
        k=4,
        moves=tuple(moves),
        ai_side="O",
        ai_level="unbeatable",
    )


async def _moves(engine: EngineRunner, positions: list[GameRecord]) -> list[float]:
    """Each position's unbeatable move, one after another: the seconds each took."""
    took = []
    for game in positions:
        started = time.perf_counter()
        await engine.best_move(game, level="unbeatable")
        took.append(time.perf_counter() - started)
    return took


async def burst(finished: int, seed: int) -> None:
    """`finished` random 5x5 games (4 in a row) ending at once, each searched for missed wins in
    the bot's engine workers as the bot does (``missed.BUDGET``), while another game asks for its
    unbeatable moves one after another: each search's CPU in its worker, and the moves' time,
    during the burst and alone."""
    rng = random.Random(seed)
    engine = EngineRunner(workers=default_engine_workers())
    await engine.start()
    try:
        games = [_game(5, 4, rng, levels=False) for _ in range(finished)]
        positions = [_position(rng, rng.randrange(4, 9)) for _ in range(12)]
        alone = await _moves(engine, positions)
        searches = [
            asyncio.create_task(
                engine.call(
                    True,
                    timed,
                    jobs.missed_wins,
                    5,
                    4,
                    tuple(moves),
                    ("X", "O"),
                    BUDGET,
                    later=True,
                )
            )
            for moves in games
        ]
        during: list[float] = []
        while not all(task.done() for task in searches):
            during += await _moves(engine, positions[:2])
        cpu = list(await asyncio.gather(*searches))
    finally:
        engine.close()
    workers = default_engine_workers()
    print(
        f"{finished} finished 5x5 games (4 in a row) at once, budget {BUDGET} s, {workers} "
        f"workers: worker CPU per game {_spread(cpu)}"
    )
    for name, took in (("alone", alone), ("during the burst", during)):
        print(f"  another game's unbeatable move, {name} ({len(took)} moves): {_spread(took)}")


def _spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    return (
        f"p50 {statistics.median(ordered) * 1e3:.0f} ms, p99 {p99 * 1e3:.0f} ms, "
        f"max {ordered[-1] * 1e3:.0f} ms"
    )


def main() -> None:
    """Time the search of each game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds a game may take (the bot's: 0.5)"
    )
    parser.add_argument(
        "--burst", type=int, default=0, help="finished games searched at once in the workers"
    )
    args = parser.parse_args()
    if args.burst:
        asyncio.run(burst(args.burst, args.seed))
        return
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
            deadline = None if args.budget is None else time.monotonic() + args.budget
            got = missed_wins(size, k, moves, deadline=deadline)
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
