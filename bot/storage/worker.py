"""One thread that runs a store's blocking calls, one at a time in the order given, each
answered on the event loop that asked.

What ``ThreadPoolExecutor(max_workers=1)`` and ``run_in_executor`` would do for the SQLite
store, with less in between: a call is one entry in a queue, its answer one
``call_soon_threadsafe``, with no future of the thread's own chained to the loop's. At people's
pace the trip to the thread and back is most of what a save costs
(``benchmarks/storage_bench.py``). A call the caller stopped waiting for (cancelled) still runs,
queued or begun (a thread cannot stop a call it has begun); its answer is dropped. `idle` says
when every call given has been answered on the loop: nothing runs on the thread, and nothing
waits for it (``sqlite_writes`` writes on the loop's thread then).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class Worker:
    """The thread, started at once; `stop` ends it after the calls already given."""

    def __init__(self, name: str) -> None:
        self._inbox: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        # A daemon: a process that ends without `stop` is not held up by it (a commit cut short
        # is undone by SQLite's log at the next open).
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._owed = 0  # calls given and not yet answered on the loop (both on the loop's thread)

    @property
    def idle(self) -> bool:
        """Every call given has been answered: the thread does nothing now (on the loop's
        thread, which alone gives calls and takes answers)."""
        return self._owed == 0

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """`fn(*args)` on the thread, after the calls given before; its result, or what it
        raised, in the returned future."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._inbox.put((loop, done, fn, args))
        self._owed += 1
        return done

    def stop(self) -> None:
        """End the thread once the calls given so far are done, and wait for it."""
        self._inbox.put(None)
        self._thread.join()

    def _serve(self) -> None:
        while (job := self._inbox.get()) is not None:
            self._run(*job)
            del job  # nothing of one call kept while waiting for the next

    def _run(
        self,
        loop: asyncio.AbstractEventLoop,
        done: asyncio.Future[Any],
        fn: Callable[..., Any],
        args: tuple[Any, ...],
    ) -> None:
        try:
            result = fn(*args)
        except BaseException as error:  # the caller's to handle, as run_in_executor does
            _answer(loop, self._failed, done, error)
            # The error's traceback keeps this frame: nothing of the call is kept through it.
            del loop, done, fn, args
        else:
            _answer(loop, self._succeeded, done, result)

    def _succeeded(self, done: asyncio.Future[Any], result: Any) -> None:
        self._owed -= 1
        if not done.done():
            done.set_result(result)

    def _failed(self, done: asyncio.Future[Any], error: BaseException) -> None:
        self._owed -= 1
        if not done.done():
            done.set_exception(error)


def _answer(
    loop: asyncio.AbstractEventLoop,
    how: Callable[[asyncio.Future[Any], Any], None],
    done: asyncio.Future[Any],
    value: Any,
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
        loop.call_soon_threadsafe(how, done, value)
