"""Puzzles in the store: their calls, written once for both databases against
``bot.storage.base.Tx`` (the statements and rows: ``sql``; the schema step: ``sql.STEP``).

Each call only reads rows, settles (``model.settle``), and writes rows back, in one
transaction. An attempt's start, moves and end are written with the saves of the games around
them (SQLite's group commit). Finishing an attempt locks the player's and the puzzle's rows
before reading them (PostgreSQL's ``FOR UPDATE``, on rows made first if new), so two attempts of
one player finishing at once (two shards) both count.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.puzzles.model import (
    PLAYING,
    AttemptRecord,
    PuzzlePlayer,
    PuzzleRow,
    Settled,
    puzzle_start,
    settle,
)
from bot.puzzles.sql import (
    ADD_SERVER_PUZZLE,
    CLAIM_DAILY_POST,
    DAILY_ATTEMPT,
    LEADERBOARD,
    LOAD_ATTEMPT,
    LOAD_PLAYER,
    LOCK_PLAYER,
    LOCK_PUZZLE_RATING,
    NEW_PLAYER,
    NEW_PUZZLE_RATING,
    PUZZLE_RATINGS,
    SAVE_ATTEMPT,
    SAVE_PLAYER,
    SAVE_PUZZLE_RATING,
    SERVER_PUZZLES,
    START,
    TRIED,
    attempt_of,
    leaderboard_of,
    player_args,
    player_of,
    puzzle_rating_args,
    puzzle_rating_of,
    save_args,
    start_args,
)
from bot.storage.base import Database, Tx
from bot.storage.schema import guild_key
from engine.puzzles import Puzzle


class PuzzleStore:
    """Puzzle attempts, ratings, streaks, server puzzles and daily posts, on the database it is
    given."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add_server_puzzle(self, guild_id: int, puzzle: Puzzle, game_id: int) -> None:
        """Keep a puzzle made from a game of that server (a second one with the same puzzle id
        for the same server is ignored)."""

        async def add(tx: Tx) -> None:
            await tx.changed(ADD_SERVER_PUZZLE, guild_id, puzzle.id, puzzle.to_line(), game_id)

        what = f"keep puzzle {puzzle.id} of server {guild_id}"
        await self.db.write("add_server_puzzle", what, add, single=True)

    async def server_puzzles(self, guild_id: int) -> list[Puzzle]:
        """That server's puzzles, oldest first."""

        async def load(tx: Tx) -> list[Puzzle]:
            return [Puzzle.from_line(row[0]) for row in await tx.rows(SERVER_PUZZLES, guild_id)]

        return await self.db.read("server_puzzles", f"load the puzzles of server {guild_id}", load)

    async def claim_daily_post(self, guild_id: int, day: int) -> bool:
        """True exactly once per (server, day) across every process and shard (``day``: the
        UTC date's ``toordinal()``)."""

        async def claim(tx: Tx) -> bool:
            return await tx.changed(CLAIM_DAILY_POST, guild_id, day) == 1

        what = f"claim the daily post of server {guild_id}"
        return await self.db.write("claim_daily_post", what, claim, single=True)

    async def start_attempt(self, record: AttemptRecord) -> AttemptRecord | None:
        """Store a new attempt (its id is given here, ``record.id`` is ignored); None if it is a
        daily puzzle the player already has an attempt at."""
        created = record.created_at or datetime.now(UTC)

        async def start(tx: Tx) -> AttemptRecord | None:
            stored = tx.time(created)
            new_id = await tx.value(START, *start_args(record, guild_key(record.guild_id), stored))
            if new_id is None:
                return None
            # As stored (the row holds nothing the record does not): no need to read it back.
            return replace(
                record,
                id=int(new_id),
                moves=(),
                hints=0,
                state=PLAYING,
                refutation=None,
                created_at=tx.when(stored),
            )

        what = f"start an attempt of player {record.user_id}"
        return await self.db.write("start_attempt", what, start, together=True)

    async def load_attempt(self, attempt_id: int) -> AttemptRecord | None:
        """The stored attempt, or None."""

        async def load(tx: Tx) -> AttemptRecord | None:
            row = await tx.row(LOAD_ATTEMPT, attempt_id)
            return None if row is None else attempt_of(row, tx.when)

        return await self.db.read("load_attempt", f"load puzzle attempt {attempt_id}", load)

    async def daily_attempt(
        self, guild_id: int | None, user_id: int, day: int
    ) -> AttemptRecord | None:
        """A player's attempt at the daily puzzle of a day in a server, if any."""

        async def load(tx: Tx) -> AttemptRecord | None:
            row = await tx.row(DAILY_ATTEMPT, guild_key(guild_id), user_id, day)
            return None if row is None else attempt_of(row, tx.when)

        return await self.db.read("daily_attempt", f"load the daily attempt of {user_id}", load)

    async def save_attempt(self, record: AttemptRecord, before: AttemptRecord) -> bool:
        """Write a move or hint of an attempt still being played over the stored `before`;
        False, writing nothing, if the stored attempt is no longer `before`."""
        args = save_args(record, before)

        async def save(tx: Tx) -> bool:
            return await tx.changed(SAVE_ATTEMPT, *args) == 1

        what = f"save puzzle attempt {record.id}"
        return await self.db.write("save_attempt", what, save, together=True, single=True)

    async def finish_attempt(self, record: AttemptRecord, before: AttemptRecord) -> Settled | None:
        """Write an attempt's end and, in the same transaction, the player's and the puzzle's
        new ratings and the daily streak; the player before and after it and the puzzle's new
        rating, or None (nothing counted) if the stored attempt is no longer `before`."""
        guild = guild_key(record.guild_id)

        async def finish(tx: Tx) -> Settled | None:
            if await tx.changed(SAVE_ATTEMPT, *save_args(record, before)) != 1:
                return None
            if not tx.sqlite:  # rows must exist to be locked: a new player's or puzzle's first
                await tx.changed(NEW_PLAYER, *player_args(guild, PuzzlePlayer(record.user_id)))
                start = puzzle_rating_args(record.puzzle, puzzle_start(record.puzzle))
                await tx.changed(NEW_PUZZLE_RATING, *start)
            first = player_of(record.user_id, await tx.row(LOCK_PLAYER, guild, record.user_id))
            row = await tx.row(LOCK_PUZZLE_RATING, record.puzzle.id)
            player, puzzle = settle(record, first, puzzle_rating_of(record.puzzle, row))
            await tx.changed(SAVE_PLAYER, *player_args(guild, player))
            await tx.changed(SAVE_PUZZLE_RATING, *puzzle_rating_args(record.puzzle, puzzle))
            return Settled(first, player, puzzle)

        what = f"finish puzzle attempt {record.id}"
        return await self.db.write("finish_attempt", what, finish, together=True)

    async def puzzle_player(self, guild_id: int | None, user_id: int) -> PuzzlePlayer:
        """A player's puzzle rating and daily streak in a server."""

        async def load(tx: Tx) -> PuzzlePlayer:
            return player_of(user_id, await tx.row(LOAD_PLAYER, guild_key(guild_id), user_id))

        return await self.db.read("puzzle_player", f"load the puzzles of player {user_id}", load)

    async def puzzles_tried(self, guild_id: int | None, user_id: int) -> set[str]:
        """The ids of the puzzles a player has started in a server."""

        async def load(tx: Tx) -> set[str]:
            return {row[0] for row in await tx.rows(TRIED, guild_key(guild_id), user_id)}

        return await self.db.read("puzzles_tried", f"load the puzzles of player {user_id}", load)

    async def puzzle_ratings(self) -> dict[str, float]:
        """The rating of every puzzle tried at least once, by puzzle id."""

        async def load(tx: Tx) -> dict[str, float]:
            return {row[0]: float(row[1]) for row in await tx.rows(PUZZLE_RATINGS)}

        return await self.db.read("puzzle_ratings", "load the puzzle ratings", load)

    async def puzzle_leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[PuzzleRow]:
        """The best puzzle ratings of a server's players (at least one finished attempt)."""

        async def load(tx: Tx) -> list[PuzzleRow]:
            return leaderboard_of(await tx.rows(LEADERBOARD, guild_key(guild_id), max(0, limit)))

        return await self.db.read("puzzle_leaderboard", "load the puzzle leaderboard", load)
