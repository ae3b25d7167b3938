"""Puzzles in the store, on both backends: server puzzles, daily posts claimed once, attempts that
survive a new store (a restart), results counted once with both ratings and the streak moved,
the leaderboard; and a version-5 database (before puzzles) migrated with its rows untouched."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg

from bot.assembly import STEPS, postgres_store, sqlite_store
from bot.puzzles.model import AttemptRecord, puzzle_start
from bot.puzzles.store import PuzzleStore
from bot.storage import queries
from bot.storage.base import Store
from engine.puzzles import play, puzzles
from tests.bot.store_support import GUILD, game
from tests.bot.test_store_kinds import assert_kept, file_with_a_game, postgres_at

DAY = 739_580
SET = puzzles()


def record(
    user: int = 1, *, guild: int | None = GUILD, day: int | None = None, n: int = 0
) -> AttemptRecord:
    """A new attempt at the set's puzzle `n`."""
    return AttemptRecord(0, guild, 500, user, SET[n], day=day, locale="fr")


async def test_server_puzzles_are_kept_once_oldest_first(new_store: Callable[[], Store]) -> None:
    """A server's puzzles come back oldest first; the same puzzle twice is kept once; another
    server's are apart."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        await puzzles.add_server_puzzle(GUILD, SET[5], 17)
        await puzzles.add_server_puzzle(GUILD, SET[2], 18)
        await puzzles.add_server_puzzle(GUILD, SET[5], 19)
        await puzzles.add_server_puzzle(222, SET[9], 20)
        assert await puzzles.server_puzzles(GUILD) == [SET[5], SET[2]]
        assert await puzzles.server_puzzles(222) == [SET[9]]
        assert await puzzles.server_puzzles(333) == []
    finally:
        await store.close()


async def test_attempts_started_at_once_with_game_saves_are_as_stored(
    new_store: Callable[[], Store],
) -> None:
    """Attempts started and moved at once, beside games' saves (on SQLite: written together,
    one commit), each come back from the store as it was handed back, and the games too."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        starts = [puzzles.start_attempt(record(user, n=user)) for user in range(1, 9)]
        saves = [store.save_game(game(gid)) for gid in (901, 902)]
        started = [s for s in (await asyncio.gather(*starts, *saves))[:8] if s is not None]
        assert len({s.id for s in started}) == 8
        for new in started:
            assert await puzzles.load_attempt(new.id) == new
        moved = [s.moved(play(s.attempt, s.puzzle.solution)) for s in started]
        saves = [puzzles.save_attempt(m, s) for m, s in zip(moved, started, strict=True)]
        assert await asyncio.gather(*saves) == [True] * 8
        assert [await puzzles.load_attempt(m.id) for m in moved] == moved
        assert await store.load_game(901) is not None and await store.load_game(902) is not None
    finally:
        await store.close()


