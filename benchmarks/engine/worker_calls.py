"""One call to the engine's worker processes: the CPU it costs the bot's own process (every
thread of it) and the worker's, for the bot's pool (``bot.compute.processes.Pool``: a pipe
per worker, read by the event loop) against a ``ProcessPoolExecutor`` (a helper thread to feed
it and one to read it), each with one warmed worker, on an asyncio loop.

Each round makes `--calls` calls one after another, `--gap` seconds apart (a game's end at
people's pace: its missed wins, a 5x5 k=3 game of 7 moves), and takes the loop's own CPU for
as many sleeps with no call away; the figures are medians over the rounds, the two kinds
interleaved. Measured, not asserted.

    python benchmarks/engine/worker_calls.py --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.compute import jobs, processes
from devkit.measure.instruments import process_cpu

GAME = (12, 6, 7, 8, 13, 18, 11)  # 5x5 k=3, won by X: its missed wins are a call's work
CALL = (jobs.missed_wins, 5, 3, GAME, ("X", "O"), 0.5)


async def _calls(
    call: Callable[[], Awaitable[Any]], pids: list[int], args: argparse.Namespace
) -> tuple[float, float]:
    """ms of CPU a call: the bot's process, its sleeps taken away, and the worker."""
    expected = CALL[0](*CALL[1:])  # every answer is checked: a call that fails is no figure
    mine, theirs = time.process_time(), process_cpu(pids)
    for _ in range(args.calls):
        if await call() != expected:
            raise SystemExit("a worker gave a wrong answer")
        await asyncio.sleep(args.gap)
    spent, worker = time.process_time() - mine, process_cpu(pids) - theirs
    idle = time.process_time()
    for _ in range(args.calls):
        await asyncio.sleep(args.gap)
    spent -= time.process_time() - idle
    return spent * 1000 / args.calls, worker * 1000 / args.calls


async def _executor(args: argparse.Namespace) -> tuple[float, float]:
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(1, context, initializer=jobs.exit_with_parent)
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(pool, jobs.warm_up)
        pids = list(pool._processes)  # type: ignore[attr-defined]
        return await _calls(lambda: loop.run_in_executor(pool, jobs.run, *CALL), pids, args)
    finally:
        pool.shutdown()


async def _pool(args: argparse.Namespace) -> tuple[float, float]:
    pool = processes.Pool(1)
    await asyncio.get_running_loop().run_in_executor(None, pool.start)
    pool.attach(asyncio.get_running_loop())
    try:
        return await _calls(lambda: pool.submit(CALL[0], CALL[1:]), pool.pids, args)
    finally:
        pool.shutdown()


async def _main(args: argparse.Namespace) -> dict[str, list[tuple[float, float]]]:
    processes.start_forkserver()
    rows: dict[str, list[tuple[float, float]]] = {"ProcessPoolExecutor": [], "the bot's Pool": []}
    for _ in range(args.rounds):
        rows["ProcessPoolExecutor"].append(await _executor(args))
        rows["the bot's Pool"].append(await _pool(args))
    print(f"# python benchmarks/engine/worker_calls.py --rounds {args.rounds} --calls {args.calls}")
    print("\n| pool | the bot's process, ms a call | the worker, ms a call |")
    print("|---|---:|---:|")
    for name, found in rows.items():
        own = statistics.median(row[0] for row in found)
        worker = statistics.median(row[1] for row in found)
        print(f"| {name} | {own:.3f} | {worker:.3f} |")
    return rows


def main(argv: list[str] | None = None) -> dict[str, list[tuple[float, float]]]:
    """Run the rounds and print the table; the figures of each round, by pool."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between calls")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    rows = asyncio.run(_main(args))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return rows


if __name__ == "__main__":
    main()
