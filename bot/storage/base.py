"""The storage interface the bot talks to, and the one error every backend raises."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Collection
from datetime import datetime
from typing import Protocol, TypeVar

from bot.games.puzzles import AttemptRecord, PuzzlePlayer, PuzzleRow, Settled
from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.games.tournaments.record import Bye, Game
from bot.games.tournaments.tournament import Entrant, Join, Pairing, Stage, Tournament
from bot.storage.history_sql import RatingHistory
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

    # -- tournaments (``bot.games.tournaments``) ---------------------------------------------

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament; it as stored, with its id (``tournament.id`` is ignored)."""

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        """The stored tournament, or None."""

    async def tournaments_running(
        self, guild_ids: Collection[int] | None = None
    ) -> list[Tournament]:
        """Every tournament open or running in these servers (None: every server), by id."""

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[Tournament]:
        """The finished tournaments of a server that a player entered, by id."""

    async def start_tournament(
        self, tournament_id: int, *, at: datetime, ends_at: datetime | None = None,
        rounds: int | None = None,
    ) -> bool:  # fmt: skip
        """Open to running, started `at` (an arena ending `ends_at`, a Swiss playing `rounds`
        rounds if given: its number fixed from the field at the start); False if it was not open."""

    async def finish_tournament(self, tournament_id: int, stage: Stage = Stage.FINISHED) -> bool:
        """Open or running to finished (or cancelled); False if it was over already."""

    async def set_tournament_messages(
        self, tournament_id: int, *, message_id: int | None = None,
        final_message_id: int | None = None,
    ) -> None:  # fmt: skip
        """Keep the announcement's and the final message's ids (None: the stored one stays)."""

    async def join_tournament(
        self, tournament_id: int, user_id: int, *, rating: float | None = None,
        at: datetime | None = None,
    ) -> Join:  # fmt: skip
        """Add a player if ``tournament.join_outcome`` allows it (their rating now seeds them);
        what asking gave. Two asking at once for the last place: one joins."""

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Before the start the player's entry goes; once running they are left, never paired
        again. False if nothing changed."""

    async def pause_entrant(self, tournament_id: int, user_id: int, paused: bool) -> bool:
        """Pause an entrant (an arena's) or bring them back; False if nothing changed."""

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The entrants in the order they joined (``tournament.seeded`` puts them in seed order)."""

    async def start_round(
        self, tournament_id: int, round: int, pairs: tuple[tuple[int, int], ...],
        bye: int | None = None,
    ) -> bool:  # fmt: skip
        """Store a Swiss round (pairs ❌ first, in board order; the bye) and move the
        tournament's round on, in one transaction: all of it or nothing. False, writing nothing,
        unless it is a running Swiss whose last round is ``round - 1`` (a round is stored once).
        A player seated twice or still playing, or a second bye: ``tournament.RoundError`` (a
        ValueError), nothing written."""

    async def pair_arena(
        self, tournament_id: int, pairs: tuple[tuple[int, int], ...]
    ) -> list[Pairing]:
        """Store an arena's new games, numbered after its last, in one transaction; [] unless
        it is a running arena. A player still playing there: RoundError, nothing written."""

    async def attach_game(
        self, pairing: Pairing, *, game_id: int | None = None, thread_id: int | None = None
    ) -> Pairing | None:
        """Give a pairing its bot game (``games``' id) and thread, each once: a second keeps the
        first. The pairing as stored after it (None: no such pairing)."""

    async def record_result(self, pairing: Pairing, result: float) -> bool:
        """Record a game's result (❌'s score), freeing both players: True once, False after."""

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """Every game of the tournament with its ids, by round and board."""

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        """The tournament game that bot game `game_id` is, or None."""

    async def games_of(self, tournament_id: int) -> list[Game]:
        """The tournament's games as pairing and standings take them, by round and board."""

    async def byes_of(self, tournament_id: int) -> list[Bye]:
        """The tournament's byes, by round."""

    # -- history (``history_sql``) ------------------------------------------------------------

    async def player_games(
        self, guild_id: int | None, user_id: int, *, with_id: int | None = None,
        kind: str | None = None, limit: int = 10, offset: int = 0,
    ) -> list[GameRecord]:  # fmt: skip
        """A player's played games (a result counted: won, drawn, resigned, timed out) in a
        server (None: direct messages), newest first, `offset` of them skipped; with `with_id`
        only those against that player, with `kind` only that kind's."""

    async def rating_history(self, guild_id: int | None, user_id: int) -> RatingHistory:
        """A player's Elo after each rated game in a server, by kind, oldest first."""
