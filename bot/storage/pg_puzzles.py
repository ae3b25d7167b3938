"""The PostgreSQL store's puzzle methods (a base class of ``PostgresStore``).

The same SQL as SQLite's (``puzzle_sql``, placeholders numbered). Finishing an attempt locks the
player's row before reading it, so two attempts of one player finishing at once (two shards)
both count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from bot.games.puzzles import (
    AttemptRecord,
    PuzzlePlayer,
    PuzzleRow,
    Settled,
    puzzle_start,
    settle,
)
from bot.storage import puzzle_sql as sql
from bot.storage.schema import guild_key
from engine.puzzles import Puzzle

T = TypeVar("T")
N = sql.numbered


class PostgresPuzzles:
    """Puzzle attempts, ratings, streaks, server puzzles and daily posts on PostgreSQL."""

    if TYPE_CHECKING:

        async def _transaction(
            self, what: str, body: Callable[[Any], Awaitable[T]], *, single: bool = False
        ) -> T: ...

    async def add_server_puzzle(self, guild_id: int, puzzle: Puzzle, game_id: int) -> None:
        """Keep a puzzle made from a game of this server (the same puzzle twice: once)."""
        args = (guild_id, puzzle.id, puzzle.to_line(), game_id)

        async def add(conn: Any) -> None:
            await conn.execute(N(sql.ADD_SERVER_PUZZLE), *args)

        await self._transaction(f"keep puzzle {puzzle.id} of server {guild_id}", add, single=True)

    async def server_puzzles(self, guild_id: int) -> list[Puzzle]:
        """The puzzles made from this server's games, oldest first."""

        async def load(conn: Any) -> list[Puzzle]:
            rows = await conn.fetch(N(sql.SERVER_PUZZLES), guild_id)
            return [Puzzle.from_line(row[0]) for row in rows]

        return await self._transaction(f"load the puzzles of server {guild_id}", load)

    async def claim_daily_post(self, guild_id: int, day: int) -> bool:
        """True exactly once per (server, day), whatever the process or shard."""

        async def claim(conn: Any) -> bool:
            return bool(await conn.execute(N(sql.CLAIM_DAILY_POST), guild_id, day) == "INSERT 0 1")

        what = f"claim the daily post of server {guild_id}"
        return await self._transaction(what, claim, single=True)

    async def start_attempt(self, record: AttemptRecord) -> AttemptRecord | None:
        """Store a new attempt and give it its id; None if it is a daily puzzle this player
        already has an attempt at (see ``daily_attempt``)."""
        created = record.created_at or datetime.now(UTC)
        args = sql.start_args(record, guild_key(record.guild_id), created)

        async def start(conn: Any) -> AttemptRecord | None:
            row = await conn.fetchrow(N(sql.START), *args)
            if row is None:
                return None
            return sql.attempt_of(await conn.fetchrow(N(sql.LOAD_ATTEMPT), row[0]))

        return await self._transaction(f"start an attempt of player {record.user_id}", start)

    async def load_attempt(self, attempt_id: int) -> AttemptRecord | None:
        """The stored attempt, or None."""

        async def load(conn: Any) -> AttemptRecord | None:
            row = await conn.fetchrow(N(sql.LOAD_ATTEMPT), attempt_id)
            return None if row is None else sql.attempt_of(row)

        return await self._transaction(f"load puzzle attempt {attempt_id}", load)

    async def daily_attempt(
        self, guild_id: int | None, user_id: int, day: int
    ) -> AttemptRecord | None:
        """This player's attempt at the daily puzzle of day `day` here, if any."""

        async def load(conn: Any) -> AttemptRecord | None:
            row = await conn.fetchrow(N(sql.DAILY_ATTEMPT), guild_key(guild_id), user_id, day)
            return None if row is None else sql.attempt_of(row)

        return await self._transaction(f"load the daily attempt of {user_id}", load)

    async def save_attempt(self, record: AttemptRecord, before: AttemptRecord) -> bool:
        """Write a move or a hint over the stored `before`; False if it had moved on."""
        args = sql.save_args(record, before)

        async def save(conn: Any) -> bool:
            return bool(await conn.execute(N(sql.SAVE_ATTEMPT), *args) == "UPDATE 1")

        return await self._transaction(f"save puzzle attempt {record.id}", save, single=True)

    async def finish_attempt(self, record: AttemptRecord, before: AttemptRecord) -> Settled | None:
        """Write the attempt's end and move both ratings and the streak in one transaction;
        the player after it, or None if the stored attempt had moved on."""
        guild = guild_key(record.guild_id)

        async def finish(conn: Any) -> Settled | None:
            if await conn.execute(N(sql.SAVE_ATTEMPT), *sql.save_args(record, before)) != (
                "UPDATE 1"
            ):
                return None
            # Rows must exist to be locked: a player or puzzle new here gets its first one.
            fresh = sql.player_args(guild, PuzzlePlayer(record.user_id))
            await conn.execute(N(sql.NEW_PLAYER), *fresh)
            start = sql.puzzle_rating_args(record.puzzle, puzzle_start(record.puzzle))
            await conn.execute(N(sql.NEW_PUZZLE_RATING), *start)
            row = await conn.fetchrow(N(sql.LOAD_PLAYER) + " FOR UPDATE", guild, record.user_id)
            first = sql.player_of(record.user_id, row)
            row = await conn.fetchrow(N(sql.PUZZLE_RATING) + " FOR UPDATE", record.puzzle.id)
            player, puzzle = settle(record, first, sql.puzzle_rating_of(record.puzzle, row))
            await conn.execute(N(sql.SAVE_PLAYER), *sql.player_args(guild, player))
            await conn.execute(
                N(sql.SAVE_PUZZLE_RATING), *sql.puzzle_rating_args(record.puzzle, puzzle)
            )
            return Settled(first, player, puzzle)

        return await self._transaction(f"finish puzzle attempt {record.id}", finish)

    async def puzzle_player(self, guild_id: int | None, user_id: int) -> PuzzlePlayer:
        """A player's puzzle rating and streak in one server."""

        async def load(conn: Any) -> PuzzlePlayer:
            row = await conn.fetchrow(N(sql.LOAD_PLAYER), guild_key(guild_id), user_id)
            return sql.player_of(user_id, row)

        return await self._transaction(f"load the puzzles of player {user_id}", load)

    async def puzzles_tried(self, guild_id: int | None, user_id: int) -> set[str]:
        """The ids of every puzzle this player has started here."""

        async def load(conn: Any) -> set[str]:
            rows = await conn.fetch(N(sql.TRIED), guild_key(guild_id), user_id)
            return {row[0] for row in rows}

        return await self._transaction(f"load the puzzles of player {user_id}", load)

    async def puzzle_ratings(self) -> dict[str, float]:
        """The rating of every puzzle tried at least once, by puzzle id."""

        async def load(conn: Any) -> dict[str, float]:
            return {row[0]: float(row[1]) for row in await conn.fetch(sql.PUZZLE_RATINGS)}

        return await self._transaction("load the puzzle ratings", load)

    async def puzzle_leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[PuzzleRow]:
        """Players with at least one finished attempt here, best puzzle rating first."""

        async def load(conn: Any) -> list[PuzzleRow]:
            rows = await conn.fetch(N(sql.LEADERBOARD), guild_key(guild_id), max(0, limit))
            return sql.leaderboard_of(rows)

        return await self._transaction("load the puzzle leaderboard", load)
