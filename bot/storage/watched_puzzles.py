"""The puzzle calls of a watched store (``bot.metrics.WatchedStore``): each passed to the inner
store, its failures counted by the watcher's ``_watch`` under the call's name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.games.puzzles import AttemptRecord, PuzzlePlayer, PuzzleRow, Settled
from engine.puzzles import Puzzle

if TYPE_CHECKING:
    from bot.storage.base import Store


class WatchedPuzzles:
    """Puzzle calls passed through to ``inner``, watched."""

    if TYPE_CHECKING:
        inner: Store

        async def _watch(self, name: str, call: Callable[[], Awaitable[Any]]) -> Any: ...

    async def add_server_puzzle(self, guild_id: int, puzzle: Puzzle, game_id: int) -> None:
        """Keep a server's puzzle."""
        await self._watch(
            "add_server_puzzle", lambda: self.inner.add_server_puzzle(guild_id, puzzle, game_id)
        )

    async def server_puzzles(self, guild_id: int) -> list[Puzzle]:
        """A server's puzzles, oldest first."""
        result: list[Puzzle] = await self._watch(
            "server_puzzles", lambda: self.inner.server_puzzles(guild_id)
        )
        return result

    async def claim_daily_post(self, guild_id: int, day: int) -> bool:
        """True exactly once per (server, day)."""
        return bool(
            await self._watch(
                "claim_daily_post", lambda: self.inner.claim_daily_post(guild_id, day)
            )
        )

    async def start_attempt(self, record: AttemptRecord) -> AttemptRecord | None:
        """Store a new attempt."""
        result: AttemptRecord | None = await self._watch(
            "start_attempt", lambda: self.inner.start_attempt(record)
        )
        return result

    async def load_attempt(self, attempt_id: int) -> AttemptRecord | None:
        """A stored attempt."""
        result: AttemptRecord | None = await self._watch(
            "load_attempt", lambda: self.inner.load_attempt(attempt_id)
        )
        return result

    async def daily_attempt(
        self, guild_id: int | None, user_id: int, day: int
    ) -> AttemptRecord | None:
        """A player's attempt at a day's daily puzzle."""
        result: AttemptRecord | None = await self._watch(
            "daily_attempt", lambda: self.inner.daily_attempt(guild_id, user_id, day)
        )
        return result

    async def save_attempt(self, record: AttemptRecord, before: AttemptRecord) -> bool:
        """Write a move or a hint of an attempt."""
        return bool(
            await self._watch("save_attempt", lambda: self.inner.save_attempt(record, before))
        )

    async def finish_attempt(self, record: AttemptRecord, before: AttemptRecord) -> Settled | None:
        """Write an attempt's end, with ratings and streak."""
        result: Settled | None = await self._watch(
            "finish_attempt", lambda: self.inner.finish_attempt(record, before)
        )
        return result

    async def puzzle_player(self, guild_id: int | None, user_id: int) -> PuzzlePlayer:
        """A player's puzzle rating and streak."""
        result: PuzzlePlayer = await self._watch(
            "puzzle_player", lambda: self.inner.puzzle_player(guild_id, user_id)
        )
        return result

    async def puzzles_tried(self, guild_id: int | None, user_id: int) -> set[str]:
        """The puzzles a player has started."""
        result: set[str] = await self._watch(
            "puzzles_tried", lambda: self.inner.puzzles_tried(guild_id, user_id)
        )
        return result

    async def puzzle_ratings(self) -> dict[str, float]:
        """Every tried puzzle's rating."""
        result: dict[str, float] = await self._watch("puzzle_ratings", self.inner.puzzle_ratings)
        return result

    async def puzzle_leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[PuzzleRow]:
        """A server's puzzle leaderboard."""
        result: list[PuzzleRow] = await self._watch(
            "puzzle_leaderboard", lambda: self.inner.puzzle_leaderboard(guild_id, limit=limit)
        )
        return result
