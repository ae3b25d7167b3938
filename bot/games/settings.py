"""A server's own settings for games: where and who may play, the defaults of /tictactoe, the
clocks, games at once per channel, the language of the shared board, its look (the marks, moves
by buttons, reactions or both, the board as emoji or a picture), and where and when the daily
puzzle is posted.

Pure values. Every setting a server has not set is None (or empty) and means "the bot's own
default" (from the environment, see ``bot.config``). Stored as a JSON object of the settings
that are set, so a new setting needs no schema change.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import engine
from bot.games import look as looks
from bot.games.look import Look

# Sane bounds (seconds) for what a server may choose.
TURN_TIMEOUT = (30, 86_400)
CHALLENGE_TIMEOUT = (15, 3_600)
CHALLENGE_COOLDOWN = (0, 3_600)
GAMES_PER_CHANNEL = (1, 10)
PUZZLE_HOUR = (0, 23)  # the hour (UTC) of the daily puzzle's post
DEFAULT_PUZZLE_HOUR = 0  # a new day's puzzle is posted as the day begins (UTC)
MAX_LISTED = 25  # channels or roles a server may list (keeps /tictactoe-settings show readable)
# The board languages a server can choose: the Discord locales with a catalog, and English.
BOARD_LANGUAGES = {
    "en-US": "English",
    "de": "Deutsch",
    "es-ES": "Español",
    "fr": "Français",
    "id": "Bahasa Indonesia",
    "it": "Italiano",
    "nl": "Nederlands",
    "pl": "Polski",
    "pt-BR": "Português do Brasil",
    "ru": "Русский",
    "th": "ไทย",
    "tr": "Türkçe",
    "uk": "Українська",
    "vi": "Tiếng Việt",
    "ja": "日本語",
    "ko": "한국어",
    "zh-CN": "中文",
}


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What one server chose; None or empty: the bot's default."""

    channels: tuple[int, ...] = ()  # where games may start (empty: everywhere)
    roles: tuple[int, ...] = ()  # who may play (empty: everyone)
    difficulty: str | None = None
    size: int | None = None
    win_length: int | None = None
    turn_timeout: int | None = None
    challenge_timeout: int | None = None
    challenge_cooldown: int | None = None
    games_per_channel: int | None = None
    language: str | None = None
    mark_x: str | None = None  # an emoji's text (see ``bot.games.look``)
    mark_o: str | None = None
    mark_empty: str | None = None
    input: str | None = None  # "buttons", "reactions" or "both"
    puzzle_channel: int | None = None  # where the daily puzzle is posted (None: not posted)
    puzzle_hour: int | None = None  # at which hour, UTC (None: DEFAULT_PUZZLE_HOUR)
    tournament_role: int | None = None  # whose members may create tournaments (and Manage Server)
    board_style: str | None = None  # "emoji" or "picture"

    def look(self) -> Look:
        """The look a new board of this server takes."""
        return Look(
            x=self.mark_x or looks.DEFAULT.x,
            o=self.mark_o or looks.DEFAULT.o,
            empty=self.mark_empty or looks.DEFAULT.empty,
            input=self.input or looks.DEFAULT.input,
            style=self.board_style or looks.DEFAULT.style,
        )

    def to_json(self) -> str:
        """The settings that are set, as a JSON object."""
        set_ = {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in dataclasses.asdict(self).items()
            if value not in (None, (), [])
        }
        return json.dumps(set_, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ServerSettings:
        """Read `to_json`'s object back; unknown or malformed entries are left out."""
        raw: Any = json.loads(text)
        if not isinstance(raw, dict):
            return cls()
        known: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            value = raw.get(f.name)
            if isinstance(value, list):
                known[f.name] = tuple(int(v) for v in value)
            elif isinstance(value, int | str) and not isinstance(value, bool):
                known[f.name] = value
        return validated(cls(**known))


DEFAULTS = ServerSettings()  # a server that set nothing


def posting_hour(settings: ServerSettings) -> int:
    """The hour (UTC) at which the server's daily puzzle is posted."""
    return DEFAULT_PUZZLE_HOUR if settings.puzzle_hour is None else settings.puzzle_hour


def validated(settings: ServerSettings) -> ServerSettings:
    """The settings with every value out of its bounds dropped (back to the default)."""

    def within(value: int | None, bounds: tuple[int, int]) -> int | None:
        return value if value is not None and bounds[0] <= value <= bounds[1] else None

    size = settings.size if settings.size in engine.SIZES else None
    k = settings.win_length
    k = k if k is not None and 3 <= k <= max(engine.SIZES) else None
    return dataclasses.replace(
        settings,
        channels=tuple(dict.fromkeys(settings.channels))[:MAX_LISTED],
        roles=tuple(dict.fromkeys(settings.roles))[:MAX_LISTED],
        difficulty=settings.difficulty if settings.difficulty in engine.LEVELS else None,
        size=size,
        win_length=k,
        turn_timeout=within(settings.turn_timeout, TURN_TIMEOUT),
        challenge_timeout=within(settings.challenge_timeout, CHALLENGE_TIMEOUT),
        challenge_cooldown=within(settings.challenge_cooldown, CHALLENGE_COOLDOWN),
        games_per_channel=within(settings.games_per_channel, GAMES_PER_CHANNEL),
        language=settings.language if settings.language in BOARD_LANGUAGES else None,
        mark_x=_mark(settings.mark_x),
        mark_o=_mark(settings.mark_o),
        mark_empty=_mark(settings.mark_empty),
        input=settings.input if settings.input in looks.INPUTS else None,
        puzzle_hour=within(settings.puzzle_hour, PUZZLE_HOUR),
        board_style=settings.board_style if settings.board_style in looks.STYLES else None,
    )


def _mark(text: str | None) -> str | None:
    return text if text is not None and looks.is_mark(text) else None
