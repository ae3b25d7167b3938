"""The engine's processes: the forkserver that starts them, the pool of workers that searches
(`Workers`), and analyses run in a process of their own, killed at their time limit
(``EngineRunner.analyse``)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import multiprocessing
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.compute import jobs

log = logging.getLogger(__name__)
T = TypeVar("T")
STOP_WAIT = 5.0  # seconds a stopping worker may take to finish its call (a search's budget)


class AnalysisTimeout(TimeoutError):
    """An analysis needed more time than it was given; it was stopped."""


class Pool:
    """One generation of the engine's worker processes, each fed through a pipe of its own.

    The event loop reads each answer when its pipe is readable (``add_reader``): a search costs
    the bot's process one pickled message each way and no thread of its own, where a
    ``ProcessPoolExecutor`` wakes two helper threads per call (0.5 ms of the bot's CPU more a
    call, docs/figures.md). A worker that dies breaks the generation for good, as a
    ``ProcessPoolExecutor`` does: every call in it fails with ``BrokenProcessPool``.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.broken = False
        self._workers: list[_Worker] = []
        self._queue: deque[_Job] = deque()
        self._later: deque[_Job] = deque()  # background work: after every move queued
        self._loop: asyncio.AbstractEventLoop | None = None  # reading the answers, once attached
        self._closed = False

    @property
    def pids(self) -> list[int]:
        return [worker.process.pid for worker in self._workers if worker.process.pid]

    def start(self) -> None:
        """Off the loop thread: start every worker and load its tables (``jobs.warm_up``); if
        one dies first, all are stopped (``BrokenProcessPool``)."""
        context = multiprocessing.get_context("forkserver")  # forking a threaded process is unsafe
        try:
            for _ in range(self.count):
                mine, theirs = context.Pipe()
                process = context.Process(target=jobs.serve, args=(theirs,), daemon=True)
                process.start()
                theirs.close()
                self._workers.append(_Worker(process, mine))
            for worker in self._workers:
                worker.conn.send((jobs.warm_up, ()))
            for worker in self._workers:
                worker.conn.recv()
        except Exception as error:  # its pipe closed or reset: broken, as a dead worker is
            self.shutdown(wait=False)
            raise BrokenProcessPool(f"an engine worker died as it started: {error!r}") from error

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop thread: read the workers' answers as they come, and send the calls
        submitted before."""
        if self._closed:
            return
        self._loop = loop
        for worker in self._workers:
            loop.add_reader(worker.conn.fileno(), self._answered, worker)
        for worker in self._workers:
            self._next(worker)

    def submit(
        self, fn: Callable[..., T], args: tuple[Any, ...], *, later: bool = False
    ) -> asyncio.Future[T]:
        """On the loop thread: `fn(*args)` in the first idle worker, or once one is. `later`:
        background work (a finished game's search for missed wins), which waits behind every
        other call queued and never takes the last idle worker of several."""
        if self.broken:  # before closed: a broken generation is shut as it is replaced
            raise BrokenProcessPool("an engine worker process died")
        if self._closed:
            raise RuntimeError("the engine's workers are closed")
        job = _Job(asyncio.get_running_loop().create_future(), fn, args)
        idle = next((worker for worker in self._workers if worker.job is None), None)
        if idle is None or self._loop is None or (later and not self._room_for_later()):
            (self._later if later else self._queue).append(job)
        else:
            self._send(idle, job)
        return job.future

    def _room_for_later(self) -> bool:
        """Whether background work may take an idle worker now: the only one, or one of two
        or more idle (so that a move coming next finds one)."""
        idle = sum(1 for worker in self._workers if worker.job is None)
        return idle >= (1 if self.count == 1 else 2)

    def _send(self, worker: _Worker, job: _Job) -> None:
        try:
            worker.conn.send((job.fn, job.args))  # pickled whole before a byte is written
        except OSError:  # its pipe is closed: it died
            worker.job = job
            self._break()
        except Exception as error:  # a call that cannot be pickled: its own error
            job.future.set_exception(error)
        else:
            worker.job = job

    def _answered(self, worker: _Worker) -> None:
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):  # it died
            self._break()
            return
        except Exception as error:  # an answer that cannot be unpickled here: the call's error
            ok, value = False, error
        job, worker.job = worker.job, None
        if job is not None and not job.future.done():
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        self._next(worker)

    def _next(self, worker: _Worker) -> None:
        while self._queue and worker.job is None and not self.broken:
            queued = self._queue.popleft()
            if not queued.future.done():  # not cancelled meanwhile
                self._send(worker, queued)
        while self._later and worker.job is None and not self.broken and self._room_for_later():
            queued = self._later.popleft()
            if not queued.future.done():
                self._send(worker, queued)

    def _break(self) -> None:
        """A worker died: every call in this generation fails, the others are killed."""
        self.broken = True
        self._fail(BrokenProcessPool("an engine worker process died"))
        for worker in self._workers:
            worker.process.kill()

    def _fail(self, error: BaseException) -> None:
        """On the loop thread (or with no loop attached): stop reading, fail every call left."""
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            for worker in self._workers:
                loop.remove_reader(worker.conn.fileno())
        jobs_left = [w.job for w in self._workers if w.job is not None]
        jobs_left += [*self._queue, *self._later]
        self._queue.clear()
        self._later.clear()
        for worker in self._workers:
            worker.job = None
        for job in jobs_left:
            if not job.future.done():
                job.future.set_exception(error)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers: a call under way ends with its budget (`wait`), then each worker
        exits; the calls not yet answered fail (the engine is closing)."""
        if self._closed:
            return
        self._closed = True
        self._fail(RuntimeError("the engine's workers are closed"))
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)  # ends its loop once its call under way is answered
        # In an empty context: a test's simulated clock must not reach multiprocessing's waits.
        contextvars.Context().run(self._join, time.monotonic() + STOP_WAIT if wait else 0.0)

    def _join(self, deadline: float) -> None:
        for worker in self._workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join()
            worker.conn.close()