def test_a_write_that_fails_in_a_batch_undoes_itself_alone(tmp_path: Path) -> None:
    """In the SQLite store's group commit, a write that raises is undone (its savepoint) and
    handed back as `Failed`; the batch's other writes are committed."""
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    conn.execute("CREATE TABLE t (v INTEGER)")

    def broken(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t VALUES (1)")
        raise ValueError("a bug")

    conn.execute("BEGIN IMMEDIATE")
    first = queries.write(conn, broken)
    second = queries.write(conn, lambda c: c.execute("INSERT INTO t VALUES (2)").rowcount)
    conn.execute("COMMIT")
    assert isinstance(first, queries.Failed) and str(first.error) == "a bug"
    assert second == 1
    assert conn.execute("SELECT v FROM t").fetchall() == [(2,)]
    conn.close()


async def test_a_daily_post_is_claimed_once_across_stores(new_store: Callable[[], Store]) -> None:
    """Two stores on one database (two processes) claiming at once: one wins, once per day."""
    a, b = new_store(), new_store()
    await a.open()
    await b.open()
    pa, pb = PuzzleStore(a), PuzzleStore(b)
    try:
        claims = await asyncio.gather(*(s.claim_daily_post(GUILD, DAY) for s in (pa, pb, pa, pb)))
        assert sorted(claims) == [False, False, False, True]
        assert await pb.claim_daily_post(GUILD, DAY + 1)
        assert await pa.claim_daily_post(222, DAY)
        assert not await pa.claim_daily_post(GUILD, DAY + 1)
    finally:
        await a.close()
        await b.close()


async def test_an_attempt_survives_a_restart_and_counts_once(
    new_store: Callable[[], Store],
) -> None:
    """An attempt gets an id, its moves are saved and read back by a new store; a stale save
    writes nothing; finishing counts the result once, moving both ratings."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        started = await puzzles.start_attempt(record())
        assert started is not None and started.id > 0 and started.locale == "fr"
        assert started.puzzle == SET[0] and started.created_at is not None
        again = await puzzles.start_attempt(record())
        assert again is not None and again.id != started.id
        moved = started.moved(play(started.attempt, SET[0].solution))
        assert moved.ply == 2 and await puzzles.save_attempt(moved, started)
        assert not await puzzles.save_attempt(moved, started)  # a second click on the old board
    finally:
        await store.close()
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        assert await puzzles.load_attempt(started.id) == moved
        assert await puzzles.load_attempt(started.id + 100) is None
        failed = dataclasses.replace(moved, moves=(*moved.moves, 99), state="draw")
        settled = await puzzles.finish_attempt(failed, moved)
        assert settled is not None and settled.before.attempts == 0
        player = settled.after
        assert player.attempts == 1 and player.solved == 0
        assert player.rating.rating < 1500
        assert await puzzles.finish_attempt(failed, moved) is None  # counted once
        assert await puzzles.puzzle_player(GUILD, 1) == player
        ratings = await puzzles.puzzle_ratings()
        assert ratings[SET[0].id] == settled.puzzle.rating > puzzle_start(SET[0]).rating
        assert await puzzles.puzzles_tried(GUILD, 1) == {SET[0].id}
        assert await puzzles.puzzles_tried(None, 1) == set()
    finally:
        await store.close()


async def test_the_daily_attempt_is_one_a_day_and_moves_the_streak(
    new_store: Callable[[], Store],
) -> None:
    """One attempt a player a day at the daily puzzle (in DMs too); solving on following days
    grows the streak, a failure ends it; the leaderboard ranks by puzzle rating."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        for offset, user, solve in ((0, 1, True), (1, 1, True), (2, 1, False), (0, 2, True)):
            new = await puzzles.start_attempt(record(user, day=DAY + offset, n=offset))
            assert new is not None
            assert await puzzles.start_attempt(record(user, day=DAY + offset)) is None
            assert await puzzles.daily_attempt(GUILD, user, DAY + offset) == new
            end = dataclasses.replace(new, moves=(1,), state="solved" if solve else "loses")
            assert await puzzles.finish_attempt(end, new) is not None
        one, two = await puzzles.puzzle_player(GUILD, 1), await puzzles.puzzle_player(GUILD, 2)
        assert (one.attempts, one.solved, one.streak, one.best_streak) == (3, 2, 0, 2)
        assert (two.streak, two.last_solved, two.streak_on(DAY + 1), two.streak_on(DAY + 2)) == (
            1,
            DAY,
            1,
            0,
        )
        dm = await puzzles.start_attempt(record(1, guild=None, day=DAY))
        assert dm is not None and dm.guild_id is None
        assert await puzzles.start_attempt(record(1, guild=None, day=DAY)) is None
        top = await puzzles.puzzle_leaderboard(GUILD)
        assert [row.rank for row in top] == [1, 2] and {row.user_id for row in top} == {1, 2}
        assert top[0].rating > top[1].rating
        assert {(row.user_id, row.best_streak, row.attempts) for row in top} == {
            (1, 2, 3),
            (2, 1, 1),
        }
        assert await puzzles.puzzle_leaderboard(None) == []
    finally:
        await store.close()


async def test_an_older_daily_board_finished_late_leaves_the_streak(
    new_store: Callable[[], Store],
) -> None:
    """Yesterday's daily board stays clickable after midnight: finished after today's was
    solved, a solve neither counts a day twice nor moves the last day back, a failure does not
    end the streak."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        for offset, solve in ((1, True), (0, True), (-1, False)):
            new = await puzzles.start_attempt(record(day=DAY + offset, n=offset + 1))
            assert new is not None
            end = dataclasses.replace(new, moves=(1,), state="solved" if solve else "loses")
            assert await puzzles.finish_attempt(end, new) is not None
        one = await puzzles.puzzle_player(GUILD, 1)
        assert (one.streak, one.best_streak, one.last_solved) == (1, 1, DAY + 1)
        assert (one.attempts, one.solved) == (3, 2)
    finally:
        await store.close()


async def test_a_copy_read_before_a_hint_writes_nothing(new_store: Callable[[], Store]) -> None:
    """A hint changes no move: a copy of the attempt read before it (another process's) cannot
    save a move over it, so a hinted solve is never rated as clean."""
    store = new_store()
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        new = await puzzles.start_attempt(record())
        assert new is not None
        hinted = dataclasses.replace(new, hints=1)
        assert await puzzles.save_attempt(hinted, new)
        assert not await puzzles.save_attempt(dataclasses.replace(new, moves=(1,)), new)
        assert await puzzles.finish_attempt(dataclasses.replace(new, state="solved"), new) is None
        assert await puzzles.load_attempt(new.id) == hinted
    finally:
        await store.close()


async def test_a_version_five_sqlite_file_gains_puzzles_and_keeps_its_rows(tmp_path: Path) -> None:
    """A file from before puzzles (a finished game, a rating) keeps both and takes attempts."""
    path = tmp_path / "old.db"
    played = file_with_a_game(path, 5)
    store = sqlite_store(path)
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        await assert_kept(store, played)
        assert await puzzles.start_attempt(record()) is not None
        assert await puzzles.claim_daily_post(GUILD, DAY)
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) == 9
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"


async def test_a_version_five_postgres_database_gains_puzzles_and_keeps_its_rows(
    postgres_url: str,
) -> None:
    rating = ("INSERT INTO ratings VALUES ($1, 1, 1234.5, 6, 'classic')", GUILD)
    await postgres_at(postgres_url, 5, rating)
    store = postgres_store(postgres_url)
    await store.open()
    puzzles = PuzzleStore(store)
    try:
        assert (await store.player_stats(GUILD, 1)).rating == 1234.5
        started = await puzzles.start_attempt(record())
        assert started is not None and await puzzles.load_attempt(started.id) == started
        assert await puzzles.claim_daily_post(GUILD, DAY)
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == len(STEPS) == 9
    finally:
        await conn.close()


async def test_migrate_db_copies_the_puzzles(tmp_path: Path, postgres_url: str) -> None:
    """migrate-db copies attempts, ratings, streaks, server puzzles and daily posts; the next
    attempt id in PostgreSQL follows the copied ones."""
    from bot.storage.migrate import copy

    path = tmp_path / "games.db"
    source = sqlite_store(path)
    await source.open()
    source_puzzles = PuzzleStore(source)
    try:
        first = await source_puzzles.start_attempt(record(day=DAY))
        playing = await source_puzzles.start_attempt(record(2, guild=None, n=3))
        assert first is not None and playing is not None
        end = dataclasses.replace(first, moves=(1,), state="solved")
        await source_puzzles.finish_attempt(end, first)
        await source_puzzles.add_server_puzzle(GUILD, SET[7], 3)
        await source_puzzles.claim_daily_post(GUILD, DAY)
    finally:
        await source.close()
    counts, copied = await copy(path, postgres_url, STEPS)
    rows = dict(counts.rows)
    tables = (
        "puzzle_players",
        "puzzle_ratings",
        "puzzle_attempts",
        "server_puzzles",
        "daily_posts",
    )
    assert copied and [rows[t] for t in tables] == [1, 1, 2, 1, 1]
    target = postgres_store(postgres_url)
    await target.open()
    target_puzzles = PuzzleStore(target)
    try:
        assert await target_puzzles.load_attempt(first.id) == end
        assert await target_puzzles.load_attempt(playing.id) == playing
        assert (await target_puzzles.puzzle_player(GUILD, 1)).streak == 1
        assert await target_puzzles.server_puzzles(GUILD) == [SET[7]]
        assert not await target_puzzles.claim_daily_post(GUILD, DAY)
        later = await target_puzzles.start_attempt(record(3))
        assert later is not None and later.id > playing.id
    finally:
        await target.close()
