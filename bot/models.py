"""Stored game records and the storage interface the bot talks to (no Discord, no I/O here)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol


class Status(StrEnum):
    """Where a game is in its life."""

    CHALLENGE = "challenge"  # waiting for the opponent to accept or decline
    ACTIVE = "active"  # moves are being played
    FINISHED = "finished"  # over, for whatever reason (see Ending)


class Ending(StrEnum):
    """How a finished game ended."""

    WIN = "win"  # k in a row
    DRAW = "draw"  # board full, no line
    RESIGN = "resign"  # a player resigned; the other wins
    TIMEOUT = "timeout"  # the player to move let the clock run out; the other wins
    DECLINED = "declined"  # the challenge was declined (no game, counts for nobody)
    WITHDRAWN = "withdrawn"  # the challenger took the challenge back (no game, counts for nobody)
    EXPIRED = "expired"  # the challenge was never answered (no game, counts for nobody)
    ABANDONED = "abandoned"  # the board message vanished; no result counts


@dataclass(slots=True)
class GameRecord:
    """Everything needed to show and continue one game, as stored.

    ``x_id`` and ``o_id`` are Discord user ids; when a side is played by the bot, ``ai_side``
    names it ("X" or "O") and that side's id is the bot's own user id. ``moves`` are the cells
    played so far, in order, X first: the board is derived from them, never stored apart.
    ``deadline`` is an aware UTC time: for a challenge, when it expires; for an active game, when
    the player to move forfeits.
    """

    id: int
    guild_id: int | None
    channel_id: int
    x_id: int
    o_id: int
    challenger_id: int
    size: int = 3
    k: int = 3
    ai_side: str | None = None
    ai_level: str | None = None
    moves: list[int] = field(default_factory=list)
    status: Status = Status.ACTIVE
    ending: Ending | None = None
    winner: str | None = None  # "X", "O", or None (draw, or no result)
    message_id: int | None = None
    deadline: datetime | None = None
    created_at: datetime | None = None

    @property
    def vs_bot(self) -> bool:
        """True when one side is played by the engine."""
        return self.ai_side is not None

    def copy(self) -> GameRecord:
        """An independent copy (the move list is not shared)."""
        return dataclasses.replace(self, moves=list(self.moves))


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, draws and losses of one player against one kind of opponent."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted in this record."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's record in one server (``guild_id`` None: direct messages)."""

    user_id: int
    vs_people: Record
    vs_bot: dict[str, Record]  # level -> record
    rating: float
    rated_games: int


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a server's leaderboard: ranked by games against people, with the player's
    record against the bot (every level together) kept apart."""

    rank: int
    user_id: int
    rating: float
    record: Record
    vs_bot: Record = field(default_factory=Record)


class Store(Protocol):
    """What the bot needs from storage. Every method runs its I/O off the event loop.

    Failures raise ``bot.store.StorageError`` (a clear message, the cause chained); no method
    ever leaves a game half written.
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

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        """A player's record in a server (zeros for someone who never played)."""

    async def leaderboard(self, guild_id: int | None, *, limit: int = 10) -> list[LeaderboardRow]:
        """The best-rated players of a server, against people."""
