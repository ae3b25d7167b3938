"""Replay, under a finished game: its animated replay (``bot.pictures.animation``), answered
privately to whoever clicks, with a Share button that posts it in the channel.

Either answer is the interaction's own (a deferred response, then its edit), so it reaches every
place a board does: servers with or without the bot, DMs and group DMs. A replay is drawn once
(``Painter.replay``) off the event loop, kept under ``animation.LIMIT`` (2 MiB); it goes only
within Discord's upload limit for the place (the interaction's ``attachment_size_limit``, at
least 10 MiB), else a line says it is too large. A game with no moves, or none stored, a place
where the bot may not attach files, an upload Discord refuses: one line to the clicker, one in
the log.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.cogs.games.painter import Painter, may_attach
from bot.discord_ui import board, picture, replies, time_limits
from bot.games.kinds.base import ACTION_ROW
from bot.games.record import PLAYED, GameRecord, Status
from bot.i18n import N_, Text, translation
from bot.pictures import alt_text
from bot.pictures.animation import LIMIT

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
QUIET = discord.AllowedMentions.none()  # a replay names its players without pinging them

NOT_OVER = N_("Only a finished game has a replay, and this one is not finished or no longer kept.")
NO_MOVES = N_("This game has no moves stored, so there is nothing to replay.")
NO_FILES = N_(
    "I may not attach files in this channel, so I cannot post the replay here. Someone who "
    "manages the channel can give me Attach Files."
)
TOO_LARGE = N_(
    "The replay is {size} MB, more than the {limit} MB Discord lets me upload here, so I cannot "
    "send it."
)
REFUSED = N_("Discord did not take the replay just now; try again in a moment.")
CAPTION = N_("Replay, one frame a move:")
ALT = N_("An animated replay of the game, one frame a move. At the end: {end}")


class Replays:
    """Answers Replay and Share."""

    def __init__(self, painter: Painter) -> None:
        self.painter = painter

    async def answer(
        self, interaction: Interaction, game: GameRecord | None, *, share: bool = False
    ) -> None:
        """Answer a click on Replay (privately) or on Share (in the channel) with the game's
        replay, or with the line that says why not."""
        refusal = _refusal(game, interaction, share=share)
        if refusal is not None or game is None:
            await replies.tell(interaction, refusal or NOT_OVER)
            return
        await time_limits.answer(
            interaction, interaction.response.defer(ephemeral=not share, thinking=True)
        )
        try:
            data = await self.painter.replay(game)
            limit = min(interaction.filesize_limit, LIMIT)
            if len(data) > limit:
                log.info("the replay of game %s is %s bytes, over %s", game.id, len(data), limit)
                said = Text(TOO_LARGE.msgid, {"size": _mb(len(data)), "limit": _mb(limit)})
                await self._say(interaction, replies.words(interaction, said))
                return
            await interaction.edit_original_response(**_message(game, data, share=share))
        except discord.HTTPException as exc:
            if replies.too_late(exc):
                replies.log_too_late(interaction, f"the replay of game {game.id}")
                return
            log.warning("could not send the replay of game %s: %s", game.id, exc)
            await self._say(interaction, replies.words(interaction, REFUSED))

    @staticmethod
    async def _say(interaction: Interaction, words: str) -> None:
        """Put `words` in the deferred answer (its "thinking" message)."""
        try:
            await interaction.edit_original_response(content=words)
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)


def _refusal(game: GameRecord | None, interaction: Interaction, *, share: bool) -> Any:
    """Why there is no replay to answer with (a message to translate), or None."""
    if game is None or game.status is not Status.FINISHED or game.ending not in PLAYED:
        return NOT_OVER
    if not game.moves:
        return NO_MOVES
    if share and not may_attach(interaction):
        return NO_FILES
    return None


def _message(game: GameRecord, data: bytes, *, share: bool) -> dict[str, Any]:
    """The replay's message: who played and how it ended, the replay (its alt text the end in
    words), and a Share button under a private one; all in the game's language."""
    catalog = translation(game.locale)
    alt = Text(ALT.msgid, {"end": alt_text(game, game.locale)}).render(catalog)[:1024]
    words = f"{board.header(game)}\n{board.status(game)}\n\n{CAPTION.render(catalog)}"
    below = []
    if not share:
        label, emoji, style = board.LOOKS[board.SHARE]
        shared = board.button(
            game.id,
            board.SHARE,
            label=catalog.gettext(label.msgid),
            emoji={"name": emoji},
            style=style,
        )
        below.append({"type": ACTION_ROW, "components": [shared]})
    view = picture.captioned(words, picture.REPLAY_FILE, alt, below=below)
    return {
        "view": view,
        "attachments": [picture.attachment(picture.REPLAY_FILE, data, alt)],
        "allowed_mentions": QUIET,
    }


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"
