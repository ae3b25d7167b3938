"""DATABASE_SYNC: how durable a save in the SQLite file is, on the store's own connection; and
what a save writes to the file's log."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from bot.assembly import open_store, sqlite_store
from bot.config import load_settings
from bot.games.record import Status
from bot.storage.sqlite import SQLiteStore
from tests.bot.store_support import game

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize(("sync", "level"), [("normal", 1), ("full", 2)])
async def test_the_settings_database_sync_is_the_connections(
    tmp_path: Path, sync: str, level: int
) -> None:
    """DATABASE_SYNC reaches the store's own connection: normal by default (SQLite's 1: the
    log fsynced at checkpoints), full on request (2: at every commit as well)."""
    env = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "t.db")}
    if sync == "full":  # normal is the default
        env["DATABASE_SYNC"] = "FULL"
    settings = load_settings(env)
    store = open_store(settings)
    assert isinstance(store, SQLiteStore)
    await store.open()
    try:
        pragma = await store._run(
            store._read, "read", lambda c: c.execute("PRAGMA synchronous").fetchone()[0]
        )
        assert pragma == level
        await store.save_game(game(1, moves=(4, 0)))  # and it saves
        loaded = await store.load_game(1)
        assert loaded is not None and loaded.moves == (4, 0)
    finally:
        await store.close()


def test_another_sync_is_refused_by_the_store(tmp_path: Path) -> None:
    """The store takes the two modes only (the setting is checked at start-up: test_config)."""
    with pytest.raises(ValueError, match="normal, full"):
        sqlite_store(tmp_path / "t.db", sync="off")


async def test_a_move_writes_one_page_to_the_log(tmp_path: Path) -> None:
    """A save that keeps the game's players and status (a move) rewrites its row alone: one
    page in the log. One that changes the status rewrites its index entries too. Both store the
    game whole."""
    path = tmp_path / "t.db"
    store = sqlite_store(path)
    await store.open()
    other = sqlite3.connect(path, isolation_level=None)
    try:
        await store.save_game(game(1, status=Status.CHALLENGE))
        first = await store.load_game(1)
        assert first is not None
        pages = []
        for moves in ((4,), (4, 0)):  # the challenge accepted and a move, then a move
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # an empty log
            saved = game(1, status=Status.ACTIVE, moves=moves, message_id=7)
            await store.save_game(saved)
            pages.append(other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
            loaded = await store.load_game(1)
            assert loaded is not None and loaded.created_at == first.created_at  # kept
            assert loaded == dataclasses.replace(saved, created_at=first.created_at)
        assert pages[0] > 1 and pages[1] == 1, pages
    finally:
        other.close()
        await store.close()
