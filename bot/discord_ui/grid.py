"""What a board message shows, read back from its buttons: how many marks its cells show,
and every button however deep in the layout. (The grid and the buttons themselves are drawn by
the game's kind: ``bot.games.kinds``.)

A message's components come in two forms: discord.py's objects (a message fetched or posted),
or the dicts Discord sent (a click's own message: ``gateway.clicks_keep_their_message_raw``).
Both read the same here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import discord

from bot.games.look import Look

BUTTON = 2  # a button's component type


class Shown(NamedTuple):
    """A button as a message shows it: its custom id ("" for a link) and its emoji's text."""

    custom_id: str
    emoji: str | None


def marks_on(message: discord.Message | None, look: Look) -> int | None:
    """How many cells of a board message show a mark: what the clicker saw, whatever marks the
    board uses (None when there is no message to read, or it has no cell buttons)."""
    if message is None:
        return None
    cells = [b.emoji for b in buttons_in(message.components) if _cell_id(b.custom_id)]
    if not cells:
        return None
    # An empty cell shows the empty mark (a board drawn before it did shows no emoji there).
    return sum(emoji is not None and emoji != look.empty for emoji in cells)


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
        head, at, ply = button.custom_id.rpartition("@")
        if at and head.startswith("ttt:") and ply.isdigit():
            return int(ply)
    return None


def texts_in(components: Any) -> list[str]:
    """The text of each top-level component of a message ("" for one without text)."""
    return [
        c.get("content", "") if isinstance(c, dict) else getattr(c, "content", "")
        for c in components or ()
    ]


def buttons_in(components: Any) -> list[Shown]:
    """Every button of a message, however deep in rows, containers and sections, in order."""
    found: list[Shown] = []
    _collect(components, found)
    return found


def _collect(components: Any, found: list[Shown]) -> None:
    # A list filled by plain recursion: every cell click reads its board's buttons.
    for component in components or ():
        if isinstance(component, dict):
            if component.get("type") == BUTTON:
                found.append(Shown(component.get("custom_id") or "", _emoji(component)))
                continue
            children, accessory = component.get("components"), component.get("accessory")
        elif isinstance(component, discord.Button):
            emoji = component.emoji
            found.append(Shown(component.custom_id or "", None if emoji is None else str(emoji)))
            continue
        else:
            children = getattr(component, "children", None)
            accessory = getattr(component, "accessory", None)
        if children:
            _collect(children, found)
        if accessory is not None:
            _collect((accessory,), found)


def _emoji(button: dict[str, Any]) -> str | None:
    """A button dict's emoji as discord.py writes a ``PartialEmoji``: a Unicode emoji itself, a
    custom one as ``<:name:id>`` (``<a:name:id>`` animated)."""
    emoji = button.get("emoji")
    if not emoji:
        return None
    if emoji.get("id") is None:
        return str(emoji.get("name"))
    return f"<{'a' if emoji.get('animated') else ''}:{emoji.get('name')}:{emoji['id']}>"
