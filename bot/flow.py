"""Everything that changes a game: opening it, moves, the engine's replies, its deadline's clock.

Each change follows one order, under the game's lock: read the game again, validate, save, then
show. A move is never shown before it is stored, and a save that fails leaves the game (and the
message) as it was. Edits made long after a click (deadlines, restarts) go through the channel
message, since an interaction token lives only 15 minutes. What happens when a deadline comes due
is in ``bot.deadlines``.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import access, play, render
from bot.deadlines import Deadlines
from bot.games import GameRegistry
from bot.models import Ending, GameRecord, Status
from bot.store import StorageError

if TYPE_CHECKING:
    from bot.client import TicTacToeBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NOT_SAVED = "Sorry, I could not save that just now, so nothing changed. Please try again."
AI_NOT_SAVED = "Sorry, I could not save my move. Click any free cell and I will try again."
UNSHOWN = (
    "Saved, but Discord would not let me update the board just now; "
    "it will catch up with the next click."
)
BOARD_GONE = (
    "The board message was deleted, so this game has ended. Start a new one with /tictactoe."
)
MAX_ID = 2**63 - 1  # the largest id SQLite can store
BOARD = "ttt-board"  # in Interaction.extras: the interaction's response is the board message


class GameFlow:
    """Applies changes to games and shows them; the cog decides which change a click asks for."""

    def __init__(self, bot: TicTacToeBot, games: GameRegistry) -> None:
        self.bot = bot
        self.games = games
        self.deadlines = Deadlines(self)
        games.on_due = self.deadlines.due

    # ------------------------------------------------------------ plumbing

    async def load(self, game_id: int) -> GameRecord | None:
        """The game from memory, or from the store (finished games live only there)."""
        if not 0 < game_id <= MAX_ID:
            return None  # a forged id no game can have (SQLite could not even look it up)
        return self.games.get(game_id) or await self.bot.store.load_game(game_id)

    async def save(self, game: GameRecord) -> None:
        """Store the game, then remember it and (re)arm its deadline. StorageError propagates."""
        await self.bot.store.save_game(game)
        self.games.put(game)
        self.arm(game)

    def turn_deadline(self) -> datetime:
        """When the player who is to move now forfeits."""
        return discord.utils.utcnow() + timedelta(seconds=self.bot.settings.turn_timeout)

    def challenge_deadline(self) -> datetime:
        """When a challenge made now expires."""
        return discord.utils.utcnow() + timedelta(seconds=self.bot.settings.challenge_timeout)

    def clocked(self, game: GameRecord) -> GameRecord:
        """The game with the right deadline for its state: none while the engine is to move."""
        if game.status is Status.CHALLENGE:
            return play.with_deadline(game, game.deadline or self.challenge_deadline())
        if game.status is Status.ACTIVE and not play.ai_to_move(game):
            return play.with_deadline(game, self.turn_deadline())
        return play.with_deadline(game, None)

    async def show(self, game: GameRecord, interaction: Interaction | None = None) -> None:
        """Edit the board message: through the interaction while it is fresh, else the channel.

        The interaction is used only when its response is the board (a click that updated it, or
        the command that posted it); otherwise its original response is a private note.
        """
        layout = render.view(game)
        on_board = interaction is not None and interaction.extras.get(BOARD, False)
        if interaction is not None and on_board and not interaction.is_expired():
            try:
                await interaction.edit_original_response(view=layout)
                return
            except discord.HTTPException:
                log.warning("editing game %s via its interaction failed", game.id, exc_info=True)
        if game.message_id is None:
            return
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        await channel.get_partial_message(game.message_id).edit(view=layout)

    async def publish(self, game: GameRecord, interaction: Interaction | None = None) -> bool:
        """Show the game (lock held); True if the board now shows it.

        If Discord refuses, the stored game stays as it is: a deleted board ends the game as
        abandoned, anything else leaves the board stale until the next click repairs it. The
        clicker, if any, is told why privately.
        """
        try:
            await self.show(game, interaction)
        except discord.HTTPException as exc:
            await self.unshown(game, exc, interaction)
            return False
        self.games.stale.discard(game.id)
        return True

    async def unshown(
        self, game: GameRecord, error: discord.HTTPException, interaction: Interaction | None
    ) -> None:
        """Deal with a board that could not be edited (lock held) and tell the clicker why."""
        if access.board_gone(error):
            log.warning("the board of game %s is gone (%s); the game is abandoned", game.id, error)
            if play.is_live(game):
                await self._drop(game)
            self.games.stale.discard(game.id)
            text = BOARD_GONE
        else:
            log.warning("could not edit the board of game %s: %s", game.id, error)
            self.games.stale.add(game.id)
            forbidden = isinstance(error, discord.Forbidden) and interaction is not None
            text = access.cannot_show(interaction, error) if forbidden else UNSHOWN  # type: ignore[arg-type]
        if interaction is not None:
            await self.tell_safely(interaction, text)

    async def repair(self, game_id: int) -> None:
        """Show the stored game on a board whose last edit failed (through the channel)."""
        async with self.games.lock(game_id):
            if game_id not in self.games.stale:
                return
            game = await self.load(game_id)
            if game is None:
                self.games.stale.discard(game_id)
                return
            await self.publish(game)

    @staticmethod
    async def tell(interaction: Interaction, text: str) -> None:
        """A private answer to the clicker."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    @classmethod
    async def tell_safely(cls, interaction: Interaction, text: str) -> None:
        """A private answer that may fail (Discord down, token expired): logged, not raised."""
        try:
            await cls.tell(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)

    # --------------------------------------------------------------- games

    async def open(self, interaction: Interaction, game: GameRecord) -> GameRecord | None:
        """Save a new game in a channel the caller reserved, post its message, start the engine.

        The game's id must already come from the store. Returns the game as shown, or None when
        it could not be saved (the reservation is given back and the user told).
        """
        game = self.clocked(game)
        try:
            await self.save(game)
        except StorageError as exc:
            log.error("could not save new game %s: %s", game.id, exc)
            self.games.release(game.channel_id)
            await self.tell(interaction, NOT_SAVED)
            return None
        try:
            sent = await interaction.response.send_message(view=render.view(game))
            interaction.extras[BOARD] = True
            message_id = sent.message_id or (await interaction.original_response()).id
        except BaseException:
            # No message, so nobody can play it: let the channel go.
            await self._drop(game)
            raise
        game = dataclasses.replace(game.copy(), message_id=message_id)
        try:
            await self.save(game)
        except StorageError as exc:
            # The game goes on in memory; only a restart would lose track of its message.
            log.error("could not store the message id of game %s: %s", game.id, exc)
        if play.ai_to_move(game):
            await self.ai_move(game.id, interaction)
        return game

    async def abandon(self, game_id: int, message_ids: set[int]) -> None:
        """End a live game whose board (one of `message_ids`) was deleted; nobody wins."""
        async with self.games.lock(game_id):
            game = self.games.get(game_id)
            if game is None or game.message_id not in message_ids:
                return
            log.info("the board of game %s was deleted; the game is abandoned", game_id)
            await self._drop(game)
            self.games.stale.discard(game_id)

    async def _drop(self, game: GameRecord) -> None:
        dropped = play.finish(game, Ending.ABANDONED, None)
        self.games.put(dropped)
        self.arm(dropped)
        try:
            await self.bot.store.save_game(dropped)
        except StorageError as exc:
            log.error("could not mark game %s abandoned: %s", game.id, exc)

    async def change(self, interaction: Interaction, after: GameRecord) -> bool:
        """Save a changed game and show it as this click's response; False if it was not saved.

        Call with the game's lock held.
        """
        after = self.clocked(after)
        try:
            await self.save(after)
        except StorageError as exc:
            log.error("could not save game %s: %s", after.id, exc)
            await self.tell(interaction, NOT_SAVED)
            return False
        try:
            await interaction.response.edit_message(view=render.view(after))
        except discord.HTTPException as exc:
            await self._answer_unshown(interaction, after, exc)
        else:
            interaction.extras[BOARD] = True
            self.games.stale.discard(after.id)
        return True

    async def _answer_unshown(
        self, interaction: Interaction, game: GameRecord, error: discord.HTTPException
    ) -> None:
        """The click's board update failed after the change was saved: answer it exactly once.

        A passing failure (a 5xx, a rate limit) may spare the channel's edit endpoint, so that
        is tried at once; if it shows the board, the click is acknowledged without a word.
        """
        log.warning("could not update the board of game %s with the click: %s", game.id, error)
        if isinstance(error, discord.Forbidden) or access.board_gone(error):
            await self.unshown(game, error, interaction)
            return
        if await self.publish(game):
            try:
                await interaction.response.defer()
                interaction.extras[BOARD] = True
            except discord.HTTPException:
                log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)
            return
        await self.tell_safely(interaction, UNSHOWN)

    # -------------------------------------------------------------- engine

    async def ai_move(self, game_id: int, interaction: Interaction | None = None) -> None:
        """Compute the engine's move off the event loop, then save and show it.

        The lock is not held while the engine thinks, so Resign still works; the move is applied
        only if the game is still where it was.
        """
        if game_id in self.games.thinking:
            return
        self.games.thinking.add(game_id)
        try:
            game = self.games.get(game_id)
            if game is None or not play.ai_to_move(game):
                return
            board = play.board_of(game)
            try:
                cell = await self.bot.engine.best_move(board, level=game.ai_level or "unbeatable")
            except Exception:
                # A broken search must not freeze the game: any legal move keeps it going.
                log.exception("engine failed in game %s; playing a random move", game_id)
                cell = random.choice(board.legal_moves())
            async with self.games.lock(game_id):
                current = self.games.get(game_id)
                if current is None or current.moves != game.moves or not play.ai_to_move(current):
                    return  # resigned, timed out or restarted meanwhile
                after = self.clocked(play.play(current, cell))
                try:
                    await self.save(after)
                except StorageError as exc:
                    log.error("could not save the engine's move in game %s: %s", game_id, exc)
                    if interaction is not None and not interaction.is_expired():
                        await interaction.followup.send(AI_NOT_SAVED, ephemeral=True)
                    return
                await self.publish(after, interaction)
        finally:
            self.games.thinking.discard(game_id)

    # ------------------------------------------------------------ deadlines

    def arm(self, game: GameRecord) -> None:
        """Set (or clear) the game's deadline on the registry's clock."""
        live = play.is_live(game) and game.deadline is not None
        self.games.set_deadline(game.id, game.deadline if live else None)
