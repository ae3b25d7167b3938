"""Game storage on a PostgreSQL server (asyncpg), shared by every process of the bot.

The same guarantees as the SQLite store: a save returns once committed; a result is counted once
(the game's row is locked with ``SELECT ... FOR UPDATE`` and its old status read under the lock);
ratings are locked in user id order, so two games ending at once both count; the schema is
migrated at start under an advisory lock, so processes starting together migrate once. Every
failure becomes :class:`StorageError` with a one-line message that names the server (never
its password), the cause chained. A transaction that fails because its idle connection died (the
server restarted) is retried once on a fresh connection: nothing of it had been sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg

from bot.games import rules
from bot.games.record import GameRecord, Status
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.storage import pg_queries, pg_schema
from bot.storage.base import Body, Outage, Row, StorageError, Watch, watched
from bot.storage.dialect import Query, Step
from bot.storage.pg_schema import utc
from bot.storage.schema import RESULT_ENDINGS, guild_key

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRIES = 3  # attempts of a transaction that hit a deadlock or a dead idle connection
# InternalClientError: a connection the server killed, used before it noticed.
LOST = (
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    ConnectionError,
)


def where(url: str) -> str:
    """The server and database of a URL, without user or password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or '/'}"


class PostgresTx:
    """A transaction on one of the pool's connections (asyncpg prepares each statement once
    per connection and keeps it)."""

    __slots__ = ("conn",)
    sqlite = False

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def rows(self, q: Query, *args: Any) -> list[Row]:
        return list(await self.conn.fetch(q.postgres, *args))

    async def row(self, q: Query, *args: Any) -> Row | None:
        return await self.conn.fetchrow(q.postgres, *args)  # type: ignore[no-any-return]

    async def value(self, q: Query, *args: Any) -> Any:
        return await self.conn.fetchval(q.postgres, *args)

    async def changed(self, q: Query, *args: Any) -> int:
        status = await self.conn.execute(q.postgres, *args)  # "UPDATE 1", "INSERT 0 1"
        return int(status.rpartition(" ")[2] or 0)

    def time(self, moment: datetime | None) -> Any:
        return utc(moment)

    def when(self, stored: Any) -> datetime:
        return pg_schema.when(stored)

    def game(self, row: Row) -> GameRecord:
        return pg_schema.from_row(row)


