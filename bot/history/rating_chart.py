"""What /tictactoe-stats shows under a record: the chart of the player's Elo over time (a line
per kind of game, every kind they were rated in), its key, and the features' extra lines (a
puzzle rating: ``StatLines.extra``).

All of it is extra: read and drawn within what is left of the command's 3 s (less a margin for
sending), and left out, with one log line, when the store fails or the time runs short, so the
record is always answered.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.games.stat_lines import StatLine
from bot.compute import drawing
from bot.discord_ui import time_limits
from bot.history import chart
from bot.history.board import KIND_NAMES
from bot.history.chart import chart_alt
from bot.history.store import HistoryStore
from bot.i18n import N_, Text, translation
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

SENDING = 0.8  # seconds of the window kept for sending the answer with its picture


@dataclass
class Chart:
    """The lines under the record and the chart's file (none when there is nothing to draw)."""

    line: str = ""
    files: list[discord.File] = field(default_factory=list)


async def rating_chart(
    store: HistoryStore,
    extra: Sequence[StatLine],
    interaction: discord.Interaction[Any],
    user_id: int,
) -> Chart:
    """The chart and the features' extra lines of a player in the interaction's place."""
    seconds = time_limits.left(interaction) - SENDING
    work = _chart(store, extra, interaction, user_id)
    try:
        return await asyncio.wait_for(work, max(0.0, seconds))
    except TimeoutError:
        log.info("stats of %s: no time left for the rating chart", user_id)
    except StorageError as error:
        log.debug("stats of %s: no rating chart: %s", user_id, error)
    return Chart()


async def _chart(
    store: HistoryStore,
    extra: Sequence[StatLine],
    interaction: discord.Interaction[Any],
    user_id: int,
) -> Chart:
    guild, locale = interaction.guild_id, str(interaction.locale)
    catalog = translation(locale)
    series, said = await asyncio.gather(
        store.rating_history(guild, user_id),
        asyncio.gather(*(line(guild, user_id, catalog) for line in extra)),
    )
    lines, files = [], []
    if series:
        file, key = await chart_file(series, dict(KIND_NAMES), locale)
        lines.append(N_("Elo over time: {key}", key=key).render(catalog))
        files.append(file)
    lines.extend(line for line in said if line)
    return Chart("\n".join(lines), files)


async def chart_file(
    series: chart.Series, names: Mapping[str, Text | str], locale: str | None
) -> tuple[discord.File, str]:
    """A rating chart as an attachment, and its key (each kind's colour square and name)."""
    data = await drawing.draw(lambda: chart.chart(series))
    catalog = translation(locale)
    said = {k: (v if isinstance(v, str) else v.render(catalog)) for k, v in names.items()}
    shown = [kind for kind, points in series.items() if points]
    key = " · ".join(
        f"{swatch} {said.get(kind, kind)}" for kind, (_, swatch) in chart.colours(shown).items()
    )
    alt = chart_alt(series, names, locale)
    return discord.File(io.BytesIO(data), "rating.png", description=alt), key
