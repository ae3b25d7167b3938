"""What the SQLite store does of its own: its file, schema and migrations, pragmas, locks, batching,
a full or read-only disk."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.assembly import STEPS, sqlite_store
from bot.games.record import Status
from bot.games.stats import Record
from bot.storage.base import StorageError
from bot.storage.dialect import Step
from bot.storage.sqlite import SQLiteStore
from tests.bot.store_support import GUILD, finished, game


async def test_creates_folder_file_wal_and_schema(tmp_path: Path) -> None:
    """First run creates the folder and file, turns on WAL and records the schema version."""
    path = tmp_path / "new" / "folder" / "t.db"
    s = sqlite_store(path)
    await s.open()
    await s.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {"games", "records", "ratings", "counter", "games_status"} <= tables


async def test_migrates_an_empty_file(tmp_path: Path) -> None:
    """A zero-byte file (a valid empty database) is migrated to the current schema."""
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    s = sqlite_store(path)
    await s.open()
    await s.save_game(game(1))
    await s.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS)


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    """A database written by a newer bot raises StorageError naming both versions."""
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(STEPS) + 1}")
    s = sqlite_store(path)
    with pytest.raises(StorageError, match=rf"schema version {len(STEPS) + 1}, newer"):
        await s.open()
    await s.close()


async def test_corrupt_file_is_refused_at_open(tmp_path: Path) -> None:
    """Garbage in the database file raises a one-line StorageError at open, cause chained."""
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not a database at all\n" * 200)
    s = sqlite_store(path)
    with pytest.raises(StorageError) as info:
        await s.open()
    await s.close()
    message = str(info.value)
    assert "corrupt or not a SQLite database" in message and str(path) in message
    assert "\n" not in message
    assert isinstance(info.value.__cause__, sqlite3.DatabaseError)


async def test_folder_in_place_of_file_is_refused(tmp_path: Path) -> None:
    """A path that is a folder raises StorageError saying it cannot be opened."""
    path = tmp_path / "db"
    path.mkdir()
    s = sqlite_store(path)
    with pytest.raises(StorageError, match="cannot be opened"):
        await s.open()
    await s.close()


async def test_locked_database_fails_then_recovers(sqlite_store: SQLiteStore) -> None:
    """A write blocked by another process's lock fails cleanly; it works once the lock is gone."""
    await sqlite_store.save_game(game(1))
    other = sqlite3.connect(sqlite_store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError, match="locked by another process") as info:
            await sqlite_store.save_game(game(1, moves=(4,)))
        assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    finally:
        other.execute("ROLLBACK")
        other.close()
    loaded = await sqlite_store.load_game(1)
    assert loaded is not None and loaded.moves == ()  # nothing half written
    await sqlite_store.save_game(game(1, moves=(4,)))
    loaded = await sqlite_store.load_game(1)
    assert loaded is not None and loaded.moves == (4,)


async def test_failed_save_rolls_back_the_whole_game(sqlite_store: SQLiteStore) -> None:
    """A save that fails midway (here: writing the ratings) leaves no trace of the game."""
    await sqlite_store.save_game(game(1, moves=(0, 4, 8)))

    def sql(statement: str) -> None:
        assert sqlite_store._conn is not None
        sqlite_store._conn.execute(statement)

    await sqlite_store._run(
        sql,
        "CREATE TEMP TRIGGER fail BEFORE INSERT ON ratings BEGIN SELECT RAISE(ABORT, 'boom'); END",
    )
    with pytest.raises(StorageError, match=r"cannot save game 1.*boom"):
        await sqlite_store.save_game(finished(1, 1, 2, "X", moves=(0, 4, 8, 1, 2, 3, 6)))
    await sqlite_store._run(sql, "DROP TRIGGER fail")
    loaded = await sqlite_store.load_game(1)
    assert loaded is not None and loaded.status == Status.ACTIVE and loaded.moves == (0, 4, 8)
    stats = await sqlite_store.player_stats(GUILD, 1)
    assert stats.vs_people == Record()


async def test_close_checkpoints_the_log(tmp_path: Path) -> None:
    """After close the write-ahead log is empty: everything is in the main file."""
    path = tmp_path / "t.db"
    s = sqlite_store(path)
    await s.open()
    await s.save_game(game(1))
    await s.close()
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    await s.close()  # closing twice is harmless


async def test_migrations_run_in_order_from_version_one(tmp_path: Path) -> None:
    """A file at the current version gets only the later steps, in order, and ends at the last."""
    path = tmp_path / "t.db"
    s = sqlite_store(path)
    await s.open()
    await s.save_game(game(1))
    await s.close()
    steps = [
        *STEPS,
        Step(("ALTER TABLE games ADD COLUMN note TEXT", "UPDATE games SET note = 'v2'"), ()),
        Step(("UPDATE games SET note = note || '+v3'",), ()),
    ]
    s = SQLiteStore(path, steps=steps)
    await s.open()
    assert (await s.load_game(1)) is not None
    await s.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(steps)
        assert conn.execute("SELECT note FROM games").fetchone()[0] == "v2+v3"


