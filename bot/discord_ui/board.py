"""A game record as a Discord message, and the custom ids its buttons carry.

One Components V2 layout for every board size (a 5x5 board fills the five action rows a classic
message may have), in the game's own language (``GameRecord.locale``): the text (players, grid,
whose turn or the result: ``endings``), one action row per board row, a row of controls.

Every control carries its game in the custom id, ``ttt:<game id>:<cell>`` for a cell and
``ttt:<game id>:<action>`` for the rest, so a click finds its game after a restart without any
view kept in memory: the game cog's click listener routes every click by its id (``parse_id``).
"""

from __future__ import annotations

import functools
import re
from gettext import NullTranslations
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import endings
from bot.games import kinds
from bot.games import look as looks
from bot.games import rules as play
from bot.games.kinds import ultimate
from bot.games.kinds.base import ACTION_ROW, BUTTON, TEXT_DISPLAY
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
REPLAY = "replay"  # a finished game's animated replay, answered privately
SHARE = "share"  # under a private replay: post it in the channel
BACK = ultimate.BACK
PICK = ultimate.PICK
# Resign's second click: "confirm<x|o><until>", the side that asked and the time (Unix
# seconds) until which it resigns (``bot.cogs.games.resigning``).
CONFIRM = "confirm"
ACTIONS = (ACCEPT, DECLINE, WITHDRAW, RESIGN, REMATCH, HINT, REVIEW, REPLAY, SHARE, BACK)
# A cell or an action, then the ply the button was drawn at where its kind stamps one.
ID_PATTERN = re.compile(
    r"ttt:(?P<game>[0-9]{1,19}):(?P<what>[0-9]{1,2}|[a-z]{1,16}[0-9]?|confirm[xo][0-9]{1,12})"
    r"(?:@(?P<ply>[0-9]{1,3}))?"
)


def custom_id(game_id: int, what: int | str) -> str:
    """The custom id of a cell (int) or a control (action name) of a game."""
    return f"ttt:{game_id}:{what}"


def parse_id(custom_id: str) -> tuple[int, str, int | None] | None:
    """The game id, the cell number or action name, and the ply the button was drawn at (None
    where its kind stamps none) of a board's custom id; None if it is not one of the bot's ids."""
    match = ID_PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    ply = match["ply"]
    return int(match["game"]), match["what"], None if ply is None else int(ply)


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


def button(
    game_id: int,
    what: int | str,
    *,
    label: str | None = None,
    emoji: dict[str, Any] | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> dict[str, Any]:
    button: dict[str, Any] = {"type": BUTTON, "style": style.value, "disabled": disabled}
    if label is not None:
        button["label"] = label
    button["custom_id"] = custom_id(game_id, what)
    if emoji is not None:
        button["emoji"] = emoji
    return button


# Level names as the board shows them.
LEVEL_NAMES = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "unbeatable": N_("unbeatable"),
    "expert": N_("expert"),
}


def _t(catalog: NullTranslations, msgid: str, /, **values: object) -> str:
    """Board words in the catalog's language, placeholders filled (``pybabel`` keyword ``_t:2``).

    Plain ``gettext`` on purpose: a click renders the board, and should call nothing more.
    """
    words = catalog.gettext(msgid)
    return words.format(**values) if values else words


def _who(
    side: Side, user_id: int, ai_side: Side | None, ai_level: str | None, catalog: NullTranslations
) -> str:
    user = f"<@{user_id}>"
    if ai_side == side and ai_level is not None:
        level = catalog.gettext(LEVEL_NAMES[ai_level].msgid)
        return _t(catalog, "{player} (bot, {level})", player=user, level=level)
    return user


def header(game: GameRecord) -> str:
    """Title, board size and line length, and who plays which mark."""
    return _header(
        game.locale,
        game.kind,
        game.size,
        game.k,
        game.x_id,
        game.o_id,
        game.ai_side,
        game.ai_level,
        game.look,
    )


@functools.lru_cache(maxsize=1024)
def _header(
    locale: str,
    kind: str,
    size: int,
    k: int,
    x_id: int,
    o_id: int,
    ai_side: Side | None,
    ai_level: str | None,
    look: looks.Look,
) -> str:
    # The same for every click of a game: drawn once, while the game is among the newest.
    catalog = translation(locale)
    title = kinds.KINDS[kind].title(size, k).render(catalog)
    x = _who("X", x_id, ai_side, ai_level, catalog)
    o = _who("O", o_id, ai_side, ai_level, catalog)
    return f"### {title}\n{look.x} {x} vs {look.o} {o}"


def _move(
    game: GameRecord, player: str, mark: str, catalog: NullTranslations, picked: int | None
) -> str:
    """Whose move it is, and how to make it on a board that takes reactions."""
    if not game.look.reactions or game.interactions_only:
        return _t(catalog, "{player}, your move ({mark}).", player=player, mark=mark)
    picking = kinds.of(game).picking(game, picked, player, mark)
    return picking.render(catalog)


