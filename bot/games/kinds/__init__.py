"""The kinds of game the bot plays, each in one home (``base.Kind`` says what a kind is):
classic tic-tac-toe on boards from 3x3 to 5x5, and ultimate tic-tac-toe, nine boards in one.

The cogs, the board, the store and the playground ask a game's kind (``of``) instead of testing
for one; a new kind implements ``Kind`` in a module of its own and is added to ``KINDS``.
"""

from __future__ import annotations

from bot.games.kinds.base import Kind, Position, Sketch
from bot.games.kinds.classic import CLASSIC
from bot.games.kinds.ultimate import ULTIMATE
from bot.games.record import GameRecord

KINDS: dict[str, Kind] = {kind.name: kind for kind in (CLASSIC, ULTIMATE)}


def of(game: GameRecord) -> Kind:
    """The kind of a game."""
    return KINDS[game.kind]


__all__ = ["CLASSIC", "KINDS", "ULTIMATE", "Kind", "Position", "Sketch", "of"]
