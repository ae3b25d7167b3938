"""migrate-db: a SQLite file copied into PostgreSQL, counts verified, safe to run twice."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from bot.assembly import STEPS, postgres_store, sqlite_store
from bot.games.record import Ending, Status
from bot.storage.base import StorageError
from bot.storage.migrate import copy
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SQLiteStore
from tests.bot.store_support import BOT_ID, GUILD, finished, game

ROOT = Path(__file__).resolve().parents[2]


async def sqlite_file(path: Path) -> None:
    """A file with live games (a challenge, a DM game), finished ones, stats and spent ids."""
    s = sqlite_store(path)
    await s.open()
    soon = datetime(2030, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)
    await s.save_game(game(1, moves=(0, 4), deadline=soon))
    await s.save_game(game(2, status=Status.CHALLENGE, deadline=soon + timedelta(seconds=1)))
    await s.save_game(game(3, guild_id=None, o_id=BOT_ID, ai_side="O", ai_level="hard"))
    for gid in range(4, 40):
        winner = (None, "X", "O")[gid % 3]
        await s.save_game(finished(gid, gid % 5 + 1, gid % 7 + 10, winner))
    await s.save_game(finished(40, 1, BOT_ID, "O", ai_side="O", ai_level="easy"))
    await s.save_game(game(41, status=Status.FINISHED, ending=Ending.DECLINED))
    for _ in range(5):
        await s.next_game_id()  # ids handed out, never saved: must not be handed out again
    await s.close()


async def snapshot(store: SQLiteStore | PostgresStore) -> tuple[object, ...]:
    """Everything the bot can read back from a store."""
    games = [await store.load_game(gid) for gid in range(1, 42)]
    stats = [await store.player_stats(GUILD, user) for user in (*range(1, 6), *range(10, 17))]
    return games, await store.live_games(), stats, await store.leaderboard(GUILD, limit=50)


async def test_copy_keeps_everything_and_the_id_counter(tmp_path: Path, postgres_url: str) -> None:
    """Live and finished games, records, ratings and the id counter arrive as they were."""
    path = tmp_path / "games.db"
    await sqlite_file(path)
    counts, copied = await copy(path, postgres_url, STEPS)
    assert copied and (counts.live, counts.finished, counts.last_id) == (3, 38, 46)
    source, target = sqlite_store(path), postgres_store(postgres_url)
    await source.open()
    await target.open()
    try:
        assert await snapshot(target) == await snapshot(source)
        assert await target.next_game_id() == 47
    finally:
        await source.close()
        await target.close()


async def test_second_run_changes_nothing(tmp_path: Path, postgres_url: str) -> None:
    """Run again on the same target: it already holds the same data, nothing is copied."""
    path = tmp_path / "games.db"
    await sqlite_file(path)
    first, _ = await copy(path, postgres_url, STEPS)
    again, copied = await copy(path, postgres_url, STEPS)
    assert not copied and again == first


async def test_other_data_in_the_target_is_refused_unless_forced(
    tmp_path: Path, postgres_url: str
) -> None:
    """A target with other games is left alone with a one-line refusal; --force replaces it."""
    path = tmp_path / "games.db"
    await sqlite_file(path)
    other = postgres_store(postgres_url)
    await other.open()
    await other.save_game(finished(500, 7, 8, "X"))
    await other.close()
    with pytest.raises(StorageError, match=r"already holds 0 live and 1 finished .*--force") as e:
        await copy(path, postgres_url, STEPS)
    assert "\n" not in str(e.value)
    counts, copied = await copy(path, postgres_url, STEPS, force=True)
    assert copied and counts.finished == 38
    conn = await asyncpg.connect(postgres_url)
    assert await conn.fetchval("SELECT COUNT(*) FROM games WHERE id = 500") == 0
    await conn.close()


async def test_a_failed_copy_leaves_the_target_as_it_was(tmp_path: Path, postgres_url: str) -> None:
    """A value PostgreSQL refuses (a rating that is not a number, which SQLite keeps) stops the
    copy after the games went in; nothing lands."""
    path = tmp_path / "games.db"
    s = sqlite_store(path)
    await s.open()
    await s.save_game(game(1, channel_id=5))
    await s.save_game(game(2, channel_id=6))
    await s.close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, rated_games) "
            "VALUES (1, 2, 'not a number', 1)"
        )
    with pytest.raises(StorageError, match="cannot copy into") as info:
        await copy(path, postgres_url, STEPS)
    assert "\n" not in str(info.value)
    conn = await asyncpg.connect(postgres_url)
    assert await conn.fetchval("SELECT COUNT(*) FROM games") == 0
    await conn.close()


async def test_command_line(tmp_path: Path, postgres_url: str) -> None:
    """The console command copies and says so; a missing file is one line and exit code 1."""
    path = tmp_path / "games.db"
    await sqlite_file(path)
    run = [sys.executable, "-m", "bot", "migrate-db", "--to", postgres_url]
    done = subprocess.run([*run, "--from", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "counts verified: 3 live and 38 finished games" in done.stdout
    again = subprocess.run([*run, "--from", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    missing = subprocess.run(
        [*run, "--from", str(tmp_path / "nope.db")], capture_output=True, text=True, cwd=ROOT
    )
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert missing.stderr.strip().count("\n") == 0 and "no SQLite file" in missing.stderr
