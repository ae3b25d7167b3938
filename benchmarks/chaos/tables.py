"""The soak's tables and their history: what each table plays (`Kind`, dealt in turn from
`KINDS`), the channel and players of a table (`Table`), each thing a player did and how it was
answered (`Action`), and the marks a board message shows (`marks_of`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devkit.localdiscord import Channel, User
from devkit.measure.boards import CELL, walk_components

MARKS = {"❌": "X", "⭕": "O"}


@dataclass(frozen=True)
class Kind:
    """What a table plays."""

    size: int
    k: int
    level: str | None = None  # None: between two friends
    bot_first: bool = False


# The tables' kinds, dealt in turn: every level, 3x3 to 5x5, friends and the bot.
KINDS = (
    Kind(3, 3, "easy"),
    Kind(3, 3),
    Kind(3, 3, "unbeatable", bot_first=True),
    Kind(4, 4),
    Kind(4, 3, "hard"),
    Kind(3, 3, "medium"),
    Kind(5, 4),
    Kind(5, 4, "easy", bot_first=True),
    Kind(3, 3, "hard"),
    Kind(5, 3, "unbeatable"),
    Kind(4, 4, "medium"),
    Kind(3, 3, "unbeatable"),
)


@dataclass
class Action:
    """One thing a player did and how it was answered."""

    table: int
    kind: str  # slash, accept, cell, react, probe
    sent: float  # perf_counter when emitted
    wall: float  # time.time() when emitted (the bot's log is stamped with it)
    game_id: int | None = None
    cell: int | None = None
    mark: str | None = None
    iid: int | None = None
    outcome: str = "pending"  # played, refused, unanswered, stale (answered, move not shown)
    answered: float | None = None  # perf_counter of the first response (or the board's change)
    ack: float | None = None  # seconds from emission to the first response

    @property
    def played(self) -> bool:
        return self.outcome == "played"


@dataclass
class Table:
    """One channel, its players and the games it has seen."""

    index: int
    kind: Kind
    channel: Channel
    human: User
    friend: User | None
    shard: int
    reactions: bool  # the server takes reactions as well as buttons
    patient: bool = False  # after a failed click, wait for the board rather than click again
    message_id: int | None = None
    boards: dict[int, int] = field(default_factory=dict)  # game id -> its board message
    blocked: int = 0  # /tictactoe refused in a row (a game the players cannot see)

    def mark_of(self, user: User) -> str:
        if self.kind.level is None:
            return "X" if user is self.human else "O"
        return "O" if self.kind.bot_first else "X"


def marks_of(components: Any) -> dict[int, str]:
    """The mark on each marked cell of a board message (cell -> "X" or "O")."""
    found = {}
    for component in walk_components(components):
        match = CELL.match(component.get("custom_id") or "")
        emoji = (component.get("emoji") or {}).get("name")
        if match and emoji in MARKS:
            found[int(match[2])] = MARKS[emoji]
    return found
