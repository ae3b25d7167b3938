"""The levels of play and how often each errs: the facts engine.play plays by and engine.small
weighs the 3x3 traps against (one home for both, so neither imports the other)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Level = Literal["easy", "medium", "hard", "unbeatable"]

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "unbeatable")

# (chance of a random move, chance of blocking a win in one) per level.
MISTAKES = {
    "easy": (0.7, 0.5),
    "medium": (0.4, 1.0),
    "hard": (0.25, 1.0),
    "unbeatable": (0.0, 1.0),
}
