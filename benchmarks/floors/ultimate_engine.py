"""The floor's engine for ultimate: the bot's own search, called as a plain discord.py bot would.

Against the bot, the bot's side of an ultimate game plays the engine's move at the game's level
(``engine.ultimate.best_move``), searched in a thread (the compiled search lets go of the GIL)
and waited for before the click's one edit. Its budget is the bot's
(``bot.compute.runner.search_budget``: ultimate's budget, shared with the searches queued behind
it so that a burst of clicks is answered within the click's wait): without it a burst of sixty
full searches on one thread would take twelve seconds, past Discord's three for a response.
The floor thus searches as much as the bot does, and the two compare like for like; the CPU of
the searches, counted in their thread, is kept apart (``search_cpu``, as the bot's
``EngineRunner.search_cpu``), so each side's cost without them is a figure too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bot.compute.runner import MARGIN, search_budget
from bot.games.kinds import ULTIMATE
from engine import ultimate

LEVELS = {"easy": "easy", "medium": "medium", "hard": "hard"}  # anything else: expert


class FloorEngine:
    """One search thread, as the bot's default of one engine worker."""

    _processes = None  # no worker processes (``measure.instruments.engine_pids``)

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="search")
        self._lock = threading.Lock()
        self._queued = 0
        self.search_cpu = 0.0

    async def move(self, moves: list[int], difficulty: str | None) -> int:
        """The engine's move after `moves`, at the level /tictactoe's difficulty names."""
        level = LEVELS.get(difficulty or "", "expert")
        due = time.perf_counter() + ULTIMATE.reply_wait - MARGIN
        with self._lock:
            self._queued += 1
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._search, tuple(moves), level, due)

    def _search(self, moves: tuple[int, ...], level: str, due: float) -> int:
        with self._lock:
            self._queued -= 1
            waiting = self._queued
        budget = search_budget(ULTIMATE.budget, due - time.perf_counter(), waiting, 1)
        cpu = time.thread_time()
        board = ultimate.UltimateBoard.from_moves(moves)
        cell = ultimate.best_move(board, level=level, deadline=time.monotonic() + budget)
        spent = time.thread_time() - cpu
        with self._lock:
            self.search_cpu += spent
        return cell
