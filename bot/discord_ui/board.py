"""A game record as a Discord message: one Components V2 layout for every board size, and the
custom ids its buttons carry.

A 5x5 board fills five action rows, which is all a classic message may have; a layout message
(text display + action rows, up to 40 components) leaves room for the controls under it, so every
size uses the same layout: the text (players, grid, whose turn or the result), then one action
row per board row, then a row of controls.

Every control carries its game in the custom id, ``ttt:<game id>:<cell>`` for a cell and
``ttt:<game id>:<action>`` for the rest, so a click finds its game after a restart without any
view kept in memory: the game cog's click listener routes every click by its id (``parse_id``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord

from bot.games import rules as play
from bot.games.record import PLAYED, Ending, GameRecord, Status
from engine import cell_name

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

MARKS = {"X": "❌", "O": "⭕"}
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


def jump_url(game: GameRecord) -> str:
    """A link to the game's message (the board or the challenge)."""
    guild = game.guild_id if game.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}/{game.message_id}"


def busy_text(game: GameRecord | None) -> str:
    """The refusal for a channel that already has a game."""
    if game is None or game.message_id is None:
        return "A game is being set up in this channel; one game per channel at a time."
    kind = "A challenge is waiting" if game.status is Status.CHALLENGE else "A game is running"
    return f"{kind} in this channel: {jump_url(game)}. One game per channel at a time."


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


def _who(game: GameRecord, side: Side) -> str:
    user = f"<@{play.player_id(game, side)}>"
    if game.ai_side == side:
        return f"{user} (bot, {game.ai_level})"
    return user


def header(game: GameRecord) -> str:
    """Title, board size and line length, and who plays which mark."""
    return (
        f"### Tic-tac-toe · {game.size}×{game.size}, {game.k} in a row\n"
        f"{MARKS['X']} {_who(game, 'X')} vs {MARKS['O']} {_who(game, 'O')}"
    )


def _deadline(game: GameRecord) -> str:
    return discord.utils.format_dt(game.deadline, "R") if game.deadline else ""


def has_board(game: GameRecord) -> bool:
    """True once there is a board to show: the game is on, or was played to an end."""
    return game.status is Status.ACTIVE or game.ending in PLAYED


def status(game: GameRecord) -> str:
    """Whose turn it is, what the challenge waits for, or how the game ended, in words."""
    if game.status is Status.CHALLENGE:
        opponent = play.opponent_id(game)
        return (
            f"<@{opponent}>, <@{game.challenger_id}> challenges you to a game! "
            f"{MARKS['X']} moves first. Accept or decline {_deadline(game)}.".replace(" .", ".")
        )
    side = play.turn(game)
    if game.status is Status.ACTIVE:
        if game.ai_side == side:
            return f"{MARKS[side]} <@{play.player_id(game, side)}> is thinking…"
        clock = f" Time runs out {_deadline(game)}." if game.deadline else ""
        return f"<@{play.player_id(game, side)}>, your move ({MARKS[side]}).{clock}"
    return result(game)


def result(game: GameRecord) -> str:
    """How a finished game ended, in words."""
    winner = game.winner
    win_id = f"<@{play.player_id(game, winner)}>" if winner else ""
    lose_id = f"<@{play.player_id(game, play.other(winner))}>" if winner else ""
    opponent = f"<@{play.opponent_id(game)}>"
    match game.ending:
        case Ending.WIN:
            line = ", ".join(cell_name(c, game.size) for c in play.winning_line(game))
            return f"🏆 {MARKS[winner or 'X']} {win_id} wins with {line}!"
        case Ending.DRAW:
            return "🤝 It's a draw."
        case Ending.RESIGN:
            return f"🏳️ {lose_id} resigned. {MARKS[winner or 'X']} {win_id} wins."
        case Ending.TIMEOUT:
            return f"⌛ {lose_id} ran out of time. {MARKS[winner or 'X']} {win_id} wins by forfeit."
        case Ending.DECLINED:
            return f"{opponent} declined the challenge."
        case Ending.WITHDRAWN:
            return f"<@{game.challenger_id}> withdrew the challenge."
        case Ending.EXPIRED:
            return f"The challenge expired: {opponent} did not answer in time."
        case _:
            return "This game was abandoned."


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
LOOKS: dict[str, tuple[str, str | None, discord.ButtonStyle]] = {
    ACCEPT: ("Accept", None, _Style.success),
    DECLINE: ("Decline", None, _Style.danger),
    WITHDRAW: ("Withdraw", None, _Style.secondary),
    HINT: ("Hint", "💡", _Style.secondary),
    RESIGN: ("Resign", None, _Style.danger),
    REMATCH: ("Rematch", None, _Style.primary),
    REVIEW: ("Review", "🔍", _Style.secondary),
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
        row = []
        for action in actions:
            label, emoji, style = LOOKS[action]
            row.append(_button(game.id, action, label=label, emoji=emoji, style=style))
        parts.append({"type": ACTION_ROW, "components": row})
    return BoardView(parts)
