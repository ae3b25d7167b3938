"""A tournament as Discord messages: its announcement (what it is, when it starts, its players,
then its standings, edited as results come in), the final message (the podium and every game's
thread), a game thread's name, and the custom ids of the announcement's buttons.

Buttons: ``ttt-tour:<tournament id>:join``, ``…:leave`` and ``…:start`` (start: the creator or a
member with Manage Server). They are routed by prefix (``PREFIX``; the event ``CLICK``), so they
work after a restart. Everything is written in the tournament's language (``Tournament.locale``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord_ui.board import BoardView
from bot.games import kinds
from bot.games.kinds.base import ACTION_ROW, BUTTON, TEXT_DISPLAY
from bot.i18n import N_, NP_, Text, translation
from bot.tournaments.standings import Standing
from bot.tournaments.tournament import (
    AUTO_ROUNDS,
    Entrant,
    Format,
    Pairing,
    Presence,
    Stage,
    Tournament,
)

PREFIX = "ttt-tour:"
CLICK = "ttt_tournament_click"  # the event a click on an announcement's button is handed on as
JOIN, LEAVE, START = "join", "leave", "start"
ID_PATTERN = re.compile(r"ttt-tour:(?P<tournament>[0-9]{1,19}):(?P<what>join|leave|start)")
SHOWN = 30  # lines of standings (and players) an announcement shows at most
TEXT_LIMIT = 3900  # characters of a message's texts (Discord: 4,000 in one layout)

SWISS_HEAD = N_("🏆 **Swiss tournament**: {game}, {seconds} s a move, {rounds}.")
ARENA_HEAD = N_("🏆 **Arena**: {game}, {seconds} s a move, {minutes} minutes.")
AUTO = N_("rounds set by the number of players")
STARTS_AT = N_("Starts {when} ({relative}).")
STARTS_BY_HAND = N_("Starts when {player} presses Start.")
ROUND = N_("Round {round} of {rounds}.")
ENDS = N_("Ends {relative}.")
OVER = N_("Finished.")
CANCELLED = N_("Cancelled: fewer than 2 players joined.")
SWISS_TABLE = N_(
    "**Standings**: rank, player, score, Buchholz, Sonneborn-Berger, games "
    "(ties: Buchholz, then Sonneborn-Berger, then head-to-head)"
)
ARENA_TABLE = N_(
    "**Standings**: rank, player, points, games (a win 2, a draw 1; after two wins in a row "
    "each win counts double: 🔥)"
)
PODIUM = N_("🏁 **The tournament is over.**")
GAMES = N_("**Games**")
MORE = N_("and {n} more")
JOIN_LABEL, LEAVE_LABEL, START_LABEL = N_("Join"), N_("Leave"), N_("Start")


def custom_id(tournament_id: int, what: str) -> str:
    """The custom id of an announcement's button."""
    return f"{PREFIX}{tournament_id}:{what}"


def parse_id(text: str) -> tuple[int, str] | None:
    """The tournament and the button (join, leave, start) of a custom id, or None."""
    match = ID_PATTERN.fullmatch(text)
    return None if match is None else (int(match["tournament"]), match["what"])


def score(value: float) -> str:
    """A score as people write it: 2½, ½, 3."""
    whole, half = int(value), value - int(value) >= 0.5
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


def game_of(t: Tournament) -> Text:
    """What is played, in words."""
    return kinds.KINDS[t.kind].title(t.size, t.k)


def head(t: Tournament) -> Text:
    """The first line: the format, the game and its clock."""
    if t.format is Format.SWISS:
        auto = t.rounds == AUTO_ROUNDS and t.stage is Stage.OPEN
        rounds = AUTO if auto else NP_("{n} round", "{n} rounds", t.rounds or 0)
        return N_(SWISS_HEAD.msgid, game=game_of(t), seconds=t.move_seconds, rounds=rounds)
    return N_(ARENA_HEAD.msgid, game=game_of(t), seconds=t.move_seconds, minutes=t.minutes)


def when(t: Tournament) -> Text:
    """When it starts, or where it is now."""
    if t.stage is Stage.CANCELLED:
        return CANCELLED
    if t.stage is Stage.FINISHED:
        return OVER
    if t.stage is Stage.RUNNING and t.format is Format.SWISS:
        return N_(ROUND.msgid, round=t.round, rounds=t.rounds)
    if t.stage is Stage.RUNNING and t.ends_at is not None:
        return N_(ENDS.msgid, relative=discord.utils.format_dt(t.ends_at, "R"))
    if t.starts_at is not None:
        at = discord.utils.format_dt(t.starts_at, "F")
        return N_(STARTS_AT.msgid, when=at, relative=discord.utils.format_dt(t.starts_at, "R"))
    return N_(STARTS_BY_HAND.msgid, player=f"<@{t.creator_id}>")


