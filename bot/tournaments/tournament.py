"""A tournament as the bot keeps it (pure values): what it is and where, its entrants, and its
pairings with the bot's game and thread of each; the games and byes the pairing and standings are
computed from are ``record``'s.

A tournament is ``open`` (taking entrants, waiting for its start), then ``running``, then
``finished`` (or ``cancelled`` from either). Its ``round`` is the last Swiss round paired, or in an
arena the order of the last game paired (each arena game is its own "round", numbered in the order
the games were paired). An entrant is ``in``, has ``left`` (a Swiss player who left after the
start: never paired again) or is ``paused`` (an arena player who may come back).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.tournaments.record import Game


class Format(StrEnum):
    """How a tournament pairs its players."""

    SWISS = "swiss"
    ARENA = "arena"


class Stage(StrEnum):
    """Where a tournament is in its life."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


LIVE = (Stage.OPEN, Stage.RUNNING)
# A Swiss created without a number of rounds is stored with this many (more than any asked):
# its number is set at the start from the field (``swiss_rounds``).
AUTO_ROUNDS = 1000


class Presence(StrEnum):
    """Whether an entrant is paired."""

    IN = "in"
    LEFT = "left"
    PAUSED = "paused"


class Join(StrEnum):
    """What asking to join gave."""

    JOINED = "joined"
    ALREADY = "already"  # in it already (or left it after the start)
    FULL = "full"
    CLOSED = "closed"  # finished, cancelled, or a Swiss already running
    MISSING = "missing"  # no such tournament


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament: its server, channel and messages, its format and game, the time a move
    may take, its schedule (``starts_at`` None: started by hand), and its state. ``rounds`` is a
    Swiss's number of rounds, ``minutes`` an arena's length; ``ends_at`` is set when an arena
    starts. ``capacity`` None: no limit. ``id`` 0: not stored yet (the store gives it)."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    format: Format
    kind: str = "classic"
    size: int = 3
    k: int = 3
    move_seconds: int = 60
    starts_at: datetime | None = None
    rounds: int | None = None
    minutes: int | None = None
    capacity: int | None = None
    locale: str = "en-US"
    stage: Stage = Stage.OPEN
    round: int = 0
    message_id: int | None = None
    final_message_id: int | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    ends_at: datetime | None = None

    def __post_init__(self) -> None:
        if (self.format is Format.SWISS) != (self.rounds is not None) or (
            self.format is Format.ARENA
        ) != (self.minutes is not None):
            raise ValueError("a Swiss has rounds and no minutes, an arena minutes and no rounds")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament: the order they joined in (1 first), their rating when they
    joined (the seeding: the higher first, then the earlier), and whether they are paired."""

    user_id: int
    seq: int
    rating: float | None = None
    presence: Presence = Presence.IN
    joined_at: datetime | None = None


def seeded(entrants: list[Entrant]) -> list[Entrant]:
    """The entrants strongest seed first: rating (none last), then the order they joined."""
    return sorted(entrants, key=lambda e: (e.rating is None, -(e.rating or 0.0), e.seq))


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game of a tournament where it lives: its round (an arena's order), its board in the
    round (1 first; always 1 in an arena), the players, the bot's game (``games``' id) and its
    thread once made, and ❌'s score once it is over (``record.Game``'s result)."""

    tournament_id: int
    round: int
    board: int
    x: int
    o: int
    result: float | None = None
    game_id: int | None = None
    thread_id: int | None = None

    @property
    def game(self) -> Game:
        """The game as pairing and standings take it."""
        return Game(self.round, self.x, self.o, self.result)


def join_outcome(tournament: Tournament | None, count: int, presence: Presence | None) -> Join:
    """Whether a player may join (``count``: entrants so far; ``presence``: theirs, if in)."""
    if tournament is None:
        return Join.MISSING
    if presence is not None:
        return Join.ALREADY
    if tournament.stage is not Stage.OPEN and not (
        tournament.stage is Stage.RUNNING and tournament.format is Format.ARENA
    ):
        return Join.CLOSED
    if tournament.capacity is not None and count >= tournament.capacity:
        return Join.FULL
    return Join.JOINED


class RoundError(ValueError):
    """Pairings that would seat a player twice in a round, pair one still playing, or give one
    a second bye; nothing of them is stored."""


def check_round(
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    *,
    playing: Iterable[int] = (),
    had_bye: Iterable[int] = (),
) -> None:
    """Refuse (RoundError) a round that seats a player twice, pairs one of ``playing`` (still in
    a game of the tournament), or gives a bye to one of ``had_bye``."""
    seats = [player for pair in pairs for player in pair] + ([] if bye is None else [bye])
    if len(seats) != len(set(seats)):
        raise RoundError(f"a player is seated twice in {pairs} (bye {bye})")
    busy = set(seats) & set(playing)
    if busy:
        raise RoundError(f"players {sorted(busy)} are still playing")
    if bye is not None and bye in set(had_bye):
        raise RoundError(f"player {bye} has had a bye")


def swiss_rounds(asked: int, players: int) -> int:
    """The rounds a Swiss of ``players`` plays: as asked (``AUTO_ROUNDS``: the rounds a knockout
    of the field would take, plus one), always fewer than the players (so each bye goes to a
    different player) and at least one."""
    auto = math.ceil(math.log2(max(players, 2))) + 1
    return max(1, min(auto if asked == AUTO_ROUNDS else asked, players - 1))
