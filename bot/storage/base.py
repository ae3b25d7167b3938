"""The storage interface the bot talks to, and the one error every backend raises."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Protocol, TypeVar

from bot.games.puzzles import AttemptRecord, PuzzlePlayer, PuzzleRow, Settled
from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from engine.puzzles import Puzzle

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds a command gives the store's part of its answer, so that the one response Discord waits
# 3 s for comes in time.
READ_BUDGET = 2.0


class StorageError(Exception):
    """Storage failed; the message is one line saying what and where, the cause is chained."""


async def in_time(work: Awaitable[T]) -> T:
    """The store's part of a command's answer, within `READ_BUDGET` so that the interaction's
    one response comes in time; past it a StorageError (said here in one line: the store's call
    was cancelled, so the store says nothing)."""
    try:
        return await asyncio.wait_for(work, READ_BUDGET)
    except TimeoutError:
        log.warning("the store took over %g s for a command's answer", READ_BUDGET)
        raise StorageError(f"the store took over {READ_BUDGET:g} s") from None


class Outage:
    """Whether the database answers, told in two log lines: one when it stops answering, one
    when it answers again. The calls that fail meanwhile log nothing more than debug lines (each
    caller says what it could not do), so an outage of an hour is two lines, not thousands.

    A store calls `failed` with each StorageError of a call that reached for the database, and
    `answered` after a call that succeeded while `since` is set (only then: a plain attribute
    check on every call, no call at all while the database answers).
    """

    def __init__(self) -> None:
        self.since: float | None = None  # monotonic time of the first failure, while down
        self.failures = 0

    def failed(self, error: StorageError) -> None:
        """A call failed: the first one of an outage is said, the others counted."""
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            log.error("the database stopped answering: %s", error)

    def answered(self) -> None:
        """A call succeeded: the end of an outage is said once."""
        if self.since is None:
            return
        log.info(
            "the database answers again after %.1f s (%d calls failed meanwhile)",
            time.monotonic() - self.since,
            self.failures,
        )
        self.since, self.failures = None, 0


class Store(Protocol):
    """What the bot needs from storage. Every method runs its I/O off the event loop.

    Failures raise ``StorageError`` (a clear message, the cause chained); no method ever leaves a
    game half written.
    """

    async def open(self) -> None:
        """Create or migrate the database; called once from ``setup_hook``."""

    async def close(self) -> None:
        """Flush and close; called from the bot's ``close``."""

    async def next_game_id(self) -> int:
        """A fresh game id, never used before in this database."""

    async def save_game(self, game: GameRecord) -> None:
        """Insert or update the game (committed before this returns).

        When the game is finished for the first time, its result is counted in the stats and
        ratings in the same transaction; saving a finished game again counts nothing more.
        """

    async def load_game(self, game_id: int) -> GameRecord | None:
        """The stored game, or None."""

    async def live_games(self) -> list[GameRecord]:
        """Every game that is a pending challenge or still being played."""

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "classic"
    ) -> PlayerStats:
        """A player's record in a server, in games of one kind (``bot.games.kinds``; zeros for
        someone who never played)."""

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 10, kind: str = "classic"
    ) -> list[LeaderboardRow]:
        """The best-rated players of a server in games of one kind, against people."""

    async def server_settings(self) -> dict[int, ServerSettings]:
        """Every server's own settings, by server id (servers that set nothing are left out)."""

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        """Store a server's settings in place of its old ones (committed before this returns)."""

    # -- puzzles (``bot.games.puzzles``) -----------------------------------------------------

    async def add_server_puzzle(self, guild_id: int, puzzle: Puzzle, game_id: int) -> None:
        """Keep a puzzle made from a game of that server (a second one with the same puzzle id
        for the same server is ignored)."""

    async def server_puzzles(self, guild_id: int) -> list[Puzzle]:
        """That server's puzzles, oldest first."""

    async def claim_daily_post(self, guild_id: int, day: int) -> bool:
        """True exactly once per (server, day) across every process and shard (``day``: the
        UTC date's ``toordinal()``)."""

    async def start_attempt(self, record: AttemptRecord) -> AttemptRecord | None:
        """Store a new attempt (its id is given here, ``record.id`` is ignored); None if it is a
        daily puzzle the player already has an attempt at."""

    async def load_attempt(self, attempt_id: int) -> AttemptRecord | None:
        """The stored attempt, or None."""

    async def daily_attempt(
        self, guild_id: int | None, user_id: int, day: int
    ) -> AttemptRecord | None:
        """A player's attempt at the daily puzzle of a day in a server, if any."""

    async def save_attempt(self, record: AttemptRecord, before: AttemptRecord) -> bool:
        """Write a move or hint of an attempt still being played over the stored `before`;
        False, writing nothing, if the stored attempt is no longer `before`."""

    async def finish_attempt(self, record: AttemptRecord, before: AttemptRecord) -> Settled | None:
        """Write an attempt's end and, in the same transaction, the player's and the puzzle's
        new ratings and the daily streak; the player before and after it and the puzzle's new
        rating, or None (nothing counted) if the stored attempt is no longer `before`."""

    async def puzzle_player(self, guild_id: int | None, user_id: int) -> PuzzlePlayer:
        """A player's puzzle rating and daily streak in a server."""

    async def puzzles_tried(self, guild_id: int | None, user_id: int) -> set[str]:
        """The ids of the puzzles a player has started in a server."""

    async def puzzle_ratings(self) -> dict[str, float]:
        """The rating of every puzzle tried at least once, by puzzle id."""

    async def puzzle_leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[PuzzleRow]:
        """The best puzzle ratings of a server's players (at least one finished attempt)."""
