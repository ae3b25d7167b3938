"""A player's recent games as a private message: one line a game (the result, the opponent, the
number of moves, the date as a Discord timestamp), a menu to open any of them, and buttons to the
newer and older pages; and the custom ids those carry.

Ids: ``tth:p:<player>:<kind or ->:<offset>`` for a page, ``tth:o:<player>`` for the menu,
whose values are game ids. The game cog's click listener hands every ``tth:`` id to the history cog
(``CLICK``); nothing is kept in memory, so a list shown before a restart still works.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_ui.board import LEVEL_NAMES
from bot.games.kinds import KINDS
from bot.games.kinds.base import ACTION_ROW, BUTTON
from bot.games.record import Ending, GameRecord
from bot.i18n import N_, NP_, Text, translation

PREFIX = "tth:"
CLICK = "ttt_history_click"  # the event a click on a history message is handed on as
PAGE = 10  # games a page
PAGE_PATTERN = re.compile(
    r"tth:p:(?P<player>[0-9]{1,19}):(?P<kind>[a-z]{1,16}|-):(?P<at>[0-9]{1,6})"
)
OPEN_PATTERN = re.compile(r"tth:o:(?P<player>[0-9]{1,19})")
SNOWFLAKE = 2**63  # Discord's ids are below it (a store's BIGINT holds them)
STRING_SELECT = 3  # Discord's component type of a string select menu

KIND_NAMES = {"classic": N_("Classic"), "ultimate": N_("Ultimate")}
RESULTS = {1.0: N_("Won"), 0.5: N_("Draw"), 0.0: N_("Lost")}
HOW = {Ending.RESIGN: N_("by resignation"), Ending.TIMEOUT: N_("on time")}


def page_id(player: int, kind: str | None, offset: int) -> str:
    return f"tth:p:{player}:{kind or '-'}:{offset}"


def open_id(player: int) -> str:
    return f"tth:o:{player}"


def parse_open(custom_id: str) -> int | None:
    """The player whose list a menu's id belongs to; None if it is not one."""
    match = OPEN_PATTERN.fullmatch(custom_id)
    return None if match is None or int(match["player"]) >= SNOWFLAKE else int(match["player"])


def parse_page(custom_id: str) -> tuple[int, str | None, int] | None:
    """(player, kind or None, offset) of a page button's id; None if it is not one."""
    match = PAGE_PATTERN.fullmatch(custom_id)
    if match is None or int(match["player"]) >= SNOWFLAKE:
        return None
    kind = None if match["kind"] == "-" else match["kind"]
    return int(match["player"]), kind, int(match["at"])


def kind_name(kind: str) -> Text | str:
    """A kind of game by name, as the history and the rating chart say it."""
    return KIND_NAMES.get(kind, kind)


def side_of(game: GameRecord, player: int) -> str:
    return "X" if game.x_id == player else "O"


def score(game: GameRecord, player: int) -> float:
    """The player's result: 1 won, 0.5 drawn, 0 lost."""
    if game.winner is None:
        return 0.5
    return 1.0 if game.winner == side_of(game, player) else 0.0


def opponent(game: GameRecord, player: int) -> Text | str:
    """Who the player played: a mention, or the bot and its level."""
    other = "O" if side_of(game, player) == "X" else "X"
    user = game.o_id if other == "O" else game.x_id
    if game.ai_side == other and game.ai_level is not None:
        return N_("{player} (bot, {level})", player=f"<@{user}>", level=LEVEL_NAMES[game.ai_level])
    return f"<@{user}>"


def line(game: GameRecord, player: int) -> Text:
    """One game's line: result, opponent, moves, date."""
    result = RESULTS[score(game, player)]
    how = HOW.get(game.ending) if game.ending is not None else None
    date = f"<t:{int(game.created_at.timestamp())}:d>" if game.created_at else "?"
    name = kind_name(game.kind)
    return NP_(
        "{result} against {opponent} · {kind} · {n} move · {date}",
        "{result} against {opponent} · {kind} · {n} moves · {date}",
        len(game.moves),
        result=_ended(result, how) if how else result,
        opponent=opponent(game, player),
        kind=name,
        date=date,
    )


def _ended(result: Text, how: Text) -> Text:
    """A result and how the game ended: "Won (by resignation)"."""
    return N_("{result} ({how})", result=result, how=how)


class Plain(discord.ui.View):
    """A message's components as plain data, never a live view (clicks go by custom id)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def is_finished(self) -> bool:
        return True


def listing(
    player: int,
    games: list[GameRecord],
    *,
    kind: str | None,
    offset: int,
    where: Text,
    locale: str | None,
) -> tuple[str, Plain | None]:
    """A page of a player's games (`games`: up to `PAGE` + 1, the last only saying that there is
    an older page) as the message's text and components."""
    catalog = translation(locale)
    shown = games[:PAGE]
    if not shown:
        empty = N_(
            "{player} has no finished games {where} yet.", player=f"<@{player}>", where=where
        )
        return empty.render(catalog), None
    title = N_("**Recent games of {player}** {where}", player=f"<@{player}>", where=where)
    lines = [title.render(catalog)]
    options = []
    for number, game in enumerate(shown, offset + 1):
        lines.append(f"{number}. {line(game, player).render(catalog)}")
        day = f"{game.created_at:%Y-%m-%d}" if game.created_at else ""
        result = RESULTS[score(game, player)].render(catalog)
        label = f"{number}. {result} · {_said(kind_name(game.kind), catalog)} · {day}"
        options.append({"label": label[:100], "value": str(game.id)})
    placeholder = N_("Open a game: its picture and replay").render(catalog)
    menu = {
        "type": STRING_SELECT,
        "custom_id": open_id(player),
        "options": options,
        "min_values": 1,
        "max_values": 1,
        "placeholder": placeholder,
    }
    rows: list[dict[str, Any]] = [{"type": ACTION_ROW, "components": [menu]}]
    buttons = []
    if offset > 0:
        buttons.append(_button(N_("Newer"), page_id(player, kind, max(0, offset - PAGE)), catalog))
    if len(games) > PAGE:
        buttons.append(_button(N_("Older"), page_id(player, kind, offset + PAGE), catalog))
    if buttons:
        rows.append({"type": ACTION_ROW, "components": buttons})
    return "\n".join(lines), Plain(rows)


def _said(text: Text | str, catalog: Any) -> str:
    return text if isinstance(text, str) else text.render(catalog)


def _button(label: Text, custom_id: str, catalog: Any) -> dict[str, Any]:
    return {
        "type": BUTTON,
        "style": discord.ButtonStyle.secondary.value,
        "label": label.render(catalog),
        "custom_id": custom_id,
    }


def known_kind(kind: str | None) -> str | None:
    """A kind asked for, if it is one (None: every kind)."""
    return kind if kind in KINDS else None