@dataclass
class _Job:
    future: asyncio.Future[Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...]


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    job: _Job | None = None


class Workers:
    """The engine's worker processes for searches, all started at once (`start`), and started
    again if one dies (`run`): killed by the operating system, out of memory, by hand. A
    generation with a dead worker refuses all work from then on (``Pool``), so without a new
    one every search would fall back to a random move until the bot restarts."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool = Pool(count)
        self._lock = threading.Lock()  # one generation started at a time, none once closed
        self._closed = False

    async def start(self, helper: Executor) -> None:
        """Start and warm the workers in the `helper` thread, then read them on this loop."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(helper, contextvars.Context().run, self.pool.start)
        self.pool.attach(loop)

    def close(self) -> None:
        """Stop the workers of now (after a new generation being started, if one is)."""
        with self._lock:
            self._closed = True
            self.pool.shutdown()

    async def run(
        self, helper: Executor | None, fn: Callable[..., T], *args: Any, later: bool = False
    ) -> T:
        """`fn(*args)` in a worker (`later`: as background work, ``Pool.submit``); if the
        generation is found broken, in a new one, started in the `helper` thread (one line
        logged)."""
        pool = self.pool
        try:
            return await pool.submit(fn, args, later=later)
        except BrokenExecutor:
            if helper is None:
                raise  # closed
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(helper, contextvars.Context().run, self.replace, pool, loop)
        return await self.pool.submit(fn, args, later=later)

    def replace(self, broken: Pool, loop: asyncio.AbstractEventLoop) -> None:
        """Off the loop thread: a new generation, warmed and read by `loop`, in place of
        `broken`, unless it was replaced already (every search in flight on it sees it broken);
        none once closed."""
        with self._lock:
            if self.pool is not broken or self._closed:
                return
            broken.shutdown(wait=False)  # its workers are killed already: joined here
            fresh = Pool(self.count)
            fresh.start()
            loop.call_soon_threadsafe(fresh.attach, loop)  # before any call can reach it
            self.pool = fresh
            log.warning("an engine worker process died; %d started again", self.count)


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
