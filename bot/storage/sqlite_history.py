"""The SQLite store's history methods (a base class of ``SQLiteStore``): a player's past games and
the history of their ratings (``history_sql``), read on the store's own thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from bot.games.record import GameRecord
from bot.storage import history_sql, schema
from bot.storage.history_sql import RatingHistory
from bot.storage.schema import guild_key

T = TypeVar("T")


class SQLiteHistory:
    """A player's finished games and rating history on the SQLite file."""

    if TYPE_CHECKING:

        async def _run(self, fn: Callable[..., T], *args: Any) -> T: ...
        def _read(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...

    async def player_games(
        self, guild_id: int | None, user_id: int, *, with_id: int | None = None,
        kind: str | None = None, limit: int = 10, offset: int = 0,
    ) -> list[GameRecord]:  # fmt: skip
        """A player's played games in a server, newest first."""
        args = history_sql.games_args(guild_key(guild_id), user_id, with_id, kind, limit, offset)
        sql = f"SELECT {schema.COLUMNS} FROM games {history_sql.PLAYER_GAMES}"

        def load(conn: sqlite3.Connection) -> list[GameRecord]:
            return [schema.from_row(row) for row in conn.execute(sql, args).fetchall()]

        return await self._run(self._read, f"load the games of player {user_id}", load)

    async def rating_history(self, guild_id: int | None, user_id: int) -> RatingHistory:
        """A player's rating after each rated game in a server, by kind, oldest first."""
        args = (guild_key(guild_id), user_id)

        def load(conn: sqlite3.Connection) -> RatingHistory:
            rows = conn.execute(history_sql.RATINGS, args).fetchall()
            return history_sql.by_kind((k, datetime.fromisoformat(at), r) for k, at, r in rows)

        return await self._run(self._read, f"load the ratings of player {user_id}", load)
