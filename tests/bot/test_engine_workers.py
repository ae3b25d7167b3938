"""The engine's worker processes (``bot.compute.processes.Pool``): calls beyond the workers
wait their turn, a worker's error comes back as itself, a dead worker fails its generation at
once, and closing answers every call left."""

from __future__ import annotations

import _thread
import asyncio
import operator
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.compute import processes
from bot.compute.processes import Pool, Workers


async def started(count: int) -> Pool:
    """A generation of `count` workers, started off the loop and read by it."""
    pool = Pool(count)
    await asyncio.get_running_loop().run_in_executor(None, pool.start)
    pool.attach(asyncio.get_running_loop())
    return pool


@pytest.fixture(autouse=True)
def forkserver() -> None:
    processes.start_forkserver()


async def test_calls_beyond_the_workers_wait_their_turn_and_each_gets_its_own_answer() -> None:
    pool = await started(2)
    try:
        calls = [pool.submit(operator.mul, (n, n)) for n in range(12)]
        assert await asyncio.gather(*calls) == [n * n for n in range(12)]
        assert len(pool.pids) == 2
    finally:
        pool.shutdown()


async def test_an_error_in_a_call_is_that_call_s_and_the_worker_goes_on() -> None:
    pool = await started(1)
    try:
        with pytest.raises(ZeroDivisionError):
            await pool.submit(operator.truediv, (1, 0))
        with pytest.raises(RuntimeError, match="cannot be sent back"):
            await pool.submit(_thread.allocate_lock, ())  # a lock cannot be pickled
        assert await pool.submit(operator.add, (2, 3)) == 5
        assert not pool.broken
    finally:
        pool.shutdown()


async def test_a_worker_killed_under_a_call_fails_every_call_of_its_generation_at_once() -> None:
    pool = await started(1)
    try:
        running = pool.submit(time.sleep, (30,))
        queued = pool.submit(operator.add, (1, 1))
        await asyncio.sleep(0.2)  # the sleep is under way
        os.kill(pool.pids[0], signal.SIGKILL)
        began = time.monotonic()
        for call in (running, queued):
            with pytest.raises(BrokenProcessPool):
                await call
        assert time.monotonic() - began < 5
        assert pool.broken
        with pytest.raises(BrokenProcessPool):
            pool.submit(operator.add, (1, 1))
    finally:
        pool.shutdown()


async def test_a_call_whose_worker_dies_gets_its_answer_from_a_new_generation(
    caplog: pytest.LogCaptureFixture,
) -> None:
    helper = ThreadPoolExecutor(max_workers=1)
    workers = Workers(1)
    await workers.start(helper)
    try:
        first = workers.pool
        running = asyncio.ensure_future(workers.run(helper, operator.mul, 6, 7))
        slow = asyncio.ensure_future(workers.run(helper, time.sleep, 0.5))
        await asyncio.sleep(0.2)  # 6 * 7 answered, the sleep under way
        assert running.done() and running.result() == 42
        os.kill(first.pids[0], signal.SIGKILL)
        assert await slow is None  # run again, whole, in the new worker
        assert await workers.run(helper, operator.add, 2, 2) == 4
        assert workers.pool is not first and workers.pool.pids != first.pids
        lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert lines == ["an engine worker process died; 1 started again"]
    finally:
        workers.pool.shutdown()
        helper.shutdown()


async def test_closing_answers_every_call_left_and_ends_the_workers() -> None:
    pool = await started(1)
    running = pool.submit(time.sleep, (0.3,))
    queued = pool.submit(operator.add, (1, 1))
    await asyncio.sleep(0.1)
    pids = pool.pids
    pool.shutdown()  # waits for the sleep under way, then the worker ends
    for call in (running, queued):
        with pytest.raises(RuntimeError, match="closed"):
            await call
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(operator.add, (1, 1))
