"""What /tictactoe-stats shows under a record: the chart of the player's Elo over time (a line
per kind of game, every kind they were rated in), its key, and their puzzle rating.

All of it is extra: read and drawn within what is left of the command's 3 s (less a margin for
sending), and left out, with one log line, when the store fails or the time runs short, so the
record is always answered.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui import window
from bot.discord_ui.history import KIND_NAMES
from bot.discord_ui.picture import chart_file
from bot.i18n import N_, NP_, translation
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

SENDING = 0.8  # seconds of the window kept for sending the answer with its picture


@dataclass
class Chart:
    """The lines under the record and the chart's file (none when there is nothing to draw)."""

    line: str = ""
    files: list[discord.File] = field(default_factory=list)


async def rating_chart(store: Store, interaction: discord.Interaction[Any], user_id: int) -> Chart:
    """The chart and the puzzle rating of a player in the interaction's place."""
    seconds = window.left(interaction) - SENDING
    try:
        return await asyncio.wait_for(_chart(store, interaction, user_id), max(0.0, seconds))
    except TimeoutError:
        log.info("stats of %s: no time left for the rating chart", user_id)
    except StorageError as error:  # the store said the outage once
        log.debug("stats of %s: no rating chart: %s", user_id, error)
    return Chart()


async def _chart(store: Store, interaction: discord.Interaction[Any], user_id: int) -> Chart:
    guild, locale = interaction.guild_id, str(interaction.locale)
    series, puzzles = await asyncio.gather(
        store.rating_history(guild, user_id), store.puzzle_player(guild, user_id)
    )
    catalog = translation(locale)
    lines, files = [], []
    if series:
        file, key = await chart_file(series, dict(KIND_NAMES), locale)
        lines.append(N_("Elo over time: {key}", key=key).render(catalog))
        files.append(file)
    if puzzles.attempts:
        lines.append(NP_("Puzzle rating: **{rating}** ({n} puzzle)",
                         "Puzzle rating: **{rating}** ({n} puzzles)", puzzles.attempts,
                         rating=f"{puzzles.rating.rating:.0f}").render(catalog))  # fmt: skip
    return Chart("\n".join(lines), files)
