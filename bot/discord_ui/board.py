"""A game record as a Discord message, and the custom ids its buttons carry.

One Components V2 layout for every board size (a 5x5 board fills the five action rows a classic
message may have), in the game's own language (``GameRecord.locale``): the text (players, grid,
whose turn or the result: ``endings``), one action row per board row, a row of controls.

Every control carries its game in the custom id, ``ttt:<game id>:<cell>`` for a cell and
``ttt:<game id>:<action>`` for the rest, so a click finds its game after a restart without any
view kept in memory: the game cog's click listener routes every click by its id (``parse_id``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from gettext import NullTranslations
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import endings
from bot.discord_ui.endings import MARKS
from bot.games import rules as play
from bot.games.record import PLAYED, GameRecord, Status
from bot.i18n import N_, Text, translation

if TYPE_CHECKING:
    from engine import Side

ACCEPT = "accept"
DECLINE = "decline"
WITHDRAW = "withdraw"
RESIGN = "resign"
REMATCH = "rematch"
HINT = "hint"
REVIEW = "review"
ACTIONS = (ACCEPT, DECLINE, WITHDRAW, RESIGN, REMATCH, HINT, REVIEW)
ID_PATTERN = re.compile(r"ttt:(?P<game>[0-9]{1,19}):(?P<what>[0-9]{1,2}|[a-z]{1,16})")

EMPTY = "⬜"
CORNER = "⬛"
# Regional indicators and keycaps line up with the square emoji; a zero-width space keeps two
# letters from fusing into a flag (B + E would otherwise show as Belgium's).
COLUMN_LABELS = [chr(0x1F1E6 + i) for i in range(5)]
ROW_LABELS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"]
BLANK_LABEL = "\u200b"  # a button needs a label or an emoji; an empty cell shows neither


def custom_id(game_id: int, what: int | str) -> str:
    """The custom id of a cell (int) or a control (action name) of a game."""
    return f"ttt:{game_id}:{what}"


def parse_id(custom_id: str) -> tuple[int, str] | None:
    """The game id and the cell number or action name of a board's custom id; None if it is not
    one of the bot's ids."""
    match = ID_PATTERN.fullmatch(custom_id)
    return None if match is None else (int(match["game"]), match["what"])


def marks_on(message: discord.Message | None) -> int | None:
    """How many cells of a board message show a mark: what the clicker saw (None when there is
    no message to read)."""
    if message is None:
        return None
    cells = (b for b in buttons_in(message.components) if (b.custom_id or "")[-1:].isdigit())
    return sum(button.emoji is not None for button in cells)


def buttons_in(components: Any) -> Iterator[discord.Button]:
    """Every button of a message, however deep in rows, containers and sections."""
    for component in components or ():
        if isinstance(component, discord.Button):
            yield component
        yield from buttons_in(getattr(component, "children", None))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from buttons_in([accessory])


class BoardView(discord.ui.LayoutView):
    """A board message, its components built as plain data (a board has up to 31 buttons, and
    one discord.py object for each costs more than the rest of a click).

    Never a live view: discord.py is told it is finished, so it keeps none of them in memory;
    clicks are routed by custom id instead.
    """

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True


ACTION_ROW, BUTTON, TEXT_DISPLAY = 1, 2, 10  # Discord's component types


def _button(
    game_id: int,
    what: int | str,
    *,
    label: str | None = None,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> dict[str, Any]:
    button: dict[str, Any] = {"type": BUTTON, "style": style.value, "disabled": disabled}
    if label is not None:
        button["label"] = label
    button["custom_id"] = custom_id(game_id, what)
    if emoji is not None:
        button["emoji"] = {"id": None, "name": emoji}
    return button


def marks(game: GameRecord) -> list[str | None]:
    """The mark in each cell, row-major ("X", "O" or None)."""
    cells: list[str | None] = [None] * (game.size * game.size)
    for ply, cell in enumerate(game.moves):
        cells[cell] = "X" if ply % 2 == 0 else "O"
    return cells


def grid(game: GameRecord) -> str:
    """The board as emoji, with column letters and row numbers on boards bigger than 3x3."""
    cells = marks(game)
    size = game.size
    rows = []
    for r in range(size):
        row = "".join(MARKS[m] if m else EMPTY for m in cells[r * size : (r + 1) * size])
        rows.append(ROW_LABELS[r] + row if size > 3 else row)
    if size > 3:
        rows.insert(0, CORNER + "\u200b".join(COLUMN_LABELS[:size]))
    return "\n".join(rows)


# Level names as the board shows them.
LEVEL_NAMES = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "unbeatable": N_("unbeatable"),
}


def _t(catalog: NullTranslations, msgid: str, /, **values: object) -> str:
    """Board words in the catalog's language, placeholders filled (``pybabel`` keyword ``_t:2``).

    Plain ``gettext`` on purpose: a click renders the board, and should call nothing more.
    """
    words = catalog.gettext(msgid)
    return words.format(**values) if values else words


