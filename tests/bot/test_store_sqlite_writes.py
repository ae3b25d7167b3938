"""Where the SQLite store writes (`bot.storage.sqlite_writes`): a save that finds the store's
thread idle on the loop's own thread, a burst, a locked file and DATABASE_SYNC=full on the
thread, and the log checkpointed on the thread only."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.assembly import sqlite_store
from bot.storage.sqlite import SQLiteStore
from bot.storage.sqlite_writes import CHECKPOINT_EVERY, HERE_AT_MOST
from tests.bot.store_support import game

Statements = list[tuple[str, str]]  # (thread's name, SQL) of each statement run
DRAWN = (0, 1, 2, 4, 3, 5, 7, 6)  # moves with no line made


@contextmanager
def traced(store: SQLiteStore) -> Iterator[Statements]:
    """Every statement the store's connection runs, with the thread that ran it."""
    seen: Statements = []
    conn = store._db()
    conn.set_trace_callback(lambda sql: seen.append((threading.current_thread().name, sql)))
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


def begins(seen: Statements) -> list[str]:
    """The threads that began a write transaction, in order."""
    return [thread for thread, sql in seen if sql.startswith("BEGIN")]


@pytest.mark.parametrize(("sync", "thread"), [("normal", "MainThread"), ("full", "sqlite")])
async def test_saves_one_at_a_time_are_written_on_the_loops_thread_unless_each_is_fsynced(
    tmp_path: Path, sync: str, thread: str
) -> None:
    """At people's pace each save finds the store's thread idle: with DATABASE_SYNC=normal it
    is committed on the loop's thread (no trip to the thread and back); with full (an fsync a
    commit) always on the store's thread. Either way it is stored."""
    store = sqlite_store(tmp_path / "t.db", sync=sync)
    await store.open()
    try:
        with traced(store) as seen:
            for moves in ((), (4,), (4, 0), (4, 0, 8)):
                await store.save_game(game(1, moves=moves))
                await asyncio.sleep(0.01)
        assert begins(seen) == [thread] * 4
        loaded = await store.load_game(1)
        assert loaded is not None and loaded.moves == (4, 0, 8)
    finally:
        await store.close()


async def test_a_burst_of_saves_goes_to_the_thread_in_few_commits(tmp_path: Path) -> None:
    """More saves at once than the loop's thread takes (`HERE_AT_MOST`) are written on the
    store's thread, grouped: the loop goes on meanwhile."""
    store = sqlite_store(tmp_path / "t.db")
    await store.open()
    try:
        with traced(store) as seen:
            await asyncio.gather(*(store.save_game(game(gid)) for gid in range(1, 101)))
        threads = begins(seen)  # on the loop's thread, at most the last few
        assert threads[0] == "sqlite" and len(threads) <= 100 // HERE_AT_MOST, threads
        assert len(await store.live_games()) == 100
    finally:
        await store.close()


async def test_a_save_on_a_locked_file_waits_on_the_thread_while_the_loop_goes_on(
    tmp_path: Path,
) -> None:
    """Another process holds the file's lock: the save does not wait on the loop's thread (a
    ticker keeps ticking), it waits on the store's thread for ``busy_timeout`` and is written
    once the lock is free."""
    path = tmp_path / "t.db"
    store = sqlite_store(path, busy_timeout=2.0)
    await store.open()
    other = sqlite3.connect(path, isolation_level=None)
    try:
        await store.save_game(game(1))
        other.execute("BEGIN EXCLUSIVE")
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.create_task(ticker())
        asyncio.get_running_loop().call_later(0.4, other.execute, "ROLLBACK")
        started = time.monotonic()
        with traced(store) as seen:
            await store.save_game(game(1, moves=(4,)))
        waited = time.monotonic() - started
        ticking.cancel()
        assert waited >= 0.35 and ticks >= 0.35 / 0.01 / 3, (waited, ticks)
        assert begins(seen)[-1] == "sqlite"  # the commit that went through
        loaded = await store.load_game(1)
        assert loaded is not None and loaded.moves == (4,)
    finally:
        other.close()
        await store.close()


async def test_the_log_is_checkpointed_on_the_thread_only(tmp_path: Path) -> None:
    """SQLite's own checkpoints are off (one could come in a commit on the loop's thread); the
    store's thread copies the log into the file every `CHECKPOINT_EVERY` transactions, so the
    log stays shorter than the transactions written (each at least one page)."""
    path = tmp_path / "t.db"
    store = sqlite_store(path)
    await store.open()
    saves = 2 * CHECKPOINT_EVERY + 50
    try:
        with traced(store) as seen:
            for n in range(saves):
                await store.save_game(game(1 + n // 8, moves=DRAWN[: n % 8]))
        checkpoints = [thread for thread, sql in seen if "wal_checkpoint" in sql]
        assert checkpoints == ["sqlite", "sqlite"], checkpoints
        assert set(begins(seen)) == {"MainThread", "sqlite"}  # the thread's: a checkpoint's
        pragmas = "PRAGMA wal_autocheckpoint", "PRAGMA page_size"
        off, page = [
            await store._run(store._read, "read", lambda c, p=p: c.execute(p).fetchone()[0])
            for p in pragmas
        ]
        assert off == 0
        frames = ((path.parent / "t.db-wal").stat().st_size - 32) // (page + 24)
        assert 0 < frames < saves, frames
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert len(conn.execute("SELECT id FROM games").fetchall()) == saves // 8 + 1
