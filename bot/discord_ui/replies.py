"""Private replies to an interaction: a refusal, a note, or the apology for a failure, in the
language of the person who clicked or ran the command (``interaction.locale``); and the answer
that launches the app's Activity instead.

Each answers exactly once: as the interaction's response if it has none yet, else as a
followup. discord.py only logs an exception raised in a listener (the user would see "This
interaction failed"), so every failure path ends here.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from bot.discord_ui import time_limits
from bot.i18n import N_, Text, translation

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

SORRY = N_("Sorry, something went wrong on my side; it has been logged. Please try again.")
UNKNOWN_INTERACTION = 10062  # Discord's answer to a response that came after its 3 seconds
# What a call to Discord raises when it fails: refused (an HTTPException: a 5xx, a missing
# permission) or never answered (aiohttp's ClientError: no network, a connection cut or reset,
# a read that timed out). Work that can wait for Discord (a tournament's thread) says one line.
# Nothing broader: an OSError or TimeoutError of the bot's own is a bug, and keeps its traceback.
CALL_FAILED = (discord.HTTPException, aiohttp.ClientError)


def describe(error: BaseException) -> str:
    """A failed call in a few words for its one log line (its kind, for an error that has none:
    a ``TimeoutError``)."""
    return str(error) or type(error).__name__


def too_late(error: BaseException) -> bool:
    """Whether Discord refused an answer because its interaction had expired (10062): the bot
    was held up (a stalled process, a slow network) past the 3 seconds Discord waits. An
    expected condition: the token is dead, nothing more can be said through it. So is an
    answer the bot gave up on as its window closed (``time_limits.Unanswered``)."""
    if isinstance(error, time_limits.Unanswered):
        return True
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def discords_trouble(error: BaseException) -> bool:
    """Whether Discord failed or refused an answer for reasons of its own (a 5xx, a rate limit
    it would not let discord.py wait out), because it came too late, or never got it (no
    network, a connection cut): expected conditions, worth one line each. Anything else it
    refuses (a 400 for a malformed answer) is a bug."""
    if isinstance(error, aiohttp.ClientError):
        return True
    if not isinstance(error, discord.HTTPException):
        return False
    return error.status >= 500 or error.status == 429 or too_late(error)


def log_too_late(interaction: Interaction, what: str) -> None:
    """The one line an answer refused as too late is worth."""
    log.warning("%s: interaction %s had expired, Discord refused the answer", what, interaction.id)


def words(interaction: Interaction, text: Text | str) -> str:
    """A message in the language of the person who clicked (a str is sent as it is)."""
    if isinstance(text, str):
        return text
    return text.render(translation(str(interaction.locale)))


async def tell(interaction: Interaction, text: Text | str) -> None:
    """A private answer to the person who clicked or ran the command, in their language."""
    text = words(interaction, text)
    try:
        if interaction.response.is_done():
            await time_limits.call(interaction.followup.send(text, ephemeral=True), "a follow-up")
        else:
            await time_limits.answer(
                interaction, interaction.response.send_message(text, ephemeral=True)
            )
    except (discord.NotFound, time_limits.Unanswered) as error:
        if not too_late(error):
            raise
        log_too_late(interaction, "a private answer")  # nothing more can be said through it


async def tell_safely(interaction: Interaction, text: Text | str) -> None:
    """A private answer that may fail (Discord down, token expired): logged, not raised."""
    try:
        await tell(interaction, text)
    except CALL_FAILED as error:  # Discord's refusal or a network's, said in one line: no bug
        log.warning("could not answer interaction %s: %s", interaction.id, describe(error))


async def apologize(interaction: Interaction, text: Text | str = SORRY) -> None:
    """Answer privately that something failed, whether or not the interaction was answered."""
    await tell_safely(interaction, text)


async def launch(interaction: Interaction) -> str | None:
    """Answer by launching the app's Activity (LAUNCH_ACTIVITY); the instance launched, or None
    if Discord refused or never answered (one log line), then apologizing if it still can."""
    try:
        launched = await time_limits.answer(interaction, interaction.response.launch_activity())
    except CALL_FAILED as error:
        if too_late(error):
            log_too_late(interaction, "launching the Activity")
            return None
        log.warning(
            "could not launch the Activity for interaction %s: %s", interaction.id, describe(error)
        )
        await apologize(interaction)
        return None
    return launched.activity_id
