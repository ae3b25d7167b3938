"""PostgresStore on a real server: what several processes sharing one database must get right,
and the server's own troubles (locks, a dead connection, a restart), each one clear line."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.assembly import STEPS, create_bot, open_store, postgres_store
from bot.config import Settings
from bot.games import rating
from bot.games.look import Look
from bot.games.record import Status
from bot.games.settings import ServerSettings
from bot.games.stats import Record
from bot.storage.base import StorageError
from bot.storage.postgres import PostgresStore
from devkit.postgres import PgServer
from tests.bot.store_support import GUILD, finished, game


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database, as two bot processes would have. These tests are about
    correctness under contention, not speed: a busy test machine gets ten seconds a statement."""
    a, b = postgres_store(postgres_url, timeout=10), postgres_store(postgres_url, timeout=10)
    await asyncio.gather(a.open(), b.open())
    yield a, b
    await asyncio.gather(a.close(), b.close())


async def sql(url: str, statement: str, *args: object) -> object:
    """Run one statement on a connection of its own; return the first value."""
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(statement, *args)
    finally:
        await conn.close()


async def script(url: str, statements: str) -> None:
    """Run several statements on a connection of their own."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statements)
    finally:
        await conn.close()


async def test_settings_with_a_url_choose_postgresql(postgres_url: str) -> None:
    """DATABASE_URL makes the bot use PostgreSQL; without it, SQLite."""
    settings = Settings(token="a.b.c", database_url=postgres_url)
    bot = create_bot(settings)
    assert isinstance(bot.store, PostgresStore)
    await bot.release()
    assert type(open_store(Settings(token="a.b.c"))).__name__ == "SQLiteStore"


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    """Eight stores opened at once on an empty database all work; the schema is made once."""
    stores = [postgres_store(postgres_url) for _ in range(8)]
    await asyncio.gather(*(s.open() for s in stores))
    ids = await asyncio.gather(*(s.next_game_id() for s in stores))
    await asyncio.gather(*(s.close() for s in stores))
    assert sorted(ids) == list(range(1, 9))
    assert await sql(postgres_url, "SELECT version FROM schema_version") == len(STEPS)
    assert await sql(postgres_url, "SELECT COUNT(*) FROM schema_version") == 1


async def test_newer_schema_is_refused(postgres_url: str) -> None:
    """A database written by a newer bot raises StorageError naming both versions."""
    s = postgres_store(postgres_url)
    await s.open()
    await s.close()
    await sql(postgres_url, "UPDATE schema_version SET version = $1", len(STEPS) + 1)
    with pytest.raises(StorageError, match=rf"schema version {len(STEPS) + 1}, newer"):
        await postgres_store(postgres_url).open()


async def test_a_channel_may_hold_several_live_games_and_settings_are_shared(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """A server may allow several games in a channel (its settings): the database stores each,
    and counts nothing against them (the process holding the channel's server does); a server's
    settings saved by one process are read by the other, and each game keeps its language."""
    a, b = two
    await a.save_game(game(1, channel_id=77))
    await b.save_game(dataclasses.replace(game(2, channel_id=77), locale="fr"))
    assert [(g.id, g.locale) for g in await a.live_games()] == [(1, "en-US"), (2, "fr")]
    cats = Look(x="🐱", empty="<:dot:123456789012345678>", input="reactions")
    await b.save_game(
        dataclasses.replace(game(3, channel_id=78), interactions_only=True, look=cats)
    )
    assert [g.interactions_only for g in await a.live_games()] == [False, False, True]
    assert [g.look for g in await a.live_games()] == [Look(), Look(), cats]
    await a.save_server_settings(5, ServerSettings(games_per_channel=3, language="de"))
    assert (await b.server_settings())[5] == ServerSettings(games_per_channel=3, language="de")


async def test_ids_from_two_processes_never_collide(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """Ids handed out at once by two processes are all distinct."""
    a, b = two
    ids = await asyncio.gather(*(s.next_game_id() for s in (a, b) * 25))
    assert sorted(ids) == list(range(1, 51))


async def test_the_same_final_save_from_two_processes_counts_once(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """A finishing save raced by two processes (the game's row locked) is counted once, whether
    the game existed before or not."""
    a, b = two
    await a.save_game(game(1, moves=(0, 3, 1, 4)))
    end = finished(1, 1, 2, "X", moves=(0, 3, 1, 4, 2))
    new = finished(2, 1, 2, "X", moves=(0, 3, 1, 4, 2))
    await asyncio.gather(a.save_game(end), b.save_game(end), a.save_game(new), b.save_game(new))
    assert (await a.player_stats(GUILD, 1)).vs_people == Record(wins=2)
    assert (await b.player_stats(GUILD, 2)).rated_games == 2


async def test_ratings_keep_every_update_when_games_end_at_once(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """Sixty games among three players ending at once in two processes: every game counts in
    both players' ratings (none lost, no deadlock), and Elo's total stays what it was."""
    a, b = two
    pairs = [(1, 2), (2, 3), (3, 1), (2, 1), (3, 2), (1, 3)] * 10
    games = [finished(gid, x, o, "X" if gid % 3 else None) for gid, (x, o) in enumerate(pairs, 1)]
    await asyncio.gather(*(s.save_game(g) for s, g in zip((a, b) * 30, games, strict=True)))
    stats = [await a.player_stats(GUILD, user) for user in (1, 2, 3)]
    assert [s.rated_games for s in stats] == [40, 40, 40]
    assert sum(s.rating for s in stats) == pytest.approx(3 * rating.DEFAULT_RATING)
    assert sum(s.vs_people.games for s in stats) == 120


async def test_failed_save_rolls_back_the_whole_game(postgres_url: str) -> None:
    """A save that fails midway (here: writing the ratings) leaves no trace of the game."""
    s = postgres_store(postgres_url)
    await s.open()
    await s.save_game(game(1, moves=(0, 4, 8)))
    await script(
        postgres_url,
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'boom'; END $$; "
        "CREATE TRIGGER fail BEFORE UPDATE ON ratings FOR EACH ROW EXECUTE FUNCTION boom()",
    )
    with pytest.raises(StorageError, match=r"cannot save game 1.*boom"):
        await s.save_game(finished(1, 1, 2, "X", moves=(0, 4, 8, 1, 2, 3, 6)))
    loaded = await s.load_game(1)
    assert loaded is not None and loaded.status == Status.ACTIVE and loaded.moves == (0, 4, 8)
    assert (await s.player_stats(GUILD, 1)).vs_people == Record()
    assert await s.leaderboard(GUILD) == []
    await s.close()


async def test_locked_table_fails_fast_then_recovers(postgres_url: str) -> None:
    """A save stuck behind another session's lock fails within the timeout with one line;
    nothing is half written, and it works once the lock is gone."""
    s = postgres_store(postgres_url, timeout=0.3)
    await s.open()
    await s.save_game(game(1))
    other = await asyncpg.connect(postgres_url)
    locked = other.transaction()
    await locked.start()
    await other.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
    try:
        with pytest.raises(StorageError, match=r"did not answer within 0.3 s") as info:
            await s.save_game(game(1, moves=(4,)))
        assert "\n" not in str(info.value)
    finally:
        await locked.rollback()
        await other.close()
    loaded = await s.load_game(1)
    assert loaded is not None and loaded.moves == ()
    await s.save_game(game(1, moves=(4,)))
    assert (await s.load_game(1) or game(0)).moves == (4,)
    await s.close()


async def test_connections_killed_by_the_server_are_replaced(postgres_url: str) -> None:
    """When the server drops every idle connection (a restart, an admin), the next save works."""
    s = postgres_store(postgres_url, pool_size=2)
    await s.open()
    await asyncio.gather(s.save_game(game(1)), s.save_game(game(2)))
    await sql(
        postgres_url,
        "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    await s.save_game(game(1, moves=(4,)))
    assert (await s.load_game(1) or game(0)).moves == (4,)
    await s.close()


async def test_server_down_then_back_without_reopening(
    postgres_server: PgServer, postgres_url: str
) -> None:
    """With the server stopped every call fails with one line naming it (no password); once it
    is back, the same store works again."""
    url = postgres_url.replace("postgres@", "postgres:hunter2@")
    s = postgres_store(url, timeout=0.5)
    await s.open()
    await s.save_game(game(1))
    postgres_server.stop("immediate")
    try:
        with pytest.raises(StorageError) as info:
            await s.save_game(game(1, moves=(4,)))
        message = str(info.value)
        assert "\n" not in message and "hunter2" not in message
        assert f"127.0.0.1:{postgres_server.port}" in message
    finally:
        postgres_server.start()
    await s.save_game(game(1, moves=(4,)))
    assert (await s.load_game(1) or game(0)).moves == (4,)
    await s.close()


async def test_unreachable_server_at_open_is_one_line(postgres_server: PgServer) -> None:
    """Opening a store on a port nobody listens on raises StorageError naming the server."""
    from devkit.postgres import free_port

    s = postgres_store(f"postgresql://bot:pw@127.0.0.1:{free_port()}/games")
    with pytest.raises(StorageError, match=r"cannot open the database: .*cannot be reached"):
        await s.open()
    await s.close()


async def test_a_process_never_overwrites_a_newer_game_with_an_older_copy(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """Process b saves a copy of a game older than what process a stored since: refused with one
    line, nothing written, whether the copy has fewer moves or is live where the game has ended;
    a save of the same game as stored (its message id, say) still goes through."""
    a, b = two
    await a.save_game(game(1, moves=(4,)))
    await a.save_game(game(1, moves=(4, 0)))
    with pytest.raises(StorageError, match="newer version") as info:
        await b.save_game(game(1, moves=(4,), message_id=99))
    assert "\n" not in str(info.value)
    stored = await a.load_game(1)
    assert stored is not None and stored.moves == (4, 0) and stored.message_id is None
    await b.save_game(game(1, moves=(4, 0), message_id=99))  # as stored, plus its message id
    assert (await a.load_game(1)).message_id == 99  # type: ignore[union-attr]
    ended = finished(1, 1, 2, "X", moves=(4, 0, 1, 3, 7))
    await a.save_game(ended)
    with pytest.raises(StorageError, match="newer version"):
        await b.save_game(game(1, moves=(4, 0, 1, 3)))
    live_again = dataclasses.replace(ended, status=Status.ACTIVE, ending=None, winner=None)
    with pytest.raises(StorageError, match="newer version"):  # same moves, but not ended
        await b.save_game(live_again)
    stored = await a.load_game(1)
    assert stored is not None and dataclasses.replace(stored, created_at=None) == ended
    records = await a.player_stats(GUILD, 1)
    assert records.vs_people.games == 1  # counted once
