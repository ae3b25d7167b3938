"""The engine's worker processes (``bot.compute.processes.Pool``): calls beyond the workers
wait their turn, a worker's error comes back as itself (even one the bot cannot read), a dead
worker fails its generation at once and a new one answers every call, however many come while
it starts and whoever stops waiting, and closing answers every call left and leaves no worker."""

from __future__ import annotations

import _thread
import asyncio
import operator
import os
import signal
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.compute import processes
from bot.compute.processes import Pool, Workers


class TwoParts(Exception):
    """An error raised in a worker that cannot be rebuilt in the bot (its constructor wants two
    arguments; pickling keeps one)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(first)
        self.second = second


def raise_two_parts() -> None:
    raise TwoParts("a", "b")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def dead_worker(workers: Workers) -> Pool:
    """Kill the one worker of `workers`, and wait until its pool knows; the pool."""
    first = workers.pool
    os.kill(first.pids[0], signal.SIGKILL)
    while not first.broken:
        await asyncio.sleep(0.01)
    return first


async def started(count: int) -> Pool:
    """A generation of `count` workers, started off the loop and read by it."""
    pool = Pool(count)
    await asyncio.get_running_loop().run_in_executor(None, pool.start)
    pool.attach(asyncio.get_running_loop())
    return pool


@pytest.fixture(autouse=True)
def forkserver() -> None:
    processes.start_forkserver()


Running = tuple[Workers, ThreadPoolExecutor]


@pytest.fixture
async def running() -> AsyncIterator[Running]:
    """Workers of one process started, and the helper thread that starts a new one."""
    helper = ThreadPoolExecutor(max_workers=1)
    workers = Workers(1)
    await workers.start(helper)
    yield workers, helper
    workers.close()
    helper.shutdown()


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
        with pytest.raises(TypeError):  # what unpickling TwoParts raises
            await asyncio.wait_for(pool.submit(raise_two_parts, ()), 10)
        with pytest.raises(TypeError):  # a call that cannot be pickled
            await pool.submit(operator.add, (_thread.allocate_lock(), 1))
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
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    workers, helper = running
    first = workers.pool
    quick = asyncio.ensure_future(workers.run(helper, operator.mul, 6, 7))
    slow = asyncio.ensure_future(workers.run(helper, time.sleep, 0.5))
    await asyncio.sleep(0.2)  # 6 * 7 answered, the sleep under way
    assert quick.done() and quick.result() == 42
    os.kill(first.pids[0], signal.SIGKILL)
    assert await slow is None  # run again, whole, in the new worker
    assert await workers.run(helper, operator.add, 2, 2) == 4
    assert workers.pool is not first and workers.pool.pids != first.pids
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert lines == ["an engine worker process died; 1 started again"]


async def test_calls_made_while_a_new_generation_starts_are_all_answered_there(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    """The first call after a worker died starts the new generation; the calls that come while
    it warms up, and after its first caller stopped waiting, are answered by it; one line."""
    workers, helper = running
    await dead_worker(workers)
    first = asyncio.ensure_future(workers.run(helper, operator.add, 1, 1))
    await asyncio.sleep(0.05)  # the new worker warming up
    during = asyncio.ensure_future(workers.run(helper, operator.add, 2, 2))
    first.cancel()  # its caller stops waiting (a click's wait ended, a task cancelled)
    assert await asyncio.wait_for(during, 30) == 4
    assert await asyncio.wait_for(workers.run(helper, operator.add, 3, 3), 5) == 6
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert lines == ["an engine worker process died; 1 started again"]


async def test_closing_while_a_new_generation_starts_leaves_no_worker(running: Running) -> None:
    workers, helper = running
    await dead_worker(workers)
    call = asyncio.ensure_future(workers.run(helper, operator.add, 1, 1))
    await asyncio.sleep(0.05)  # the new worker warming up
    workers.close()  # waits for it, then stops it
    with pytest.raises(RuntimeError, match="closed"):
        await call
    assert workers.pool.pids and not any(alive(pid) for pid in workers.pool.pids)


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
    assert not any(alive(pid) for pid in pids)
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(operator.add, (1, 1))


def stamped_when(gate: str) -> float:
    """Wait in the worker until the file `gate` exists, then say when it finished (the clock
    every process shares)."""
    while not os.path.exists(gate):
        time.sleep(0.005)
    return time.monotonic()


async def test_background_work_waits_behind_every_move_and_leaves_one_worker_free(
    tmp_path: Path,
) -> None:
    """Background calls (``later``: a finished game's search for missed wins) queued on one
    worker let a move that comes after them go first; of two workers they take one only, so a
    move is answered while the background call under way is still held."""
    gate, opened = str(tmp_path / "gate"), str(tmp_path / "open")
    Path(opened).touch()
    one = await started(1)
    try:
        background = [one.submit(stamped_when, (gate,), later=True) for _ in range(3)]
        move = one.submit(stamped_when, (opened,))
        Path(gate).touch()
        first, second, third = await asyncio.gather(*background)
        assert first < await move < second < third
    finally:
        one.shutdown()
    Path(gate).unlink()
    two = await started(2)
    try:
        background = [two.submit(stamped_when, (gate,), later=True) for _ in range(2)]
        await asyncio.wait_for(two.submit(stamped_when, (opened,)), 30)  # while both are held
        assert not any(job.done() for job in background)
        Path(gate).touch()
        await asyncio.gather(*background)
    finally:
        two.shutdown()
