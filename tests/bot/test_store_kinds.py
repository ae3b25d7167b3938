"""Games of each kind in the store: ultimate games round-trip, records, ratings and leaderboards
are kept apart by kind, and a database from before kinds (schema version 4) is migrated with its
rows kept as classic games', on SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from bot.assembly import STEPS, postgres_store, sqlite_store
from bot.games import rating
from bot.games.record import GameRecord, Status
from bot.storage import schema
from bot.storage.base import Store
from tests.bot.store_support import BOT_ID, GUILD, finished, game


async def test_an_ultimate_game_round_trips_and_counts_apart(
    new_store: Callable[[], Store],
) -> None:
    """An ultimate game comes back as saved; its result counts in ultimate's records, rating
    and leaderboard only, and a classic game's only in classic's."""
    store = new_store()
    await store.open()
    try:
        live = game(
            1,
            kind="ultimate",
            size=9,
            k=3,
            moves=(40, 36, 4),
            created_at=datetime(2026, 11, 25, 12, 0, tzinfo=UTC),
        )
        await store.save_game(live)
        assert await store.load_game(1) == live
        assert [g.kind for g in await store.live_games()] == ["ultimate"]
        await store.save_game(finished(2, 1, 2, "X", kind="ultimate", size=9, k=3))
        await store.save_game(finished(3, 1, 2, "O"))
        await store.save_game(
            finished(
                4, 1, BOT_ID, "X", kind="ultimate", size=9, k=3, ai_side="O", ai_level="expert"
            )
        )
        ultimate = await store.player_stats(GUILD, 1, "ultimate")
        classic = await store.player_stats(GUILD, 1)
        assert (ultimate.vs_people.wins, ultimate.vs_people.losses) == (1, 0)
        assert (classic.vs_people.wins, classic.vs_people.losses) == (0, 1)
        assert ultimate.vs_bot["expert"].wins == 1 and set(ultimate.vs_bot) >= {"easy", "expert"}
        assert "expert" not in classic.vs_bot
        assert ultimate.rating > rating.DEFAULT_RATING > classic.rating
        top = await store.leaderboard(GUILD, kind="ultimate")
        assert [row.user_id for row in top] == [1, 2]
        assert [row.user_id for row in await store.leaderboard(GUILD)] == [2, 1]
    finally:
        await store.close()


def sqlite_at(path: Path, version: int) -> sqlite3.Connection:
    """A connection to a new SQLite file at schema `version` (the caller adds rows, commits)."""
    conn = sqlite3.connect(path)
    for step in (s.sqlite for s in STEPS[:version]):
        for statement in step:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn


async def postgres_at(url: str, version: int, *rows: tuple[str, *tuple[object, ...]]) -> None:
    """A new PostgreSQL database at schema `version`, then `rows` (statement, arguments)."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("CREATE TABLE schema_version (version INTEGER)")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", version)
            for step in (s.postgres for s in STEPS[:version]):
                for statement in step:
                    await conn.execute(statement)
            for statement, *args in rows:
                await conn.execute(statement, *args)
    finally:
        await conn.close()


def file_with_a_game(path: Path, version: int) -> GameRecord:
    """A SQLite file at schema `version` (5 or later: records and ratings by kind) holding a
    game won by player 1 and player 1's rating (1234.5 after 6 games); the game."""
    played = finished(7, 1, 2, "X")
    columns = schema.COLUMNS if version >= 9 else schema.COLUMNS.removesuffix(", move_seconds")
    with sqlite_at(path, version) as conn:
        values = schema.to_row(played)[: len(columns.split(", "))]
        conn.execute(
            f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(values))})", values
        )
        conn.execute("INSERT INTO ratings VALUES ('classic', ?, 1, 1234.5, 6)", (GUILD,))
    return played


async def assert_kept(store: Store, played: GameRecord) -> None:
    """The game and the rating of `file_with_a_game` read back as they were."""
    kept, stats = await store.load_game(played.id), await store.player_stats(GUILD, 1)
    assert kept is not None and (kept.moves, kept.winner) == (played.moves, "X")
    assert (stats.rating, stats.rated_games) == (1234.5, 6)


