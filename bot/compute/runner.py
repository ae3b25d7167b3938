"""Runs the engine's searches off the event loop; a move that needs none is found on it.

A move that needs no search (3x3's table; a win, a forced block or a book on a bigger board) is
a lookup of microseconds (about 1 ms at worst, once the tables are loaded at start-up): found on
the loop, it costs less CPU than a round trip to a thread (about 0.06 ms), and a thread running
it would hold the GIL all the same. A search on a bigger board takes up to a second of pure
Python; in a thread it would hold the GIL and slow every socket on the loop, so it goes to a
process pool started at start-up, and again if a worker dies (``processes.Workers``). Ultimate's
search is compiled and lets go of the GIL (``Kind.native``): it runs in threads of the bot's
own process (as many as engine workers), its budget set as it starts, so that the searches
queued at once all answer within the click's wait (``search_budget``). Figures: docs/engine.md,
docs/figures.md.

How the bot's replies to clicks use it (a lookup at once, a search waited for briefly) is the
game flow's policy: ``bot.cogs.games.flow.thinking``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import engine
from bot.compute import jobs, processes
from bot.compute.processes import AnalysisTimeout
from bot.games import kinds
from bot.games.record import GameRecord

log = logging.getLogger(__name__)
T = TypeVar("T")
MOVE_BUDGET = engine.MOVE_BUDGET  # seconds of search for one move on 4x4 and 5x5
ANALYSES = 2  # deep analyses (reviews, hints) running at once on big boards
SHORTEST = 0.002  # seconds: the least a native search is given, however long its queue
MARGIN = 0.05  # seconds: a native search ends this long before the click's wait does


class EngineRunner:
    """Owns the engine's executors: one thread for small boards, processes for big ones."""

    def __init__(self, *, workers: int = 1, use_processes: bool = True) -> None:
        self._workers = workers
        self._use_processes = use_processes
        self._threads: ThreadPoolExecutor | None = None
        self._workers_pool: processes.Workers | None = None
        self._waiters: ThreadPoolExecutor | None = None
        self._searchers: ThreadPoolExecutor | None = None
        self._queued = 0  # native searches submitted and not yet started
        self._lock = threading.Lock()
        self.search_cpu = 0.0  # CPU seconds spent by native searches in this process
        self._analysts: set[BaseProcess] = set()
        self._slots = asyncio.Semaphore(ANALYSES)
        self.pending = 0  # engine calls queued or running (an operator watches it)
        self.searching = 0  # searches queued or running in the worker processes
        self._rng = random.Random()

    async def start(self) -> None:
        """Start the pools and warm every worker, so no player waits for a cold start."""
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")
        self._waiters = ThreadPoolExecutor(max_workers=ANALYSES, thread_name_prefix="analysis")
        self._searchers = ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="search")
        # Processes are started (and polled by multiprocessing) off the loop thread, all now,
        # in an empty context, like every process start here (see processes.run_limited).
        await asyncio.get_running_loop().run_in_executor(
            self._threads, contextvars.Context().run, jobs.warm_up
        )
        if self._use_processes:
            processes.start_forkserver()
            self._workers_pool = processes.Workers(self._workers)
            await self._workers_pool.start(self._threads)
        log.debug("engine ready: 1 thread, %d processes", self._workers if self._processes else 0)

    @property
    def _processes(self) -> processes.Pool | None:  # the workers of now (new if one died)
        return self._workers_pool.pool if self._workers_pool is not None else None

    @property
    def closed(self) -> bool:  # not started, or closed
        return self._threads is None

    def close(self) -> None:
        """Stop the pools: queued work is cancelled, running work (bounded by its budget) ends.
        The workers are joined: an unjoined child process lingers in multiprocessing's
        bookkeeping and is polled by every later process start."""
        for process in list(self._analysts):
            if process.is_alive():
                process.kill()
        if self._workers_pool is not None:
            self._workers_pool.close()
        for pool in (self._threads, self._waiters, self._searchers):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._threads = self._waiters = self._searchers = self._workers_pool = None

    async def call(self, search: bool, fn: Callable[..., T], *args: Any, later: bool = False) -> T:
        """Run `fn(*args)` (module-level, picklable) off the loop: a `search` in the worker
        processes (`later`: background work, behind the moves: ``processes.Pool.submit``),
        anything else in the engine's thread."""
        if self._threads is None:
            raise RuntimeError("EngineRunner.start() was not awaited")
        self.pending += 1
        try:
            if search and self._workers_pool is not None:
                # A dead worker: a new generation.
                return await self._workers_pool.run(self._threads, fn, *args, later=later)
            return await asyncio.get_running_loop().run_in_executor(
                self._threads, jobs.run, fn, *args
            )
        finally:
            self.pending -= 1

    def seed(self) -> int:
        """A fresh seed for one engine move: the same seed, the same move."""
        return self._rng.getrandbits(64)

    async def quick_move(self, game: GameRecord, *, level: str, seed: int) -> int | None:
        """The engine's move in `game` where it needs no search (3x3's table; a win, a forced
        block or a book elsewhere), else None: found at once, on the loop (see above)."""
        kind, rng = kinds.of(game), random.Random(seed)  # as `jobs` seeds a worker's move
        if not kind.searches(game):
            return kind.best_move(kind.position(game), level, rng, None)
        return kind.quick_move(kind.position(game), level, rng) if kind.quick else None

    async def best_move(
        self,
        game: GameRecord,
        *,
        level: str,
        seed: int | None = None,
        budget: float | None = None,
        quick_tried: bool = False,
    ) -> int:
        """The engine's move in `game` at `level`; a random seed unless one is given.

        `quick_move` first (not again with `quick_tried`: tried with this seed), then a search:
        its kind's budget unless told otherwise, shared among the searches queued or running,
        so no player waits behind a queue of full-length searches; a native search
        (``Kind.native``) in the search threads, its budget set as it starts (``search_budget``)."""
        kind = kinds.of(game)
        seed = self.seed() if seed is None else seed
        if not quick_tried:  # the same seed makes the same choices
            quick = await self.quick_move(game, level=level, seed=seed)
            if quick is not None:
                return quick
        board = kind.position(game)
        if kind.native and self._searchers is not None:
            # perf_counter: one clock in every thread (a simulated clock may replace monotonic)
            due = time.perf_counter() + kind.reply_wait - MARGIN
            return await self._native(kind.name, board, level, seed, budget, due)
        if budget is None:
            budget = kind.budget / (1 + self.searching)
        self.searching += 1
        try:
            return await self.call(True, jobs.choose_move, kind.name, board, level, seed, budget)
        finally:
            self.searching -= 1

    async def _native(
        self, kind: str, board: Any, level: str, seed: int, budget: float | None, due: float
    ) -> int:
        assert self._searchers is not None
        loop = asyncio.get_running_loop()
        self.pending += 1
        self.searching += 1
        with self._lock:
            self._queued += 1
        try:
            args = (kind, board, level, seed, budget, due)
            return await loop.run_in_executor(self._searchers, self._search, *args)
        finally:
            self.searching -= 1
            self.pending -= 1

    def _search(
        self, kind: str, board: Any, level: str, seed: int, budget: float | None, due: float
    ) -> int:
        """In a search thread: the move, searched for `budget` seconds if given, else for what
        this search gets as it starts; its CPU counted."""
        with self._lock:
            self._queued -= 1
            waiting = self._queued
        if budget is None:
            most = kinds.KINDS[kind].budget
            budget = search_budget(most, due - time.perf_counter(), waiting, self._workers)
        cpu = time.thread_time()
        try:
            return jobs.choose_move(kind, board, level, seed, budget)
        finally:
            spent = time.thread_time() - cpu
            with self._lock:
                self.search_cpu += spent

    async def analyse(self, search: bool, fn: Callable[..., T], *args: Any, limit: float) -> T:
        """Run `fn(*args)` with a time limit; raises AnalysisTimeout when it is not done by then.

        Exact analysis (a review, a hint) can take far longer than a move on a big board and
        cannot be interrupted: on 3x3 a table lookup in the engine thread; on bigger boards a
        process of its own, killed at the limit, at most `ANALYSES` at once, so a deep analysis
        never holds up the moves of other games."""
        if not search or self._processes is None:
            try:
                return await asyncio.wait_for(self.call(False, fn, *args), limit)
            except TimeoutError as exc:
                raise AnalysisTimeout(f"analysis took over {limit:g} s") from exc
        if self._waiters is None:
            raise RuntimeError("EngineRunner.start() was not awaited")
        loop = asyncio.get_running_loop()
        async with self._slots:
            # The process is started and waited for in a thread: never on the loop thread.
            return await loop.run_in_executor(
                self._waiters, processes.run_limited, fn, args, limit, self._analysts
            )


def search_budget(budget: float, left: float, waiting: int, threads: int) -> float:
    """Seconds for a search starting now: its kind's `budget` at most, and the `left` seconds
    before the click's wait ends shared with the `waiting` searches queued behind it on
    `threads` threads, so that a burst of clicks is answered within the wait (each search
    shorter) rather than most of it after (each a second edit and a second save); never less
    than `SHORTEST`. At people's pace a search gets its whole budget."""
    return max(SHORTEST, min(budget, left / (1 + waiting / threads)))
