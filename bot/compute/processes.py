"""The engine's processes: the forkserver that starts them, the pool of workers that searches
(`Workers`), and analyses run in a process of their own, killed at their time limit
(``EngineRunner.analyse``)."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from multiprocessing import forkserver
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.compute import jobs

log = logging.getLogger(__name__)
T = TypeVar("T")


class AnalysisTimeout(TimeoutError):
    """An analysis needed more time than it was given; it was stopped."""


class Workers:
    """The engine's worker processes for searches, all started at once (`warm`), and started
    again if one dies (`replace`): killed by the operating system, out of memory, by hand. A pool
    with a dead worker refuses all work from then on (BrokenProcessPool), so without a new one
    every search would fall back to a random move until the bot restarts."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool = self._new()
        self._lock = threading.Lock()

    def _new(self) -> ProcessPoolExecutor:
        # forkserver: forking a process that already runs threads is unsafe.
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.count, context, initializer=jobs.exit_with_parent)

    async def run(self, helper: Executor | None, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker; if the pool is found broken, in a new pool, started in the
        `helper` thread (one line logged)."""
        pool, loop = self.pool, asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, jobs.run, fn, *args)
        except BrokenExecutor:
            if helper is None:
                raise  # closed
        if await loop.run_in_executor(helper, contextvars.Context().run, self.replace, pool):
            log.warning("an engine worker process died; %d started again", self.count)
        return await loop.run_in_executor(self.pool, jobs.run, fn, *args)

    def warm(self) -> None:
        """Off the loop thread: start every worker now, its tables loaded (one submission per
        worker: each finds no idle worker and starts a new one)."""
        for future in [self.pool.submit(jobs.warm_up) for _ in range(self.count)]:
            future.result()

    def replace(self, broken: Executor) -> bool:
        """Off the loop thread: a new pool, warmed, in place of `broken`; False if it was
        replaced already (every search in flight on it sees it broken)."""
        with self._lock:
            if self.pool is not broken:
                return False
            broken.shutdown(wait=False, cancel_futures=True)  # it joins what is left of it
            self.pool = self._new()
            self.warm()
            return True


def run_limited(
    fn: Callable[..., T], args: tuple[Any, ...], limit: float, analysts: set[BaseProcess]
) -> T:
    # In an empty context: nothing of the caller's context (a test's simulated clock, say)
    # may reach multiprocessing's own waits, which read time.monotonic().
    return contextvars.Context().run(_run_process, fn, args, limit, analysts)


def _run_process(
    fn: Callable[..., T], args: tuple[Any, ...], limit: float, analysts: set[BaseProcess]
) -> T:
    context = multiprocessing.get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=jobs.send_result, args=(sender, fn, args), daemon=True)
    analysts.add(process)
    try:
        process.start()
        sender.close()
        if not receiver.poll(limit):
            raise AnalysisTimeout(f"analysis took over {limit:g} s")
        ok, value = receiver.recv()
    except EOFError as exc:
        raise RuntimeError("the analysis process ended without an answer") from exc
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join()
        analysts.discard(process)
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def start_forkserver() -> None:
    """Start the forkserver deaf to SIGINT and SIGTERM, as every engine process it forks is.

    Ctrl-C or SIGTERM sent to the bot's process group reaches them too. The bot's process
    stops them itself once the changes in flight are done; had the forkserver died at the
    signal, every worker would look dead to the pool (their exit is reported through it) and
    the move in flight would be lost; a worker just forked would die with a traceback. They
    still end with the bot's process, whatever kills it.
    """
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()  # signal dispositions can only be set on the main thread
        return
    endings = (signal.SIGINT, signal.SIGTERM)
    previous = [signal.signal(ending, signal.SIG_IGN) for ending in endings]
    try:
        forkserver.ensure_running()
    finally:
        for ending, handler in zip(endings, previous, strict=True):
            signal.signal(ending, handler)