def _deadline(game: GameRecord) -> str:
    return discord.utils.format_dt(game.deadline, "R") if game.deadline else ""


def has_board(game: GameRecord) -> bool:
    """True once there is a board to show: the game is on, or was played to an end."""
    return game.status is Status.ACTIVE or game.ending in PLAYED


def status(game: GameRecord, picked: int | None = None) -> str:
    """Whose turn it is, what the challenge waits for, or how the game ended, in words."""
    catalog = translation(game.locale)
    if game.status is Status.CHALLENGE:
        ask = _t(
            catalog,
            "{opponent}, {challenger} challenges you to a game! {x} moves first.",
            opponent=f"<@{play.opponent_id(game)}>",
            challenger=f"<@{game.challenger_id}>",
            x=game.look.x,
        )
        if game.deadline is None:
            return ask
        until = _t(catalog, "Accept or decline {when}.", when=_deadline(game))
        return f"{ask} {until}"
    side = play.turn(game)
    player = f"<@{play.player_id(game, side)}>"
    if game.status is Status.ACTIVE:
        if game.ai_side == side:
            return _t(
                catalog, "{mark} {player} is thinking…", mark=game.look.mark(side), player=player
            )
        move = _move(game, player, game.look.mark(side), catalog, picked)
        if not game.deadline:
            return move
        clock = _t(catalog, "Time runs out {when}.", when=_deadline(game))
        return f"{move} {clock}"
    return endings.result(game, catalog)


def text(game: GameRecord, picked: int | None = None) -> str:
    """Everything the message says, above the buttons."""
    parts = [header(game)]
    kind = kinds.of(game)
    if has_board(game):
        keyed = game.look.reactions and game.status is Status.ACTIVE and not game.interactions_only
        if not game.look.picture or keyed:  # a picture's board keeps the keys of its reactions
            parts.append(kind.grid(game, keyed=keyed, picked=picked))
        caption = kind.caption(game)
        if caption is not None:
            parts.append(caption.render(translation(game.locale)))
    parts.append(status(game, picked))
    return "\n\n".join(parts)


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
    REPLAY: (N_("Replay"), "🎞️", _Style.secondary),
    SHARE: (N_("Share"), "📣", _Style.primary),
    BACK: (N_("Other boards"), "◀️", _Style.secondary),
    CONFIRM: (N_("Confirm resign"), "⚠️", _Style.danger),
}
CONFIRMING = N_(
    "{player}, click Confirm resign within {seconds} seconds to resign; otherwise the game goes on."
)


def controls(game: GameRecord) -> tuple[str, ...]:
    """The actions of the buttons under the grid, in order."""
    if game.status is Status.CHALLENGE:
        return (ACCEPT, DECLINE, WITHDRAW)
    if game.status is Status.ACTIVE:
        return (HINT, RESIGN) if game.ai_side is not None else (RESIGN,)
    if game.ending in PLAYED:
        return (REMATCH, REVIEW, REPLAY) if game.look.rematch else (REVIEW, REPLAY)
    return ()


def view(
    game: GameRecord,
    picked: int | None = None,
    *,
    confirm: tuple[str, int, int] | None = None,
    gallery: dict[str, Any] | None = None,
) -> BoardView:
    """The whole message: text, board rows (row-major, one button per cell, unless moves are
    made by reactions only), controls. `picked`: a column chosen by reaction on 5x5, waiting for
    its row. `confirm`: Resign clicked, asking for its confirmation (the confirm button's
    action, the player asked and the seconds left), in place of Resign. `gallery`: the board's
    picture, between the text and the buttons (``bot.discord_ui.picture``).

    While the engine thinks the cells stay clickable, so a click then gets a polite refusal
    rather than nothing at all.
    """
    content = text(game, picked)
    if confirm is not None:
        asked = CONFIRMING.msgid  # the words of whoever asked, in the board's language
        content += "\n\n" + _t(
            translation(game.locale), asked, player=f"<@{confirm[1]}>", seconds=confirm[2]
        )
    parts: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": content}]
    if gallery is not None:
        parts.append(gallery)
    kind = kinds.of(game)
    if has_board(game) and game.look.buttons:
        parts += kind.cell_rows(game, picked)
    actions = kind.extra_controls(game, picked) + controls(game)
    if actions:
        catalog = translation(game.locale)
        row = []
        for action in actions:
            what = f"{action}@{len(game.moves)}" if action == BACK else action
            if action == RESIGN and confirm is not None:
                action, what = CONFIRM, confirm[0]
            label, emoji, style = LOOKS[action]
            name = catalog.gettext(label.msgid)
            shown = None if emoji is None else looks.component_emoji(emoji)
            row.append(button(game.id, what, label=name, emoji=shown, style=style))
        parts.append({"type": ACTION_ROW, "components": row})
    return BoardView(parts)
