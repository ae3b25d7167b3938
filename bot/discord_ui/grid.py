"""The board drawn with a game's marks (``GameRecord.look``): the emoji grid above the buttons,
a mark as a button's emoji, and what a board message shows read back from its cell buttons.

On a board that takes reactions, each empty cell of the grid shows the reaction that plays it
(3x3, 4x4, without the column letters and row numbers a 4x4 grid shows otherwise); on 5x5 the
column letters and row numbers around the grid are the reactions.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.games import look as looks
from bot.games.look import Look
from bot.games.record import GameRecord

CORNER = "⬛"
# Regional indicators and keycaps line up with the square emoji; a zero-width space keeps two
# letters from fusing into a flag (B + E would otherwise show as Belgium's).
COLUMN_LABELS = [chr(0x1F1E6 + i) for i in range(5)]
ROW_LABELS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"]
GAP = "\u200b"


def marks(game: GameRecord) -> list[str | None]:
    """The mark in each cell, row-major ("X", "O" or None)."""
    cells: list[str | None] = [None] * (game.size * game.size)
    for ply, cell in enumerate(game.moves):
        cells[cell] = "X" if ply % 2 == 0 else "O"
    return cells


def grid(game: GameRecord, *, keyed: bool = False) -> str:
    """The board as emoji, with column letters and row numbers on boards bigger than 3x3;
    `keyed`: each empty cell shows its reaction where one reaction names a cell."""
    size, look = game.size, game.look
    keyed = keyed and looks.picks_cell(size)  # on 5x5 the labels are the keys
    joiner = GAP if keyed and size == 4 else ""  # letters side by side would make flags
    labelled = size > 3 and not keyed  # a keyed 4x4 cell names itself
    empties = looks.keys(size) if keyed else [look.empty] * (size * size)
    shown = {"X": look.x, "O": look.o}
    symbols = [shown[m] if m else empties[cell] for cell, m in enumerate(marks(game))]
    rows = [joiner.join(symbols[r * size : (r + 1) * size]) for r in range(size)]
    if labelled:
        rows = [CORNER + GAP.join(COLUMN_LABELS[:size])] + [
            label + row for label, row in zip(ROW_LABELS, rows, strict=False)
        ]
    return "\n".join(rows)


def emoji(mark: str) -> dict[str, Any]:
    """A mark as a component's emoji: a Unicode emoji by name, a custom one by id."""
    custom = looks.custom_parts(mark)
    if custom is None:
        return {"id": None, "name": mark}
    emoji_id, name, animated = custom
    return {"id": str(emoji_id), "name": name, "animated": animated}


def shows_empty(look: Look) -> bool:
    """Whether empty cell buttons carry the empty mark (a server's own; the default shows none)."""
    return look.empty != looks.DEFAULT.empty


def marks_on(message: discord.Message | None, look: Look) -> int | None:
    """How many cells of a board message show a mark: what the clicker saw, whatever marks the
    board uses (None when there is no message to read, or it has no cell buttons)."""
    if message is None:
        return None
    cells = [b for b in buttons_in(message.components) if (b.custom_id or "")[-1:].isdigit()]
    if not cells:
        return None
    if not shows_empty(look):  # an empty cell has no emoji: no emoji's text to read
        return sum(b.emoji is not None for b in cells)
    return sum(b.emoji is not None and str(b.emoji) != look.empty for b in cells)


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