def standing_line(t: Tournament, line: Standing) -> str:
    """One line of the standings (no words: the table's heading names the columns)."""
    who = f"<@{line.player}>"
    if t.format is Format.ARENA:
        fire = " 🔥" if line.on_fire else ""
        return f"{line.rank}. {who} **{line.score:g}**{fire} · {line.played}"
    values = (score(line.buchholz), score(line.sonneborn_berger), line.played)
    return f"{line.rank}. {who} **{score(line.score)}** · {' · '.join(map(str, values))}"


def announcement(
    t: Tournament, entrants: Sequence[Entrant], table: Sequence[Standing] | None = None
) -> BoardView:
    """The announcement as it is now: while open its players and the Join, Leave and Start
    buttons; once started its standings (and Join and Leave in an arena)."""
    catalog = translation(t.locale)
    here = [e for e in entrants if e.presence is not Presence.LEFT]
    lines = [head(t).render(catalog), when(t).render(catalog)]
    lines.append(NP_("{n} player", "{n} players", len(here)).render(catalog))
    if table:
        heading = SWISS_TABLE if t.format is Format.SWISS else ARENA_TABLE
        lines += ["", heading.render(catalog)]
        lines += [standing_line(t, line) for line in table[:SHOWN]]
    elif here:
        lines.append(" ".join(f"<@{e.user_id}>" for e in here[:SHOWN]))
    if len(table or here) > SHOWN:
        lines.append(N_(MORE.msgid, n=len(table or here) - SHOWN).render(catalog))
    parts: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": _fit("\n".join(lines))}]
    actions = {Stage.OPEN: (JOIN, LEAVE, START), Stage.RUNNING: (JOIN, LEAVE)}.get(t.stage, ())
    if t.format is Format.SWISS and t.stage is Stage.RUNNING:
        actions = (LEAVE,)
    if actions:
        labels = {JOIN: JOIN_LABEL, LEAVE: LEAVE_LABEL, START: START_LABEL}
        styles = {JOIN: 3, LEAVE: 2, START: 1}  # green, grey, blurple
        row = [
            {
                "type": BUTTON,
                "style": styles[what],
                "label": labels[what].render(catalog),
                "custom_id": custom_id(t.id, what),
            }
            for what in actions
        ]
        parts.append({"type": ACTION_ROW, "components": row})
    return BoardView(parts)


def final(t: Tournament, table: Sequence[Standing], pairings: Sequence[Pairing]) -> BoardView:
    """The last message: the podium (🥇🥈🥉) and a link to every game's thread."""
    catalog = translation(t.locale)
    lines = [PODIUM.render(catalog)]
    for medal, line in zip("🥇🥈🥉", table, strict=False):
        lines.append(f"{medal} <@{line.player}> **{_points(t, line.score)}**")
    threads = [p for p in pairings if p.thread_id is not None]
    if threads:
        lines += ["", GAMES.render(catalog)]
    shown: list[str] = []
    used = sum(len(line) + 1 for line in lines)
    for count, p in enumerate(threads):
        entry = f"{_label(t, p)} <#{p.thread_id}>"
        used += len(entry) + 3
        if used > TEXT_LIMIT - 40:
            shown.append(N_(MORE.msgid, n=len(threads) - count).render(catalog))
            break
        shown.append(entry)
    text = "\n".join(lines) + ("\n" + " · ".join(shown) if shown else "")
    return BoardView([{"type": TEXT_DISPLAY, "content": _fit(text)}])


def thread_name(t: Tournament, pairing: Pairing, names: Mapping[int, str]) -> str:
    """A game's thread: its round and board (Swiss) or its number (arena), then the players;
    the label before " · " is the same after a restart, so a thread made is found again."""
    return f"{_label(t, pairing)} · {names[pairing.x]} vs {names[pairing.o]}"[:100]


def label_of(t: Tournament, pairing: Pairing) -> str:
    """The start of a game's thread name, which no other game of the tournament shares."""
    return _label(t, pairing) + " ·"


def _label(t: Tournament, pairing: Pairing) -> str:
    if t.format is Format.SWISS:
        return f"R{pairing.round}.{pairing.board}"
    return f"#{pairing.round}"


def _points(t: Tournament, value: float) -> str:
    return f"{value:g}" if t.format is Format.ARENA else score(value)


def _fit(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"