def version_four_file(path: Path) -> None:
    """A SQLite file as schema version 4 left it: a finished game, its records and ratings."""
    with sqlite_at(path, 4) as conn:
        columns = schema.COLUMNS.removesuffix(", kind, move_seconds")
        row = schema.to_row(finished(7, 1, 2, "X"))[:-2]
        conn.execute(f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(row))})", row)
        conn.execute("INSERT INTO records VALUES (?, 1, 'people', 3, 1, 2)", (GUILD,))
        conn.execute("INSERT INTO records VALUES (?, 1, 'hard', 0, 4, 5)", (GUILD,))
        conn.execute("INSERT INTO ratings VALUES (?, 1, 1234.5, 6)", (GUILD,))


async def test_a_version_four_sqlite_file_keeps_its_rows_as_classic(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    version_four_file(path)
    store = sqlite_store(path)
    await store.open()
    try:
        old = await store.load_game(7)
        assert old is not None and old.kind == "classic" and old.status is Status.FINISHED
        stats = await store.player_stats(GUILD, 1)
        assert (stats.vs_people.wins, stats.vs_people.draws, stats.vs_people.losses) == (3, 1, 2)
        assert stats.vs_bot["hard"].draws == 4 and (stats.rating, stats.rated_games) == (1234.5, 6)
        assert (await store.player_stats(GUILD, 1, "ultimate")).rated_games == 0
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) == 9
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"


async def test_a_version_four_postgres_database_keeps_its_rows_as_classic(
    postgres_url: str,
) -> None:
    await postgres_at(
        postgres_url,
        4,
        ("INSERT INTO records VALUES ($1, 1, 'people', 3, 1, 2), ($1, 1, 'hard', 0, 4, 5)", GUILD),
        ("INSERT INTO ratings VALUES ($1, 1, 1234.5, 6)", GUILD),
    )
    store = postgres_store(postgres_url)
    await store.open()
    try:
        stats = await store.player_stats(GUILD, 1)
        assert (stats.vs_people.wins, stats.vs_people.losses, stats.rating) == (3, 2, 1234.5)
        assert stats.vs_bot["hard"].losses == 5
        await store.save_game(finished(8, 1, 2, "X", kind="ultimate", size=9, k=3))
        assert (await store.player_stats(GUILD, 1, "ultimate")).vs_people.wins == 1
        assert (await store.player_stats(GUILD, 1)).vs_people.wins == 3
    finally:
        await store.close()


async def test_a_version_eight_file_gains_move_times_and_keeps_its_rows(tmp_path: Path) -> None:
    """A file from before games kept their own move time keeps its game and rating, reads the
    game with none (the server's turn timeout), and stores a new game's with it."""
    path = tmp_path / "old.db"
    played = file_with_a_game(path, 8)
    store = sqlite_store(path)
    await store.open()
    try:
        await assert_kept(store, played)
        assert (await store.load_game(played.id) or played).move_seconds is None
        await store.save_game(dataclasses.replace(played, id=8, move_seconds=45))
    finally:
        await store.close()
    store = sqlite_store(path)
    await store.open()
    try:
        assert (await store.load_game(8) or played).move_seconds == 45
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) == 9
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"


async def test_a_version_eight_postgres_database_gains_move_times_and_keeps_its_rows(
    postgres_url: str,
) -> None:
    """The same on PostgreSQL: the rating kept, a new game's move time stored and read back."""
    rating = "INSERT INTO ratings (kind, guild_id, user_id, rating, rated_games) VALUES"
    await postgres_at(postgres_url, 8, (f"{rating} ('classic', $1, 1, 1234.5, 6)", GUILD))
    store = postgres_store(postgres_url)
    await store.open()
    try:
        assert (await store.player_stats(GUILD, 1)).rating == 1234.5
        await store.save_game(finished(8, 1, 2, "X", move_seconds=30))
        assert (await store.load_game(8) or finished(8, 1, 2, "X")).move_seconds == 30
    finally:
        await store.close()
