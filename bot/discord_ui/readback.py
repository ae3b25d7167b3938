"""Reading a board message back: its buttons, and whether it shows a stored game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

from bot.discord_ui import board
from bot.games.record import GameRecord


def shows(message: discord.Message | None, game: GameRecord | None) -> bool:
    """Whether a board message shows the game as stored: as many marks, the same controls.

    True when there is nothing to compare (a click always carries its message).
    """
    if message is None or game is None:
        return True
    marked, controls = 0, set()
    for button in buttons_in(message.components):
        what = (button.custom_id or "").rpartition(":")[2]
        if what.isdigit():
            marked += button.emoji is not None
        else:
            controls.add(what)
    return marked == len(game.moves) and controls == set(board.controls(game))


def buttons_in(components: Any) -> Iterator[discord.Button]:
    """Every button of a message, however deep in rows, containers and sections."""
    for component in components or ():
        if isinstance(component, discord.Button):
            yield component
        yield from buttons_in(getattr(component, "children", None))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from buttons_in([accessory])
