"""The history calls of a watched store (``bot.metrics.WatchedStore``): each passed to the inner
store, its failures counted by the watcher's ``_watch`` under the call's name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.games.record import GameRecord
from bot.storage.history_sql import RatingHistory

if TYPE_CHECKING:
    from bot.storage.base import Store


class WatchedHistory:
    """History calls passed through to ``inner``, watched."""

    if TYPE_CHECKING:
        inner: Store

        async def _watch(self, name: str, call: Callable[[], Awaitable[Any]]) -> Any: ...

    async def player_games(
        self, guild_id: int | None, user_id: int, *, with_id: int | None = None,
        kind: str | None = None, limit: int = 10, offset: int = 0,
    ) -> list[GameRecord]:  # fmt: skip
        """A player's played games in a server, newest first."""

        def call() -> Awaitable[list[GameRecord]]:
            return self.inner.player_games(
                guild_id, user_id, with_id=with_id, kind=kind, limit=limit, offset=offset
            )

        result: list[GameRecord] = await self._watch("player_games", call)
        return result

    async def rating_history(self, guild_id: int | None, user_id: int) -> RatingHistory:
        """A player's rating after each rated game in a server, by kind."""
        result: RatingHistory = await self._watch(
            "rating_history", lambda: self.inner.rating_history(guild_id, user_id)
        )
        return result