def _who(game: GameRecord, side: Side, catalog: NullTranslations) -> str:
    user = f"<@{play.player_id(game, side)}>"
    if game.ai_side == side and game.ai_level is not None:
        level = catalog.gettext(LEVEL_NAMES[game.ai_level].msgid)
        return _t(catalog, "{player} (bot, {level})", player=user, level=level)
    return user


def header(game: GameRecord) -> str:
    """Title, board size and line length, and who plays which mark."""
    catalog = translation(game.locale)
    title = _t(catalog, "Tic-tac-toe · {size}×{size}, {k} in a row", size=game.size, k=game.k)
    x, o = _who(game, "X", catalog), _who(game, "O", catalog)
    return f"### {title}\n{MARKS['X']} {x} vs {MARKS['O']} {o}"


def _deadline(game: GameRecord) -> str:
    return discord.utils.format_dt(game.deadline, "R") if game.deadline else ""


def has_board(game: GameRecord) -> bool:
    """True once there is a board to show: the game is on, or was played to an end."""
    return game.status is Status.ACTIVE or game.ending in PLAYED


def status(game: GameRecord) -> str:
    """Whose turn it is, what the challenge waits for, or how the game ended, in words."""
    catalog = translation(game.locale)
    if game.status is Status.CHALLENGE:
        ask = _t(
            catalog,
            "{opponent}, {challenger} challenges you to a game! {x} moves first.",
            opponent=f"<@{play.opponent_id(game)}>",
            challenger=f"<@{game.challenger_id}>",
            x=MARKS["X"],
        )
        if game.deadline is None:
            return ask
        until = _t(catalog, "Accept or decline {when}.", when=_deadline(game))
        return f"{ask} {until}"
    side = play.turn(game)
    player = f"<@{play.player_id(game, side)}>"
    if game.status is Status.ACTIVE:
        if game.ai_side == side:
            return _t(catalog, "{mark} {player} is thinking…", mark=MARKS[side], player=player)
        move = _t(catalog, "{player}, your move ({mark}).", player=player, mark=MARKS[side])
        if not game.deadline:
            return move
        clock = _t(catalog, "Time runs out {when}.", when=_deadline(game))
        return f"{move} {clock}"
    return endings.result(game, catalog)


def text(game: GameRecord) -> str:
    """Everything the message says, above the buttons."""
    parts = [header(game)]
    if has_board(game):
        parts.append(grid(game))
    parts.append(status(game))
    return "\n\n".join(parts)


def _cell_button(
    game: GameRecord, cell: int, mark: str | None, line: tuple[int, ...]
) -> dict[str, Any]:
    over = game.status is not Status.ACTIVE
    if mark is None:
        return _button(game.id, cell, label=BLANK_LABEL, disabled=over)
    style = discord.ButtonStyle.success if cell in line else discord.ButtonStyle.secondary
    return _button(game.id, cell, emoji=MARKS[mark], style=style, disabled=True)


_Style = discord.ButtonStyle
# How each control looks: (label, emoji, style).
LOOKS: dict[str, tuple[Text, str | None, discord.ButtonStyle]] = {
    ACCEPT: (N_("Accept"), None, _Style.success),
    DECLINE: (N_("Decline"), None, _Style.danger),
    WITHDRAW: (N_("Withdraw"), None, _Style.secondary),
    HINT: (N_("Hint"), "💡", _Style.secondary),
    RESIGN: (N_("Resign"), None, _Style.danger),
    REMATCH: (N_("Rematch"), None, _Style.primary),
    REVIEW: (N_("Review"), "🔍", _Style.secondary),
}


def controls(game: GameRecord) -> tuple[str, ...]:
    """The actions of the buttons under the grid, in order."""
    if game.status is Status.CHALLENGE:
        return (ACCEPT, DECLINE, WITHDRAW)
    if game.status is Status.ACTIVE:
        return (HINT, RESIGN) if game.ai_side is not None else (RESIGN,)
    if game.ending in PLAYED:
        return (REMATCH, REVIEW)
    return ()


def view(game: GameRecord) -> BoardView:
    """The whole message: text, board rows (row-major, one button per cell), controls.

    While the engine thinks the cells stay clickable, so a click then gets a polite refusal
    rather than nothing at all.
    """
    parts: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": text(game)}]
    if has_board(game):
        cells = marks(game)
        line = play.winning_line(game)
        n = game.size
        for r in range(n):
            row = [_cell_button(game, cell, cells[cell], line) for cell in range(r * n, r * n + n)]
            parts.append({"type": ACTION_ROW, "components": row})
    actions = controls(game)
    if actions:
        catalog = translation(game.locale)
        row = []
        for action in actions:
            label, emoji, style = LOOKS[action]
            name = catalog.gettext(label.msgid)
            row.append(_button(game.id, action, label=name, emoji=emoji, style=style))
        parts.append({"type": ACTION_ROW, "components": row})
    return BoardView(parts)
