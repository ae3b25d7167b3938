"""A server's settings in words: each setting's label and value, one per line, in the reader's
language (``/tictactoe-settings show`` and after every change), in the order of ``SETTINGS``."""

from __future__ import annotations

from typing import Any

from bot.cogs.games import applied_settings
from bot.config import Settings
from bot.discord_ui import board
from bot.games.settings import BOARD_LANGUAGES, ServerSettings, posting_hour
from bot.i18n import N_, Text

SETTINGS = (
    "channels",
    "roles",
    "difficulty",
    "size",
    "win_length",
    "turn_timeout",
    "challenge_timeout",
    "challenge_cooldown",
    "games_per_channel",
    "language",
    "mark_x",
    "mark_o",
    "mark_empty",
    "input",
    "puzzle_channel",
    "puzzle_hour",
    "board_style",
    "tournament_role",
)
DEFAULT = N_("{value} (default)")
LABELS = {
    "channels": N_("Channels where games may start"),
    "roles": N_("Roles that may play"),
    "difficulty": N_("Default difficulty"),
    "size": N_("Default board size"),
    "win_length": N_("Default line length"),
    "turn_timeout": N_("Time for a move"),
    "challenge_timeout": N_("Time to answer a challenge"),
    "challenge_cooldown": N_("Wait between two challenges"),
    "games_per_channel": N_("Games at once per channel"),
    "language": N_("Language of the board"),
    "mark_x": N_("Mark of X"),
    "mark_o": N_("Mark of O"),
    "mark_empty": N_("Mark of an empty cell"),
    "input": N_("How players move"),
    "puzzle_channel": N_("Channel of the daily puzzle"),
    "puzzle_hour": N_("Hour of the daily puzzle"),
    "board_style": N_("How the board is drawn"),
    "tournament_role": N_("Role that may create tournaments"),
}
INPUT_NAMES = {
    "buttons": N_("buttons"),
    "reactions": N_("reactions"),
    "both": N_("buttons and reactions"),
}
STYLE_NAMES = {"emoji": N_("emoji"), "picture": N_("picture")}
ALL_CHANNELS = N_("all")
EVERYONE = N_("everyone")
NO_POST = N_("none (the daily puzzle is not posted)")
MANAGERS = N_("members with Manage Server only")
AUTO_LANGUAGE = N_("the server's language if it is a Community server, else the starter's")


def describe(conf: ServerSettings, settings: Settings, catalog: Any) -> str:
    """Every setting of a server, one per line, in the reader's language."""
    turn, challenge = applied_settings.timeouts(conf, settings)
    level = conf.difficulty or "unbeatable"
    look = conf.look()
    organizers = f"<@&{conf.tournament_role}>" if conf.tournament_role else MANAGERS
    values: dict[str, tuple[object, bool]] = {
        "channels": (", ".join(f"<#{c}>" for c in conf.channels) or ALL_CHANNELS, False),
        "roles": (applied_settings.roles(conf) or EVERYONE, False),
        "difficulty": (board.LEVEL_NAMES[level], conf.difficulty is None),
        "size": (f"{conf.size or 3}×{conf.size or 3}", conf.size is None),
        "win_length": (conf.win_length or N_("3 on 3×3, 4 on bigger boards"), False),
        "turn_timeout": (N_("{n} s", n=f"{turn:g}"), conf.turn_timeout is None),
        "challenge_timeout": (N_("{n} s", n=f"{challenge:g}"), conf.challenge_timeout is None),
        "challenge_cooldown": (
            N_("{n} s", n=f"{applied_settings.cooldown(conf, settings):g}"),
            conf.challenge_cooldown is None,
        ),
        "games_per_channel": (conf.games_per_channel or 1, conf.games_per_channel is None),
        "language": (BOARD_LANGUAGES.get(conf.language or "", AUTO_LANGUAGE), False),
        "mark_x": (look.x, conf.mark_x is None),
        "mark_o": (look.o, conf.mark_o is None),
        "mark_empty": (look.empty, conf.mark_empty is None),
        "input": (INPUT_NAMES[look.input], conf.input is None),
        "puzzle_channel": (f"<#{conf.puzzle_channel}>" if conf.puzzle_channel else NO_POST, False),
        "puzzle_hour": (f"{posting_hour(conf):02d}:00 UTC", conf.puzzle_hour is None),
        "board_style": (STYLE_NAMES[look.style], conf.board_style is None),
        "tournament_role": (organizers, False),
    }
    lines = []
    for name in SETTINGS:
        value, default = values[name]
        shown = value.render(catalog) if isinstance(value, Text) else str(value)
        if default:
            shown = DEFAULT.render(catalog).format(value=shown)
        lines.append(f"`{name}` · {LABELS[name].render(catalog)}: {shown}")
    return "\n".join(lines)
