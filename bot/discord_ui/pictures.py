"""Pictures as Discord attachments: a game's board (PNG) and replay (GIF), a rating chart (PNG),
each with its alt text in the reader's language as the attachment's description, drawn off the
event loop (``bot.compute.drawing``); and which refusals of an upload are Discord's to give."""

from __future__ import annotations

import io
from collections.abc import Mapping

import discord

from bot.compute import drawing
from bot.games.record import GameRecord
from bot.i18n import Text, translation
from bot.pictures import chart
from bot.pictures.words import alt_text, chart_alt, replay_alt

PAYLOAD_TOO_LARGE = 40005  # Discord's code for an upload over the place's limit


async def game_files(game: GameRecord, locale: str | None) -> list[discord.File]:
    """A game's board as it ended (or is now) and its replay, as attachments."""
    png = await drawing.board(game)
    gif = await drawing.replay(game)
    return [
        discord.File(io.BytesIO(png), f"game-{game.id}.png",
                     description=alt_text(game, locale)),
        discord.File(io.BytesIO(gif), f"game-{game.id}-replay.gif",
                     description=replay_alt(game, locale)),
    ]  # fmt: skip


async def chart_file(series: chart.Series, names: Mapping[str, Text | str],
                     locale: str | None) -> tuple[discord.File, str]:  # fmt: skip
    """A rating chart as an attachment, and its key (each kind's colour square and name)."""
    data = await drawing.draw(lambda: chart.chart(series))
    catalog = translation(locale)
    said = {k: (v if isinstance(v, str) else v.render(catalog)) for k, v in names.items()}
    shown = [kind for kind, points in series.items() if points]
    key = " · ".join(f"{swatch} {said.get(kind, kind)}"
                     for kind, (_, swatch) in chart.colours(shown).items())  # fmt: skip
    alt = chart_alt(series, names, locale)
    return discord.File(io.BytesIO(data), "rating.png", description=alt), key


def upload_refused(error: BaseException) -> bool:
    """Whether Discord refused an upload for reasons of its own: too large for the place, a
    5xx, a rate limit it would not let discord.py wait out. An expected condition: one line."""
    if not isinstance(error, discord.HTTPException):
        return False
    return error.status in (413, 429) or error.status >= 500 or error.code == PAYLOAD_TOO_LARGE
