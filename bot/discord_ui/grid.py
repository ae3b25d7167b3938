"""What a board message shows, read back from its buttons: how many marks its cells show,
and every button however deep in the layout. (The grid and the buttons themselves are drawn by
the game's kind: ``bot.games.kinds``.)"""

from __future__ import annotations

from typing import Any

import discord

from bot.games.look import Look


def marks_on(message: discord.Message | None, look: Look) -> int | None:
    """How many cells of a board message show a mark: what the clicker saw, whatever marks the
    board uses (None when there is no message to read, or it has no cell buttons)."""
    if message is None:
        return None
    cells = [b for b in buttons_in(message.components) if _cell_id(b.custom_id or "")]
    if not cells:
        return None
    # An empty cell shows the empty mark (a board drawn before it did shows no emoji there).
    return sum(b.emoji is not None and str(b.emoji) != look.empty for b in cells)


def _cell_id(custom_id: str) -> bool:
    """Whether a button's id is a cell's (``ttt:<game>:<cell>``, maybe ``@<ply>``): not a
    control whose id ends in digits (Resign's confirmation carries its time)."""
    return custom_id.rpartition(":")[2].partition("@")[0].isdigit()


def ply_on(message: discord.Message | None) -> int | None:
    """The ply a board message's buttons were drawn at, where its kind stamps one in their ids
    (``ttt:<game>:<what>@<ply>``); None otherwise."""
    if message is None:
        return None
    for button in buttons_in(message.components):
        head, at, ply = (button.custom_id or "").rpartition("@")
        if at and head.startswith("ttt:") and ply.isdigit():
            return int(ply)
    return None


def buttons_in(components: Any) -> list[discord.Button]:
    """Every button of a message, however deep in rows, containers and sections, in order."""
    found: list[discord.Button] = []
    _collect(components, found)
    return found


def _collect(components: Any, found: list[discord.Button]) -> None:
    # A list filled by plain recursion: every cell click reads its board's buttons.
    for component in components or ():
        if isinstance(component, discord.Button):
            found.append(component)
            continue
        children = getattr(component, "children", None)
        if children:
            _collect(children, found)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            _collect((accessory,), found)
