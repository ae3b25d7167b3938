"""Tournaments kept through what happens to a database: a version-6 database (before tournaments)
migrated with its rows untouched on SQLite and PostgreSQL, a SIGKILL at each statement of a
round being stored (the whole round or none of it, then stored once), a locked database (one
line, nothing written, then it works), and migrate-db copying every tournament table."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from bot.assembly import STEPS, postgres_store, sqlite_store
from bot.puzzles.store import PuzzleStore
from bot.storage.base import StorageError, Store
from bot.storage.dialect import numbered
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SQLiteStore
from bot.tournaments import sql
from bot.tournaments.record import Bye, Game
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import Join, Presence, RoundError, Stage
from devkit.kill_driver import BYE, PAIRS, STATEMENTS
from tests.bot.store_support import GUILD, WHEN, arena_of, running, swiss_of
from tests.bot.test_store_kinds import assert_kept, file_with_a_game, postgres_at

ROOT = Path(__file__).resolve().parents[3]


async def test_a_version_six_sqlite_file_gains_tournaments_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    """A file from before tournaments (a finished game, a rating, a server puzzle) keeps them,
    takes a tournament, and ends at version 7 with its foreign keys whole."""
    path = tmp_path / "old.db"
    played = file_with_a_game(path, 6)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO daily_posts VALUES (?, 739580)", (GUILD,))
    store = sqlite_store(path)
    await store.open()
    try:
        await assert_kept(store, played)
        assert not await PuzzleStore(store).claim_daily_post(GUILD, 739580)
        t = await running(store, swiss_of(), range(1, 4))
        assert await TournamentStore(store).start_round(t.id, 1, ((1, 2),), 3)
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) == 9
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


async def test_a_version_six_postgres_database_gains_tournaments_and_keeps_its_rows(
    postgres_url: str,
) -> None:
    """A PostgreSQL database from before tournaments keeps its rating and daily post, takes a
    tournament, and ends at version 7."""
    rating = ("INSERT INTO ratings VALUES ($1, 1, 1234.5, 6, 'classic')", GUILD)
    post = ("INSERT INTO daily_posts VALUES ($1, 739580)", GUILD)
    await postgres_at(postgres_url, 6, rating, post)
    store = postgres_store(postgres_url)
    await store.open()
    tournaments = TournamentStore(store)
    try:
        assert (await store.player_stats(GUILD, 1)).rating == 1234.5
        assert not await PuzzleStore(store).claim_daily_post(GUILD, 739580)
        t = await running(store, swiss_of(), range(1, 4))
        assert await tournaments.start_round(t.id, 1, ((1, 2),), 3)
        assert await tournaments.byes_of(t.id) == [Bye(1, 3)]
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == len(STEPS) == 9
    finally:
        await conn.close()


def kill_during_round(db: Path, tournament: int, statement: int) -> str:
    """Run the driver until it kills itself; return where (its KILL line, without 'KILL ')."""
    driver = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "devkit.kill_driver",
            "round",
            str(db),
            str(tournament),
            str(statement),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = driver.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
    assert driver.returncode == -signal.SIGKILL, out + err
    kills = [line.removeprefix("KILL ") for line in out.splitlines() if line.startswith("KILL ")]
    assert len(kills) == 1, out
    return kills[0]


@pytest.mark.parametrize("statement", range(1, STATEMENTS + 2))
async def test_a_kill_while_a_round_is_stored_leaves_all_of_it_or_none(
    tmp_path: Path, statement: int
) -> None:
    """SIGKILL before each statement of the round's transaction, and after it: a restart finds
    the round whole (and storing it again stores nothing) or absent (and stores it once)."""
    db = tmp_path / "games.db"
    store = sqlite_store(db)
    await store.open()
    tournament = await running(store, swiss_of(), range(1, 6))
    await store.close()
    where = kill_during_round(db, tournament.id, statement)
    committed = statement > STATEMENTS
    assert where.startswith("after" if committed else f"{statement} "), where
    store = sqlite_store(db)
    await store.open()
    tournaments = TournamentStore(store)
    try:
        after = await tournaments.get_tournament(tournament.id)
        whole = [Game(1, 1, 4), Game(1, 5, 2)], [Bye(1, BYE)]
        stored = await tournaments.games_of(tournament.id), await tournaments.byes_of(tournament.id)
        assert after is not None and after.round == (1 if committed else 0)
        assert stored == (whole if committed else ([], []))
        assert await tournaments.start_round(tournament.id, 1, PAIRS, BYE) is not committed
        assert (
            await tournaments.games_of(tournament.id),
            await tournaments.byes_of(tournament.id),
        ) == whole
    finally:
        await store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seats = conn.execute("SELECT COUNT(*) FROM tournament_seats").fetchone()[0]
        assert seats == 5


async def test_a_locked_database_is_one_line_and_writes_nothing(
    new_store: Callable[[], Store],
) -> None:
    """A round, a join and a leave stuck behind another session's lock each fail with one line
    (StorageError, as a game's save does); nothing is written, and each works once it is gone."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await running(store, swiss_of(), range(1, 5))
        if isinstance(store, SQLiteStore):
            other = sqlite3.connect(store.path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
        else:
            assert isinstance(store, PostgresStore)
            pg = await asyncpg.connect(store.url)
            locked = pg.transaction()
            await locked.start()
            await pg.execute("LOCK TABLE tournaments IN ACCESS EXCLUSIVE MODE")
        try:
            for call in (
                tournaments.start_round(t.id, 1, ((1, 2), (3, 4))),
                tournaments.join_tournament(t.id, 9),
                tournaments.leave_tournament(t.id, 1),
            ):
                with pytest.raises(StorageError) as info:
                    await call
                assert "\n" not in str(info.value)
        finally:
            if isinstance(store, SQLiteStore):
                other.execute("ROLLBACK")
                other.close()
            else:
                await locked.rollback()
                await pg.close()
        assert await tournaments.games_of(t.id) == []
        assert [e.presence for e in await tournaments.entrants(t.id)] == [Presence.IN] * 4
        assert await tournaments.start_round(t.id, 1, ((1, 2), (3, 4)))
        assert await tournaments.leave_tournament(t.id, 1)
    finally:
        await store.close()


async def test_the_database_itself_refuses_anything_twice(new_store: Callable[[], Store]) -> None:
    """Written past the store, straight in SQL: a second seat in a round, a second game at once,
    a second bye, a game without seats, a result that is no score, a Swiss without rounds are
    each refused by the database's own constraints."""
    store = new_store()
    await store.open()
    try:
        t = await running(store, swiss_of(), range(1, 6))
        assert await TournamentStore(store).start_round(t.id, 1, ((1, 4), (5, 2)), 3)
    finally:
        await store.close()
    seat, bye, game = (q.sqlite for q in (sql.SEAT, sql.BYE, sql.GAME))  # the store's own
    refused = [
        [(seat, t.id, 1, 1, False)],  # a second seat in round 1
        [(seat, t.id, 2, 1, True)],  # a second game at once (round 1's still goes on)
        [(seat, t.id, 2, 3, False), (bye, t.id, 2, 3)],  # 3 had round 1's bye
        [(game, t.id, 2, 1, 2, 5)],  # no seats in round 2
        [("UPDATE tournament_games SET result = 0.7 WHERE tournament_id = ?", t.id)],
        [("UPDATE tournaments SET rounds = NULL WHERE id = ?", t.id)],
    ]
    if isinstance(store, SQLiteStore):
        conn = sqlite3.connect(store.path, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        for statements in refused:
            conn.execute("BEGIN")
            with pytest.raises(sqlite3.IntegrityError):
                for statement, *args in statements:
                    conn.execute(statement, args)
            conn.execute("ROLLBACK")
        conn.close()
    else:
        assert isinstance(store, PostgresStore)
        pg = await asyncpg.connect(store.url)
        try:
            for statements in refused:
                with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                    async with pg.transaction():
                        for statement, *args in statements:
                            await pg.execute(numbered(statement), *args)
        finally:
            await pg.close()


async def held(store: Store, tournament_id: int) -> tuple[object, ...]:
    """Everything a store holds of a tournament."""
    tournaments = TournamentStore(store)
    return (
        await tournaments.get_tournament(tournament_id),
        await tournaments.entrants(tournament_id),
        await tournaments.pairings(tournament_id),
        await tournaments.byes_of(tournament_id),
    )


async def test_migrate_db_copies_the_tournaments(tmp_path: Path, postgres_url: str) -> None:
    """migrate-db copies tournaments, entrants, seats, games and byes, counts verified; what
    holds in the file holds in PostgreSQL (a result once, nobody in two games), and the next
    tournament's id follows the copied ones."""
    from bot.storage.migrate import copy

    path = tmp_path / "games.db"
    source = sqlite_store(path)
    await source.open()
    source_tournaments = TournamentStore(source)
    try:
        t = await running(source, swiss_of(capacity=8), range(1, 6))
        assert await source_tournaments.start_round(t.id, 1, PAIRS, BYE)
        first, second = await source_tournaments.pairings(t.id)
        await source_tournaments.attach_game(first, game_id=41, thread_id=9001)
        assert await source_tournaments.record_result(first, 0.5)
        arena = await running(source, arena_of(), range(1, 4))
        assert await source_tournaments.pause_entrant(arena.id, 3, True)
        (playing,) = await source_tournaments.pair_arena(arena.id, ((1, 2),))
        cancelled = await source_tournaments.create_tournament(swiss_of(starts_at=WHEN))
        assert await source_tournaments.finish_tournament(cancelled.id, Stage.CANCELLED)
        ids = (t.id, arena.id, cancelled.id)
        want = [await held(source, x) for x in ids]
    finally:
        await source.close()
    counts, copied = await copy(path, postgres_url, STEPS)
    # 3 tournaments; 5 + 3 entrants; 5 + 2 seats; 2 + 1 games; 1 bye.
    rows = dict(counts.rows)
    tables = ("tournaments", "tournament_entrants", "tournament_seats", "tournament_games")
    assert copied and [rows[t] for t in (*tables, "tournament_byes")] == [3, 8, 7, 3, 1]
    target = postgres_store(postgres_url)
    await target.open()
    target_tournaments = TournamentStore(target)
    try:
        assert [await held(target, x) for x in ids] == want
        assert not await target_tournaments.record_result(first, 1.0)
        assert await target_tournaments.record_result(second, 1.0)
        with pytest.raises(RoundError):
            await target_tournaments.pair_arena(
                arena.id, ((2, 1),)
            )  # still playing, as in the file
        assert await target_tournaments.record_result(playing, 0.0)
        assert [p.round for p in await target_tournaments.pair_arena(arena.id, ((2, 1),))] == [2]
        later = await target_tournaments.create_tournament(swiss_of())
        assert later.id > max(ids)
        assert await target_tournaments.join_tournament(later.id, 1) is Join.JOINED
    finally:
        await target.close()
