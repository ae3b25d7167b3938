"""Measuring instruments shared by the load benchmark's drivers (nothing here imports SimCord).

Real clocks, loop lag, garbage-collection pauses, save timings, where the CPU goes and CPU of
other processes (what a board message shows is devkit.measure.boards; memory by owner
devkit.measure.memory). Used in the benchmark's own process (with SimCord) and in the bot's
process when the bot runs against the local fake Discord.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar

from devkit.localdiscord.model import (  # noqa: F401  (re-exported for the benchmark)
    BUTTON,
    EPHEMERAL,
    Timing,
    now,
)
from devkit.measure.memory import code_place, root_of

# ----------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(values: Sequence[float]) -> dict[str, float]:
    """p50, p99 and max of durations in seconds, as milliseconds."""
    return {
        "p50": percentile(values, 50) * 1e3,
        "p99": percentile(values, 99) * 1e3,
        "max": (max(values) if values else float("nan")) * 1e3,
        "n": len(values),
    }


# ------------------------------------------------------------------------------ loop lag


class LagProbe:
    """A ticker on the event loop: how late each 10 ms timer runs, in real time.

    It schedules with an empty context, so SimCord neither tracks it as bot work (settling never
    waits for it) nor virtualizes its timers; ``loop.time()`` outside the bot's scope is the real
    monotonic clock, and the lag is read with that same clock.
    """

    clock: ClassVar[Callable[[], float]] = staticmethod(time.monotonic)

    def __init__(self, interval: float = 0.010) -> None:
        self.interval = interval
        self.samples: list[tuple[float, float]] = []  # (perf_counter at run, lag in s)
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start ticking on the running loop."""
        self._loop = asyncio.get_running_loop()
        self._arm(self.clock() + self.interval)

    def _arm(self, due: float) -> None:
        assert self._loop is not None
        self._handle = self._loop.call_at(due, self._tick, due, context=contextvars.Context())

    def _tick(self, due: float) -> None:
        ran = self.clock()
        self.samples.append((now(), max(0.0, ran - due)))
        self._arm(max(due + self.interval, ran + self.interval / 2))

    def stop(self) -> None:
        """Stop ticking."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def lags(self, start: float = float("-inf"), end: float = float("inf")) -> list[float]:
        """Lags of the ticks that ran between two perf_counter readings."""
        return [lag for at, lag in self.samples if start <= at <= end]


class GcWatch:
    """Times the garbage collector's pauses (a cause of loop lag that is nobody's code)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = now()
        else:
            self.pauses.append(now() - self._started)

    def start(self) -> None:
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)


class StoreWatch:
    """Times the bot's game saves: the SQLite work of one transaction (its fsync included with
    DATABASE_SYNC=full, for all the saves written together), on the storage thread or on the
    loop's when written there (`sqlite_writes`), and as the event loop awaits them (queueing
    behind the transaction being written included).

    Wraps the store instance's own methods for one run; the bot's code is unchanged.
    """

    def __init__(self, store: Any) -> None:
        self.store = store
        self.service: list[float] = []
        self.awaited: list[float] = []

    def start(self) -> None:
        if self.store is None:  # a bot without storage (the floor)
            return
        store, service, awaited = self.store, self.service, self.awaited
        save = store.save_game
        if not hasattr(store, "_write_batch"):  # PostgreSQL: no storage thread, only the await
            store.save_game = self._timed(save, awaited)
            return

        def timed(work: Any) -> Any:
            def timed_work(games: Any) -> Any:
                started = now()
                try:
                    return work(games)
                finally:
                    service.append(now() - started)

            return timed_work

        store._write_batch, store._write_here = timed(store._write_batch), timed(store._write_here)
        store.save_game = self._timed(save, awaited)

    @staticmethod
    def _timed(save: Any, awaited: list[float]) -> Any:
        async def timed_save(game: Any) -> None:
            started = now()
            try:
                await save(game)
            finally:
                awaited.append(now() - started)

        return timed_save

    def stop(self) -> None:
        for name in ("_write_batch", "_write_here", "save_game"):
            if self.store is not None:
                self.store.__dict__.pop(name, None)


