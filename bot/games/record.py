"""A game as stored: a frozen value that says everything needed to show and continue it."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from bot.games.look import DEFAULT as DEFAULT_LOOK
from bot.games.look import Look

if TYPE_CHECKING:
    from engine import Level, Side


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


# Endings after which a game was played: they count in the stats, and can be replayed and reviewed.
PLAYED = frozenset({Ending.WIN, Ending.DRAW, Ending.RESIGN, Ending.TIMEOUT})


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to show and continue one game, as stored.

    ``x_id`` and ``o_id`` are Discord user ids; when a side is played by the bot, ``ai_side``
    names it and that side's id is the bot's own user id. ``moves`` are the cells played so far,
    in order, X first: the board is derived from them, never stored apart. ``deadline`` is an
    aware UTC time: for a challenge, when it expires; for an active game, when the player to move
    forfeits. ``locale`` is the language of the board everyone sees (the server's choice, else
    its Community language, else its starter's). Changes make new records
    (``bot.games.rules``); a record is never changed in place.
    """

    id: int
    guild_id: int | None
    channel_id: int
    x_id: int
    o_id: int
    challenger_id: int
    size: int = 3
    k: int = 3
    ai_side: Side | None = None
    ai_level: Level | None = None
    moves: tuple[int, ...] = ()
    status: Status = Status.ACTIVE
    ending: Ending | None = None
    winner: Side | None = None  # None: a draw, or no result
    message_id: int | None = None
    deadline: datetime | None = None
    created_at: datetime | None = None
    locale: str = "en-US"  # the Discord locale the shared board is written in
    # The bot cannot use the channel where the game lives (an app installed to a person's
    # account, in a DM, a group DM or a server without the bot): the board is shown only
    # through interactions (``bot.discord_ui.access.reaches_channel``).
    interactions_only: bool = False
    # The marks and the input the board started with (the server's setting then).
    look: Look = DEFAULT_LOOK
    # The kind of game (``bot.games.kinds``): "classic", or "ultimate" (nine boards in one,
    # stored as size 9, k 3).
    kind: str = "classic"
    # Seconds a move may take in this game, its own (a tournament's); None: the server's turn
    # timeout, else the bot's.
    move_seconds: int | None = None

    @property
    def vs_bot(self) -> bool:
        """True when one side is played by the engine."""
        return self.ai_side is not None

    @property
    def cross_score(self) -> float:
        """❌'s score in this game once finished (1 a win, 0 a loss; nobody won, or the board
        was lost: ½), as a tournament counts it."""
        return {"X": 1.0, "O": 0.0}.get(self.winner or "", 0.5)

    def changed(self, **changes: Any) -> GameRecord:
        """This game with `changes` (fields by name): ``dataclasses.replace``, for the changes
        of every click (a move, its deadline, an end), at a third of its cost: the fields are
        read at once, and the record built from them by position."""
        values = list(_ALL_FIELDS(self))
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return GameRecord(*values)


_FIELD_NAMES = tuple(field.name for field in fields(GameRecord))
_FIELD_INDEX = {name: n for n, name in enumerate(_FIELD_NAMES)}
_ALL_FIELDS = attrgetter(*_FIELD_NAMES)
