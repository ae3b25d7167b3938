"""Deadlines coming due: an unanswered challenge expires, a player who let the clock run out
forfeits, and a game whose board was deleted unseen is abandoned.

The registry's clock calls ``due`` (see ``bot.games``); each end is saved, then shown, under the
game's lock, like every other change (``bot.flow``).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot import access, play
from bot.models import Ending, GameRecord, Status
from bot.store import StorageError

if TYPE_CHECKING:
    from bot.flow import GameFlow

log = logging.getLogger(__name__)

RETRY = 30.0  # seconds before a deadline whose result could not be saved is tried again


class Deadlines:
    """Ends the games whose deadline has passed."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.games = flow.games

    async def due(self, game_id: int) -> None:
        """The game's deadline has come: end it if, under the lock, it is still due."""
        async with self.games.lock(game_id):
            game = self.games.get(game_id)
            if game is None or not play.is_live(game) or game.deadline is None:
                return
            if game.deadline > discord.utils.utcnow():
                self.flow.arm(game)  # moved on meanwhile
                return
            after = await self._expire(game_id)
            if after is not None:
                if after.ending is not Ending.ABANDONED:  # else there is no board to edit
                    await self.flow.publish(after)
                return
        # The end could not be saved: try again a little later.
        retry = discord.utils.utcnow() + timedelta(seconds=RETRY)
        self.games.set_deadline(game_id, retry)

    async def _board_exists(self, game: GameRecord) -> bool:
        """False only when Discord says the board message is gone (any other error: True)."""
        if game.message_id is None:
            return True
        channel = self.flow.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.fetch_message(game.message_id)
        except discord.HTTPException as exc:
            return not access.board_gone(exc)
        return True

    async def _expire(self, game_id: int) -> GameRecord | None:
        """End a game whose deadline has passed (lock held); None if it was not saved."""
        game = self.games.get(game_id)
        if game is None or game.deadline is None or game.deadline > discord.utils.utcnow():
            return None  # gone, or a move came in while we waited for the lock
        if game.status is Status.CHALLENGE:
            after = play.finish(game, Ending.EXPIRED, None)
        elif not await self._board_exists(game):
            # Deleted while we were not listening (down, or a lost gateway session): nobody
            # could play it, so nobody forfeits it.
            log.info("the board of game %s is gone; the game is abandoned", game_id)
            after = play.finish(game, Ending.ABANDONED, None)
        else:
            after = play.finish(game, Ending.TIMEOUT, play.other(play.turn(game)))
        try:
            await self.flow.save(after)
        except StorageError as exc:
            log.error("could not save the end of game %s: %s", game_id, exc)
            return None
        return after
