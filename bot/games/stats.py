"""Stats values: a player's record and rating, and a leaderboard's rows, as the store reads them."""

from __future__ import annotations

from dataclasses import dataclass, field


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