# ------------------------------------------------------------------ where the CPU goes


class Sampler:
    """Samples the event loop thread's stack every few ms: whose code is it running?

    A sample belongs to the innermost frame in bot/, engine/, discord/, simcord/, benchmarks/ or
    devkit/ (the simulated players, "driver"); "loop" is asyncio and the rest of the standard
    library, "idle" is waiting in the selector. It separates SimCord's simulation cost from the
    bot's and discord.py's.
    """

    def __init__(self, interval: float = 0.004) -> None:
        self.interval = interval
        self.counts: dict[str, int] = {}
        # (owner, innermost function in the owner's code, innermost function overall)
        self.places: dict[tuple[str, str, str], int] = {}
        self._target = threading.get_ident()
        self._switch = sys.getswitchinterval()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="load-sampler", daemon=True)

    def start(self) -> None:
        """Start sampling the calling thread.

        The sampler needs the GIL to look; with the default 5 ms switch interval it would get it
        mostly when the loop thread gives it up in a system call (os.urandom, a socket read),
        and those places would swamp the counts. A short interval lets it in at any bytecode.
        """
        self._target = threading.get_ident()
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(0.0002)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            frame = sys._current_frames().get(self._target)
            if frame is None:
                continue
            code = frame.f_code
            if code.co_name in ("select", "poll") and "selectors" in code.co_filename:
                self.counts["idle"] = self.counts.get("idle", 0) + 1
                continue
            innermost, owner, place = code_place(code), "loop", ""
            while frame is not None:
                found = root_of(frame.f_code.co_filename)
                if found is not None:
                    owner, place = found, code_place(frame.f_code)
                    break
                frame = frame.f_back
            self.counts[owner] = self.counts.get(owner, 0) + 1
            key = (owner, place, innermost)
            self.places[key] = self.places.get(key, 0) + 1

    def hot(self, top: int = 25) -> list[tuple[float, str, str, str]]:
        """The most sampled places: (share of busy samples, owner, its function, innermost)."""
        total = sum(self.places.values()) or 1
        ranked = sorted(self.places.items(), key=lambda item: -item[1])[:top]
        return [(count / total, *key) for key, count in ranked]

    def shares(self) -> dict[str, float]:
        """Fraction of the busy (non-idle) samples per owner."""
        busy = {k: v for k, v in self.counts.items() if k != "idle"}
        total = sum(busy.values()) or 1
        return {k: v / total for k, v in sorted(busy.items())}


# ------------------------------------------------------------------------------------ cpu


def process_cpu(pids: Iterable[int]) -> float:
    """User + system CPU seconds of other processes (the engine's workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def engine_pids(bot: Any) -> list[int]:
    """Pids of the bot's engine worker processes, if it runs any (``processes.Pool``, or the
    ``ProcessPoolExecutor`` of older checkouts)."""
    pool = getattr(getattr(bot, "engine", None), "_processes", None)
    return list(getattr(pool, "pids", None) or getattr(pool, "_processes", None) or [])


def retire_engine(pool: Any) -> None:
    """Join and reap a finished bot's engine workers before the next bot starts its pool.

    A later pool's first ``Process.start()`` polls every earlier child with
    ``multiprocessing.connection.wait(0)``, a loop that ends only when ``time.monotonic()``
    moves; inside the bot's scope SimCord freezes that clock, so a worker left unjoined would
    make the next bot's start-up spin forever. Called outside the bot's scope, where the clock
    is real; harmless when the bot's close() already joined them.
    """
    if pool is not None:
        pool.shutdown(wait=True)
    multiprocessing.active_children()  # reaps every child that has exited


def chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    """Consecutive slices of at most `size` items."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