async def test_failed_migration_changes_nothing(tmp_path: Path) -> None:
    """A migration step that fails rolls back every step, and the version stays where it was."""
    steps = [*STEPS, Step(("CREATE TABLE extra (a)", "NOT SQL AT ALL"), ())]
    path = tmp_path / "t.db"
    s = SQLiteStore(path, steps=steps)
    with pytest.raises(StorageError, match="cannot migrate the database"):
        await s.open()
    await s.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []


async def test_event_loop_runs_while_storage_waits_for_a_lock(sqlite_store: SQLiteStore) -> None:
    """A save stuck on another process's lock waits on the storage thread, not the loop."""
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    other = sqlite3.connect(sqlite_store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    task = asyncio.create_task(ticker())
    try:
        with pytest.raises(StorageError):
            await sqlite_store.save_game(game(1))
    finally:
        task.cancel()
        other.execute("ROLLBACK")
        other.close()
    assert ticks > 10


async def test_saves_that_queue_up_share_one_commit(sqlite_store: SQLiteStore) -> None:
    """200 saves at once take far fewer transactions than saves, each applied in order."""
    begins: list[str] = []
    await sqlite_store._run(
        lambda: sqlite_store._db().set_trace_callback(
            lambda sql: begins.append(sql) if sql.startswith("BEGIN") else None
        )
    )
    first_moves = [sqlite_store.save_game(game(gid, moves=(0,))) for gid in range(1, 101)]
    second_moves = [sqlite_store.save_game(game(gid, moves=(0, 4))) for gid in range(1, 101)]
    await asyncio.gather(*first_moves, *second_moves)
    await sqlite_store._run(lambda: sqlite_store._db().set_trace_callback(None))

    assert 1 <= len(begins) < 20  # one for the first save, then the rest in few batches
    assert [g.moves for g in await sqlite_store.live_games()] == [(0, 4)] * 100


async def test_a_failed_batch_fails_every_save_in_it_and_writes_none(
    sqlite_store: SQLiteStore,
) -> None:
    """On a locked file a batch of saves fails as a whole; each saver gets the StorageError."""
    await asyncio.gather(*(sqlite_store.save_game(game(gid)) for gid in (1, 2, 3)))
    other = sqlite3.connect(sqlite_store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        results = await asyncio.gather(
            *(sqlite_store.save_game(game(gid, moves=(4,))) for gid in (1, 2, 3)),
            return_exceptions=True,
        )
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert all(isinstance(r, StorageError) and "locked" in str(r) for r in results)
    assert [g.moves for g in await sqlite_store.live_games()] == [(), (), ()]


async def test_close_writes_the_saves_still_queued(tmp_path: Path) -> None:
    """Saves issued just before close are all on disk when it returns."""
    s = sqlite_store(tmp_path / "g.db")
    await s.open()
    saves = [asyncio.ensure_future(s.save_game(game(gid))) for gid in range(1, 31)]
    await asyncio.sleep(0)
    await s.close()
    assert all(task.done() and task.exception() is None for task in saves)
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 30


async def _pragma(store: SQLiteStore, statement: str) -> None:
    """Run one statement on the store's own connection, on its thread."""

    def run() -> None:
        assert store._conn is not None
        store._conn.execute(statement)

    await store._run(run)


async def test_full_disk_fails_cleanly_then_recovers(sqlite_store: SQLiteStore) -> None:
    """A full database (page limit reached) raises StorageError saying so; nothing half written."""
    await sqlite_store.save_game(game(1))
    pages = await sqlite_store._run(
        lambda: sqlite_store._conn.execute("PRAGMA page_count").fetchone()[0]
    )
    await _pragma(sqlite_store, f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageError, match="is full"):
        for gid in range(2, 2000):
            await sqlite_store.save_game(game(gid, moves=tuple(range(25))))
    await _pragma(sqlite_store, "PRAGMA max_page_count = 1073741823")
    stored = await sqlite_store.live_games()
    assert all(g.moves == tuple(range(25)) for g in stored[1:])  # whole games or none
    await sqlite_store.save_game(game(5000))
    assert await sqlite_store.load_game(5000) is not None


async def test_read_only_database_fails_with_a_clear_message(sqlite_store: SQLiteStore) -> None:
    """Writing to a read-only database raises StorageError naming the problem."""
    await _pragma(sqlite_store, "PRAGMA query_only = ON")
    with pytest.raises(StorageError, match="read-only"):
        await sqlite_store.save_game(game(1))
    await _pragma(sqlite_store, "PRAGMA query_only = OFF")
    await sqlite_store.save_game(game(1))