class PostgresStore:
    """The bot's ``Store`` on a PostgreSQL database given by a ``postgresql://`` URL.

    `steps`: the schema's steps in order (``bot.stores``). ``timeout`` (seconds) bounds
    connecting, waiting for a connection and every statement, so a stuck server fails a click
    fast enough to still apologise within Discord's 3 s.
    """

    def __init__(
        self, url: str, *, steps: Sequence[Step], timeout: float = 1.0, pool_size: int = 10
    ) -> None:
        self.url = url
        self.steps = tuple(steps)
        self.watch: Watch | None = None
        self.where = where(url)
        self.timeout = timeout
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self.outage = Outage()

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=0,  # no floor to restore: a dead server logs nothing but our line
                max_size=self.pool_size,
                timeout=max(self.timeout, 2.0),
                command_timeout=self.timeout,
                # JIT compiling a plan can take longer than a click may wait; these queries
                # are small, so the planner's JIT only ever costs time here.
                server_settings={"jit": "off"},
                reset=_keep_session,
            )
        except (asyncpg.PostgresError, OSError, TimeoutError, ValueError, *LOST) as exc:
            raise StorageError(f"cannot open the database: {self._explain(exc)}") from exc
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close every connection (saves in flight finish first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=5)
            except (TimeoutError, OSError, *LOST):
                pool.terminate()

    async def _migrate(self) -> None:
        """Bring the schema up to date on a connection of its own: the advisory lock may wait
        for another process's migration far longer than a click's statement may take."""
        try:
            conn = await asyncpg.connect(self.url, timeout=max(self.timeout, 2.0))
        except (asyncpg.PostgresError, OSError, TimeoutError, ValueError, *LOST) as exc:
            raise StorageError(f"cannot open the database: {self._explain(exc)}") from exc
        try:
            async with conn.transaction():
                old = await self._migrate_on(conn)
        except (asyncpg.PostgresError, OSError, TimeoutError, *LOST) as exc:
            raise StorageError(f"cannot migrate the database: {self._explain(exc)}") from exc
        finally:
            await conn.close(timeout=5)
        if old < len(self.steps):
            log.info("database %s migrated to schema %d", self.where, len(self.steps))

    async def _migrate_on(self, conn: pg_queries.Connection) -> int:
        """Run the pending migration steps inside the caller's transaction; the old version."""
        await conn.execute("SELECT pg_advisory_xact_lock($1)", pg_schema.MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is None:
            await conn.execute("INSERT INTO schema_version VALUES (0)")
            version = 0
        if version > len(self.steps):
            raise StorageError(
                f"the database {self.where} has schema version {version}, newer than this "
                f"bot understands ({len(self.steps)}): upgrade the bot or use "
                "another DATABASE_URL"
            )
        for step in self.steps[version:]:
            for statement in step.postgres:
                await conn.execute(statement)
        await conn.execute("UPDATE schema_version SET version = $1", len(self.steps))
        return int(version)

    # -- the Store protocol ------------------------------------------------------------------

    async def next_game_id(self) -> int:
        """Larger than every id handed out or saved before, in any process."""

        async def bump(conn: pg_queries.Connection) -> int:
            return int(
                await conn.fetchval(
                    "UPDATE counter SET last = GREATEST(last, "
                    "(SELECT COALESCE(MAX(id), 0) FROM games)) + 1 RETURNING last"
                )
            )

        # One statement, its own transaction: the counter's row is locked for no round trip.
        work = self._transaction("hand out a game id", bump, single=True)
        return await self._counted("next_game_id", work)

    async def save_game(self, game: GameRecord) -> None:
        """A save that cannot count a result (every move but the last) is one statement; the
        last one locks the game's row, reads its old status and counts, in one transaction."""
        rules.check(game)
        if self.watch is None:
            await self._save(game)
            return
        try:
            await watched(self.watch, "save_game", self._save(game))
        except StorageError:
            self.watch.saved(game.id, True)
            raise
        self.watch.saved(game.id, False)

    async def _save(self, game: GameRecord) -> None:
        what = f"save game {game.id}"
        if game.status == Status.FINISHED and game.ending in RESULT_ENDINGS:
            await self._transaction(what, lambda conn: pg_queries.upsert(conn, game))
            return
        args = pg_schema.to_args(game)

        async def upsert(conn: pg_queries.Connection) -> None:
            if await conn.execute(pg_schema.UPSERT, *args) == "INSERT 0 0":
                raise pg_queries.StaleGame(game.id)

        await self._transaction(what, upsert, single=True)

    async def load_game(self, game_id: int) -> GameRecord | None:
        return await self._read(
            "load_game", f"load game {game_id}", lambda conn: pg_queries.load_game(conn, game_id)
        )

    async def live_games(self) -> list[GameRecord]:
        return await self._read("live_games", "load the live games", pg_queries.live_games)

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "classic"
    ) -> PlayerStats:
        guild = guild_key(guild_id)
        return await self._read(
            "player_stats",
            f"load the stats of player {user_id}",
            lambda conn: pg_queries.player_stats(conn, guild, user_id, kind),
        )

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 10, kind: str = "classic"
    ) -> list[LeaderboardRow]:
        guild = guild_key(guild_id)
        return await self._read(
            "leaderboard",
            "load the leaderboard",
            lambda conn: pg_queries.leaderboard(conn, guild, limit, kind),
        )

    async def server_settings(self) -> dict[int, ServerSettings]:
        what = "load the server settings"
        return await self._read("server_settings", what, pg_queries.server_settings)

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        text = settings.to_json()
        work = self._transaction(
            f"save the settings of server {guild_id}",
            lambda conn: pg_queries.save_settings(conn, guild_id, text),
            single=True,
        )
        await self._counted("save_server_settings", work)

    # -- the features' transactions (``base.Database``) ---------------------------------------

    async def read(self, name: str, what: str, body: Body[T]) -> T:
        return await self._read(name, what, lambda conn: body(PostgresTx(conn)))

    async def write(
        self, name: str, what: str, body: Body[T], *, together: bool = False, single: bool = False
    ) -> T:
        work = self._transaction(what, lambda conn: body(PostgresTx(conn)), single=single)
        return await self._counted(name, work)

    # -- plumbing ----------------------------------------------------------------------------

    async def _counted(self, name: str, work: Awaitable[T]) -> T:
        if self.watch is None:
            return await work
        return await watched(self.watch, name, work)

    async def _read(self, name: str, what: str, body: Callable[[Any], Awaitable[T]]) -> T:
        return await self._counted(name, self._transaction(what, body))

    async def _transaction(
        self, what: str, body: Callable[[Any], Awaitable[T]], *, single: bool = False
    ) -> T:
        """Run ``body`` in one transaction; roll back and raise StorageError on failure.

        ``single``: the body is one statement, which is a transaction by itself (no BEGIN and
        COMMIT round trips); a dead idle connection is then retried like a failed BEGIN, as the
        server never received the statement.
        """
        if self._pool is None:
            raise StorageError(f"the database {self.where} is not open")
        try:
            result = await self._attempts(what, body, single)
        except StorageError as exc:
            if not isinstance(exc.__cause__, pg_queries.StaleGame):  # not an outage
                self.outage.failed(exc)
            raise
        if self.outage.since is not None:
            self.outage.answered()
        return result

    async def _attempts(self, what: str, body: Callable[[Any], Awaitable[T]], single: bool) -> T:
        """`_transaction`'s tries: a dead idle connection or a deadlock is tried again."""
        assert self._pool is not None
        for attempt in range(1, RETRIES + 1):
            started = False
            try:
                async with self._pool.acquire(timeout=self.timeout) as conn:
                    if single:
                        return await body(conn)
                    transaction = conn.transaction()
                    await transaction.start()
                    started = True
                    try:
                        result = await body(conn)
                    except BaseException:
                        await _rollback(transaction)
                        raise
                    await transaction.commit()
                    return result
            except StorageError:
                raise
            except pg_queries.StaleGame as exc:
                raise StorageError(
                    f"cannot {what}: the database holds a newer version of it (another process "
                    "moved the game on), so nothing was written"
                ) from exc
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
                if attempt == RETRIES:
                    raise StorageError(f"cannot {what}: {self._explain(exc)}") from exc
            except (asyncpg.PostgresError, OSError, TimeoutError, *LOST) as exc:
                # A dead idle connection fails at BEGIN, before anything was sent: try again.
                if started or not isinstance(exc, LOST) or attempt == RETRIES:
                    raise StorageError(f"cannot {what}: {self._explain(exc)}") from exc
            log.info("retrying to %s (attempt %d)", what, attempt + 1)
        raise AssertionError("unreachable")

    def _explain(self, exc: BaseException) -> str:
        """One line for what a failure means for the database."""
        at = f"the database {self.where}"
        if isinstance(exc, TimeoutError | asyncpg.QueryCanceledError):
            return f"{at} did not answer within {self.timeout:g} s (busy, locked or unreachable)"
        if isinstance(exc, LOST) and not isinstance(exc, ConnectionRefusedError):
            return f"the connection to {at} was lost"
        if isinstance(exc, OSError):
            return f"{at} cannot be reached ({exc.strerror or exc})"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"{at}: {first}"


async def _keep_session(_: Any) -> None:
    """Give a connection back to the pool without asyncpg's reset query (a round trip on every
    call): the store leaves nothing in a session (no session locks, LISTEN, cursors or SET)."""


async def _rollback(transaction: Any) -> None:
    """Roll back, ignoring a connection that is already gone (the server rolls back for us)."""
    try:
        await transaction.rollback()
    except (asyncpg.PostgresError, OSError, TimeoutError, *LOST):
        pass
