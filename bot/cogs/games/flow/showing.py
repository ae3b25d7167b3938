"""Showing games on their boards, and the one writer of whether each board shows its game.

A board is edited through the interaction whose response it is while that token is fresh, else
through the channel. A game where the bot has no channel (``GameRecord.interactions_only``: an
app installed to a person's account) is shown only through interactions: edits without a click
of their own go through the newest interaction whose response is its board, kept in memory while
its token lives (never stored). With none, the board is behind until the next click, which
shows it. Every change of a board's status (``bot.live.boards``) is made here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.games.painter import Painter
from bot.cogs.games.texts import BOARD_GONE, UNSHOWN
from bot.discord_ui import access, board, readback, replies, time_limits
from bot.games import rules
from bot.games.record import GameRecord
from bot.live.boards import BoardStatus

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class Showing:
    """Edits boards, and keeps their status: behind their game, or showing it."""

    def __init__(
        self,
        *,
        client: discord.Client,
        boards: BoardStatus,
        abandon: Callable[[GameRecord], Awaitable[None]],
    ) -> None:
        self.client = client
        self.boards = boards
        self._abandon = abandon  # ends a game whose board is gone (``GameFlow.abandon``)
        self.painter = Painter(client)  # the boards drawn as pictures, and replays
        # game id -> the newest interaction whose response is its board, for games shown only
        # through interactions; memory only, so a token is never stored.
        self._tokens: dict[int, Interaction] = {}

    # ------------------------------------------------------------ status

    def fell_behind(self, game_id: int) -> None:
        self.boards.fell_behind(game_id)

    def caught_up(self, game_id: int) -> None:
        self.boards.caught_up(game_id)

    def checked(self, interaction: Interaction, game: GameRecord, *, check: bool) -> bool:
        """Whether the game's board is behind; with `check`, the clicked message is compared
        with the stored game first, and found behind if it does not show it."""
        if check and not readback.shows(interaction.message, game):
            self.fell_behind(game.id)
        return self.boards.is_behind(game.id)

    def note_board(self, game: GameRecord, interaction: Interaction) -> None:
        """Remember `interaction`, whose response is the board of `game`, as the way to edit it
        later, where nothing else reaches it (an interactions-only game)."""
        if game.interactions_only:
            self._tokens[game.id] = interaction

    def forget_board(self, game_id: int) -> None:
        """The game's board is gone: no interaction reaches it, and it is behind nothing."""
        self._tokens.pop(game_id, None)
        self.caught_up(game_id)

    # ------------------------------------------------------------ editing

    async def show(self, game: GameRecord, interaction: Interaction | None = None) -> bool:
        """Edit the board message: through `interaction` (whose response is the board) while it
        is fresh, else through the channel; False when nothing could reach it (a game shown only
        through interactions, with no live token)."""
        drawn = await self.painter.drawn(game)
        if interaction is None and game.interactions_only:
            interaction = self._tokens.get(game.id)
        if interaction is not None and not interaction.is_expired():
            try:
                edit = interaction.edit_original_response
                await self.painter.send(drawn, lambda **kw: time_limits.call(edit(**kw)))
                if not rules.is_live(game):
                    self._tokens.pop(game.id, None)
                return True
            except discord.HTTPException as exc:  # its token died, or Discord failed: one line
                log.warning("editing game %s via its interaction failed: %s", game.id, exc)
                if game.interactions_only and replies.discords_trouble(exc):
                    raise  # a passing failure: tried again while the token lives
        if game.interactions_only:
            log.info("game %s is shown at its next click: no interaction reaches it", game.id)
            return False
        if game.message_id is not None:
            channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            message = channel.get_partial_message(game.message_id)
            await self.painter.send(drawn, lambda **kw: time_limits.call(message.edit(**kw)))
        return True

    async def publish(
        self, game: GameRecord, interaction: Interaction | None = None, *, on_board: bool = False
    ) -> bool:
        """Show the game (lock held), through `interaction` if its response is the board
        (`on_board`); True if the board now shows it. If Discord refuses, the stored game stays:
        a deleted board ends the game as abandoned, anything else leaves the board behind (it
        catches up in the background). The clicker, if any, is told why privately."""
        try:
            shown = await self.show(game, interaction if on_board else None)
        except discord.HTTPException as exc:
            await self.unshown(game, exc, interaction)
            return False
        if shown:
            self.caught_up(game.id)
        else:
            self.fell_behind(game.id)
        return shown

    async def answer_with_board(self, interaction: Interaction, game: GameRecord) -> bool:
        """Answer a click with its board showing the game as stored (lock held): how a board
        that is behind catches up where only interactions reach it. False if Discord refused."""
        try:
            await self.painter.update(interaction, game)
        except discord.HTTPException as exc:
            log.warning("could not show game %s with a click: %s", game.id, exc)
            return False
        self.answered(game, interaction)
        return True

    async def answer_click(self, interaction: Interaction, game: GameRecord) -> bool:
        """Answer a click with the board showing its change, saved (lock held); False, the
        click answered all the same, when the board could not show it."""
        try:
            if game.look.picture:
                await self.painter.update(interaction, game)
            else:  # an emoji board: nothing to draw on a click's path
                await time_limits.update(interaction, view=board.view(game))
        except discord.HTTPException as exc:
            return await self._answer_unshown(interaction, game, exc)
        self.answered(game, interaction)
        return True

    def answered(self, game: GameRecord, interaction: Interaction) -> None:
        """The response to `interaction` is the board, showing the stored game."""
        self.boards.caught_up(game.id)
        if game.interactions_only:
            self._tokens[game.id] = interaction

    async def unshown(
        self, game: GameRecord, error: discord.HTTPException, interaction: Interaction | None
    ) -> None:
        """Deal with a board that could not be edited (lock held) and tell the clicker why."""
        if access.board_gone(error):
            log.warning("the board of game %s is gone (%s); the game is abandoned", game.id, error)
            await self._abandon(game)
            text = BOARD_GONE
        else:
            log.warning("could not edit the board of game %s: %s", game.id, error)
            self.fell_behind(game.id)
            text = UNSHOWN
            if isinstance(error, discord.Forbidden) and interaction is not None:
                text = access.cannot_show(interaction, error)
        if interaction is not None:
            await replies.tell_safely(interaction, text)

    async def _answer_unshown(
        self, interaction: Interaction, game: GameRecord, error: discord.HTTPException
    ) -> bool:
        """The click's board update failed after the change was saved: answer it exactly once.
        A passing failure (a 5xx, a rate limit) may spare the channel's edit endpoint, so that
        is tried at once; if it shows the board, the click is acknowledged without a word."""
        log.warning("could not update the board of game %s with the click: %s", game.id, error)
        if replies.too_late(error):  # no answer can count now: the board catches up
            self.fell_behind(game.id)
            return False
        if isinstance(error, discord.Forbidden) or access.board_gone(error):
            await self.unshown(game, error, interaction)
            return False
        if await self.publish(game):
            try:
                await time_limits.answer(interaction, interaction.response.defer())
                self.note_board(game, interaction)
                return True
            except discord.HTTPException as late:
                if replies.too_late(late):
                    replies.log_too_late(interaction, f"the click on game {game.id}")
                else:
                    log.warning("could not acknowledge interaction %s: %s", interaction.id, late)
                return False
        await replies.tell_safely(interaction, UNSHOWN)
        return False
