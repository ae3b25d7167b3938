"""Lines a feature adds to a player's /tictactoe-stats, registered in the feature's setup, so
that neither the core nor the history feature knows the others.

A line is asked for with the place's server (None: direct messages), the player's id and the
reader's catalog, and is None when there is nothing to say. ``record`` lines follow the record
and are read with it (a store that fails answers the command with an apology); ``extra`` lines
follow the rating chart, within the time left (left out when the store fails).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from gettext import NullTranslations

StatLine = Callable[[int | None, int, NullTranslations], Awaitable[str | None]]


@dataclass
class StatLines:
    """The lines registered so far, in the order they are shown."""

    record: list[StatLine] = field(default_factory=list)
    extra: list[StatLine] = field(default_factory=list)
