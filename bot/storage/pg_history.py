"""The PostgreSQL store's history methods (a base class of ``PostgresStore``): a player's past
games and the history of their ratings, the same SQL as SQLite's (``history_sql``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from bot.games.record import GameRecord
from bot.storage import history_sql, pg_schema
from bot.storage.history_sql import RatingHistory
from bot.storage.puzzle_sql import numbered
from bot.storage.schema import guild_key

T = TypeVar("T")
GAMES = numbered(f"SELECT {pg_schema.COLUMNS} FROM games {history_sql.PLAYER_GAMES}")
RATINGS = numbered(history_sql.RATINGS)


class PostgresHistory:
    """A player's finished games and rating history on PostgreSQL."""

    if TYPE_CHECKING:

        async def _read(self, what: str, body: Callable[[Any], Awaitable[T]]) -> T: ...

    async def player_games(
        self, guild_id: int | None, user_id: int, *, with_id: int | None = None,
        kind: str | None = None, limit: int = 10, offset: int = 0,
    ) -> list[GameRecord]:  # fmt: skip
        """A player's played games in a server, newest first."""
        args = history_sql.games_args(guild_key(guild_id), user_id, with_id, kind, limit, offset)

        async def load(conn: Any) -> list[GameRecord]:
            return [pg_schema.from_row(row) for row in await conn.fetch(GAMES, *args)]

        return await self._read(f"load the games of player {user_id}", load)

    async def rating_history(self, guild_id: int | None, user_id: int) -> RatingHistory:
        """A player's rating after each rated game in a server, by kind, oldest first."""

        async def load(conn: Any) -> RatingHistory:
            rows = await conn.fetch(RATINGS, guild_key(guild_id), user_id)
            return history_sql.by_kind((row[0], pg_schema.when(row[1]), row[2]) for row in rows)

        return await self._read(f"load the ratings of player {user_id}", load)
