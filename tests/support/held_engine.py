"""An engine move that is computed as usual but handed back only once a gate file exists.

It runs in the bot's engine worker process, so a test can keep the bot "thinking" for as long
as it needs to look at what happens meanwhile, however fast the engine has become. Imports
only the engine side, as a worker process should.
"""

from __future__ import annotations

import time
from pathlib import Path

import engine
from bot.compute import jobs as engine_jobs

HOLD_AT_MOST = 30.0  # seconds: a gate never opened must not hang the test run


def choose_move_when_open(
    gate: str, kind: str, board: engine.Board, level: str, seed: int | None, budget: float | None
) -> int:
    """`engine_jobs.choose_move(...)`, returned once `gate` exists (or after HOLD_AT_MOST)."""
    cell = engine_jobs.choose_move(kind, board, level, seed, budget)
    # perf_counter, not monotonic: this must also work in a thread of a SimCord-run process.
    give_up = time.perf_counter() + HOLD_AT_MOST
    while not Path(gate).exists() and time.perf_counter() < give_up:
        time.sleep(0.002)
    return cell
