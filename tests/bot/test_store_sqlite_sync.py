"""DATABASE_SYNC: how durable a save in the SQLite file is, on the store's own connection."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import open_store
from bot.config import load_settings
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
        SQLiteStore(tmp_path / "t.db", sync="off")
