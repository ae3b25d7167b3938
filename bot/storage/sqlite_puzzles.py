"""The SQLite store's puzzle methods (a base class of ``SQLiteStore``), run on its own thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from bot.games.puzzles import PLAYING, AttemptRecord, PuzzlePlayer, PuzzleRow, Settled, settle
from bot.storage import puzzle_sql as sql
from bot.storage.schema import guild_key, iso
from engine.puzzles import Puzzle

T = TypeVar("T")


class SQLitePuzzles:
    """Puzzle attempts, ratings, streaks, server puzzles and daily posts on the SQLite file."""

    if TYPE_CHECKING:

        async def _run(self, fn: Callable[..., T], *args: Any) -> T: ...
        def _read(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...
        def _write(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...
        async def _together(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...

    async def add_server_puzzle(self, guild_id: int, puzzle: Puzzle, game_id: int) -> None:
        """Keep a puzzle made from a game of this server (the same puzzle twice: once)."""
        args = (guild_id, puzzle.id, puzzle.to_line(), game_id)
        what = f"keep puzzle {puzzle.id} of server {guild_id}"
        await self._run(self._write, what, lambda c: c.execute(sql.ADD_SERVER_PUZZLE, args))

    async def server_puzzles(self, guild_id: int) -> list[Puzzle]:
        """The puzzles made from this server's games, oldest first."""

        def load(conn: sqlite3.Connection) -> list[Puzzle]:
            rows = conn.execute(sql.SERVER_PUZZLES, (guild_id,)).fetchall()
            return [Puzzle.from_line(row[0]) for row in rows]

        return await self._run(self._read, f"load the puzzles of server {guild_id}", load)

    async def claim_daily_post(self, guild_id: int, day: int) -> bool:
        """True exactly once per (server, day)."""
        what = f"claim the daily post of server {guild_id}"
        claim = lambda c: c.execute(sql.CLAIM_DAILY_POST, (guild_id, day)).rowcount == 1  # noqa: E731
        return await self._run(self._write, what, claim)

    async def start_attempt(self, record: AttemptRecord) -> AttemptRecord | None:
        """Store a new attempt and give it its id; None if it is a daily puzzle this player
        already has an attempt at (see ``daily_attempt``)."""
        created = record.created_at or datetime.now(UTC)
        args = sql.start_args(record, guild_key(record.guild_id), iso(created))

        def start(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(sql.START, args).fetchone()
            return None if row is None else int(row[0])

        new_id = await self._together(f"start an attempt of player {record.user_id}", start)
        if new_id is None:
            return None
        # As stored (the row holds nothing the record does not): no need to read it back.
        return replace(record, id=new_id, moves=(), hints=0, state=PLAYING, refutation=None,
                       created_at=_when(args[-1]))  # fmt: skip

    async def load_attempt(self, attempt_id: int) -> AttemptRecord | None:
        """The stored attempt, or None."""

        def load(conn: sqlite3.Connection) -> AttemptRecord | None:
            row = conn.execute(sql.LOAD_ATTEMPT, (attempt_id,)).fetchone()
            return None if row is None else sql.attempt_of(row, _when)

        return await self._run(self._read, f"load puzzle attempt {attempt_id}", load)

    async def daily_attempt(
        self, guild_id: int | None, user_id: int, day: int
    ) -> AttemptRecord | None:
        """This player's attempt at the daily puzzle of day `day` here, if any."""

        def load(conn: sqlite3.Connection) -> AttemptRecord | None:
            row = conn.execute(sql.DAILY_ATTEMPT, (guild_key(guild_id), user_id, day)).fetchone()
            return None if row is None else sql.attempt_of(row, _when)

        return await self._run(self._read, f"load the daily attempt of {user_id}", load)

    async def save_attempt(self, record: AttemptRecord, before: AttemptRecord) -> bool:
        """Write a move or a hint of an attempt still being played over the stored `before`;
        False (nothing written) if the stored attempt has moved on. A finished attempt goes
        through ``finish_attempt``."""
        args = sql.save_args(record, before)
        what = f"save puzzle attempt {record.id}"
        return await self._together(what, lambda c: c.execute(sql.SAVE_ATTEMPT, args).rowcount == 1)

    async def finish_attempt(self, record: AttemptRecord, before: AttemptRecord) -> Settled | None:
        """Write the attempt's end, and in the same transaction move the player's and the
        puzzle's ratings and the daily streak; the player after it, or None if the stored
        attempt had moved on (then nothing is counted)."""

        def finish(conn: sqlite3.Connection) -> Settled | None:
            if conn.execute(sql.SAVE_ATTEMPT, sql.save_args(record, before)).rowcount != 1:
                return None
            guild = guild_key(record.guild_id)
            row = conn.execute(sql.LOAD_PLAYER, (guild, record.user_id)).fetchone()
            first = sql.player_of(record.user_id, row)
            row = conn.execute(sql.PUZZLE_RATING, (record.puzzle.id,)).fetchone()
            player, puzzle = settle(record, first, sql.puzzle_rating_of(record.puzzle, row))
            conn.execute(sql.SAVE_PLAYER, sql.player_args(guild, player))
            conn.execute(sql.SAVE_PUZZLE_RATING, sql.puzzle_rating_args(record.puzzle, puzzle))
            return Settled(first, player, puzzle)

        return await self._together(f"finish puzzle attempt {record.id}", finish)

    async def puzzle_player(self, guild_id: int | None, user_id: int) -> PuzzlePlayer:
        """A player's puzzle rating and streak in one server."""

        def load(conn: sqlite3.Connection) -> PuzzlePlayer:
            row = conn.execute(sql.LOAD_PLAYER, (guild_key(guild_id), user_id)).fetchone()
            return sql.player_of(user_id, row)

        return await self._run(self._read, f"load the puzzles of player {user_id}", load)

    async def puzzles_tried(self, guild_id: int | None, user_id: int) -> set[str]:
        """The ids of every puzzle this player has started here."""

        def load(conn: sqlite3.Connection) -> set[str]:
            return {r[0] for r in conn.execute(sql.TRIED, (guild_key(guild_id), user_id))}

        return await self._run(self._read, f"load the puzzles of player {user_id}", load)

    async def puzzle_ratings(self) -> dict[str, float]:
        """The rating of every puzzle tried at least once, by puzzle id."""

        def load(conn: sqlite3.Connection) -> dict[str, float]:
            return {pid: float(r) for pid, r in conn.execute(sql.PUZZLE_RATINGS)}

        return await self._run(self._read, "load the puzzle ratings", load)

    async def puzzle_leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[PuzzleRow]:
        """Players with at least one finished attempt here, best puzzle rating first."""

        def load(conn: sqlite3.Connection) -> list[PuzzleRow]:
            rows = conn.execute(sql.LEADERBOARD, (guild_key(guild_id), max(0, limit))).fetchall()
            return sql.leaderboard_of(rows)

        return await self._run(self._read, "load the puzzle leaderboard", load)


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)
