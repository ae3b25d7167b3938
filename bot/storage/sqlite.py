"""Game storage in one SQLite file, run on one dedicated thread so the event loop never waits
for it (a commit is made on the loop's thread only when it cannot wait: `sqlite_writes`).

Durability: WAL mode; every change is committed before ``save_game`` returns (before the board
shows it). ``sync="normal"`` (the default, ``synchronous=NORMAL``): a commit survives any crash of
the bot's process, SIGKILL included, and a power loss may undo the commits since the last
checkpoint, never corrupt the file; ``"full"`` fsyncs every commit: it survives a power loss too.
The tables, migrations and row conversions are in ``schema``, the SQL in ``queries``. Every SQLite
error becomes :class:`StorageError` with a one-line message (the cause chained), after a rollback.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

from bot.config import DEFAULT_SYNC, SYNC_MODES
from bot.games import rules
from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.storage import queries, schema
from bot.storage.base import Body, Outage, Row, StorageError, Watch, drive, watched
from bot.storage.dialect import Query, Step
from bot.storage.schema import iso
from bot.storage.sqlite_writes import SQLiteWrites
from bot.storage.worker import Worker

log = logging.getLogger(__name__)
T = TypeVar("T")


class SQLiteTx:
    """A transaction on the store's thread (or on the loop's, with the saves of its turn): each
    statement runs at once, so a body never waits (``base.drive``)."""

    __slots__ = ("conn",)
    sqlite = True

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def rows(self, q: Query, *args: Any) -> list[Row]:
        return self.conn.execute(q.sqlite, args).fetchall()

    async def row(self, q: Query, *args: Any) -> Row | None:
        return cast("Row | None", self.conn.execute(q.sqlite, args).fetchone())

    async def value(self, q: Query, *args: Any) -> Any:
        row = self.conn.execute(q.sqlite, args).fetchone()
        return None if row is None else row[0]

    async def changed(self, q: Query, *args: Any) -> int:
        return self.conn.execute(q.sqlite, args).rowcount

    def time(self, moment: datetime | None) -> Any:
        return iso(moment)

    def when(self, stored: Any) -> datetime:
        return datetime.fromisoformat(stored)

    def game(self, row: Row) -> GameRecord:
        return schema.from_row(row)


def _run_body(body: Body[T]) -> Callable[[sqlite3.Connection], T]:
    return lambda conn: drive(body(SQLiteTx(conn)))


class SQLiteStore(SQLiteWrites):
    """The bot's ``Store`` on a SQLite file (created, with its folder, if absent). All SQLite
    work runs on one thread owning one connection, so writes are serialized (a save may be
    written on the event loop's thread while that thread is idle: `SQLiteWrites`); `steps`: the
    schema's steps in order (``bot.stores``); ``busy_timeout``: seconds to wait for another
    process's lock before StorageError; ``sync``: SQLite's ``synchronous``, "normal" or "full"
    (see above)."""

    def __init__(
        self,
        path: str | Path,
        *,
        steps: Sequence[Step],
        busy_timeout: float = 5.0,
        sync: str = DEFAULT_SYNC,
    ) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.path, self.busy_timeout, self.synchronous = Path(path), busy_timeout, SYNC_MODES[sync]
        self.steps = tuple(steps)
        self.watch: Watch | None = None
        self._executor: Worker | None = None
        # Used on the worker thread, and on the loop's while the thread is idle (`SQLiteWrites`).
        self._conn: sqlite3.Connection | None = None
        self.outage = Outage()
        super().__init__()

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        if self._executor is None:
            self._executor = Worker("sqlite")
        # Not through `_run`: a database that cannot be opened is a start-up failure, said once.
        await self._executor.submit(self._open)

    async def close(self) -> None:
        """Write the queued saves, checkpoint the log, close the connection, stop the thread."""
        await self._drain()
        executor, self._executor = self._executor, None
        if executor is None:
            return
        try:
            await executor.submit(self._close)
        finally:
            executor.stop()

    # -- the Store protocol ------------------------------------------------------------------

    async def next_game_id(self) -> int:
        """Larger than every id handed out or saved before; the counter is written in the
        transaction of the saves queued beside it (one commit for all)."""
        return cast(int, await self._counted("next_game_id", self._queued(None)))

    async def save_game(self, game: GameRecord) -> None:
        """Saves (and ids asked for) that arrive while others are being written go together into
        the next transaction (group commit): one commit for all, in the order they came; if it
        fails, none is written and each gets the StorageError."""
        rules.check(game)
        if self.watch is None:
            await self._queued(game)
            return
        try:
            await watched(self.watch, "save_game", self._queued(game))
        except StorageError:
            self.watch.saved(game.id, True)
            raise
        self.watch.saved(game.id, False)

    async def load_game(self, game_id: int) -> GameRecord | None:
        return await self._counted("load_game", self._run(self._load_game, game_id))

    async def live_games(self) -> list[GameRecord]:
        return await self._counted("live_games", self._run(self._live_games))

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "classic"
    ) -> PlayerStats:
        body = partial(
            queries.player_stats, guild=schema.guild_key(guild_id), user_id=user_id, kind=kind
        )
        what = f"load the stats of player {user_id}"
        return await self._counted("player_stats", self._run(self._read, what, body))

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 10, kind: str = "classic"
    ) -> list[LeaderboardRow]:
        guild = schema.guild_key(guild_id)
        body = partial(queries.leaderboard, guild=guild, limit=limit, kind=kind)
        return await self._counted(
            "leaderboard", self._run(self._read, "load the leaderboard", body)
        )

    async def server_settings(self) -> dict[int, ServerSettings]:
        work = self._run(self._read, "load the server settings", queries.server_settings)
        return await self._counted("server_settings", work)

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        text, what = settings.to_json(), f"save the settings of server {guild_id}"
        work = self._run(self._write, what, lambda c: queries.save_settings(c, guild_id, text))
        await self._counted("save_server_settings", work)

    # -- the features' transactions (``base.Database``) ---------------------------------------

    async def read(self, name: str, what: str, body: Body[T]) -> T:
        """On the store's thread."""
        return await self._counted(name, self._run(self._read, what, _run_body(body)))

    async def write(
        self, name: str, what: str, body: Body[T], *, together: bool = False, single: bool = False
    ) -> T:
        """On the store's thread (`together`: in the next group commit)."""
        run = _run_body(body)
        work = self._together(what, run) if together else self._run(self._write, what, run)
        return await self._counted(name, work)

    # -- plumbing ----------------------------------------------------------------------------

    async def _counted(self, name: str, work: Awaitable[T]) -> T:
        """`work`, told to the watch (if any) under `name`: the calls' one entry point."""
        if self.watch is None:
            return await work
        return await watched(self.watch, name, work)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._executor is None:
            raise StorageError(f"the database {self.path} is not open")
        try:
            result = await self._executor.submit(fn, *args)
        except StorageError as exc:
            self.outage.failed(exc)
            raise
        if self.outage.since is not None:
            self.outage.answered()
        return result

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StorageError(f"the database {self.path} is not open")
        return self._conn

    def _explain(self, exc: sqlite3.Error) -> str:
        return queries.explain(exc, self.path, self.busy_timeout)

    def _read(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return body(self._db())
        except sqlite3.Error as exc:
            raise StorageError(f"cannot {what}: {self._explain(exc)}") from exc

    # -- worker-thread bodies ----------------------------------------------------------------

    def _open(self) -> None:
        if self._conn is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the folder for {self.path}: {exc}") from exc
        try:
            conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the database: {self._explain(exc)}") from exc
        self._conn = conn
        try:
            self._prepare(conn)
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def _prepare(self, conn: sqlite3.Connection) -> None:
        def check(conn: sqlite3.Connection) -> int:
            problem = schema.prepare(conn, self.synchronous)
            if problem is not None:
                raise StorageError(f"cannot open the database: {self.path} {problem}")
            conn.execute("PRAGMA wal_autocheckpoint = 0")  # on the thread only: `SQLiteWrites`
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

        version = self._read("open the database", check)
        latest = len(self.steps)
        if version > latest:
            raise StorageError(
                f"the database {self.path} has schema version {version}, newer than this bot "
                f"understands ({latest}): upgrade the bot or use another DATABASE_PATH"
            )
        if version < latest:
            self._write("migrate the database", lambda conn: schema.migrate(conn, self.steps))
            log.info("database %s migrated to schema %d", self.path, latest)

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:  # the log stays; SQLite replays it on the next open
            log.warning("cannot checkpoint %s on close: %s", self.path, exc)
        finally:
            conn.close()

    def _load_game(self, game_id: int) -> GameRecord | None:
        def load(conn: sqlite3.Connection) -> GameRecord | None:
            row = conn.execute(
                f"SELECT {schema.COLUMNS} FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            return None if row is None else schema.from_row(row)

        return self._read(f"load game {game_id}", load)

    def _live_games(self) -> list[GameRecord]:
        def load(conn: sqlite3.Connection) -> list[GameRecord]:
            rows = conn.execute(
                f"SELECT {schema.COLUMNS} FROM games WHERE status IN (?, ?) ORDER BY id",
                schema.LIVE,
            ).fetchall()
            return [schema.from_row(row) for row in rows]

        return self._read("load the live games", load)
