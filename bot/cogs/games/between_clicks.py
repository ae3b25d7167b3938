"""What happens to live games without a click: restored at start-up, ended when their deadline
comes (an unanswered challenge expires, a player who let the clock run out forfeits), abandoned
when their board is deleted.

A deadline coming due is an event (``DEADLINE``) that the clock (``bot.live.deadlines``) raises
through ``bot.dispatch``; each end is saved, then shown, under the game's lock, like every other
change. A deadline whose end cannot be saved (the database is away) is tried again every
`RETRY` seconds; since nobody could play meanwhile, the player to move (or the challenged
member) then gets a full turn from the moment the database is back, instead of losing by the
clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import datetime, timedelta

import discord
from discord.ext import commands

from bot.cogs.games.events import DEADLINE
from bot.cogs.games.flow import GameFlow
from bot.discord_ui import readback
from bot.games import rules
from bot.games.record import Ending, GameRecord, Status
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

RETRY = 2.0  # seconds before a deadline whose result could not be saved is tried again
DRAIN = 5.0  # seconds a shutdown waits for the changes in flight


class BoardWatch(commands.Cog):
    """Live games between clicks: restored, timed out, or abandoned."""

    def __init__(self, *, client: commands.Bot, live: Live, flow: GameFlow) -> None:
        self.client = client
        self.live = live
        self.flow = flow
        # Games whose deadline fell while the database was away, and that deadline: given their
        # time back (a game that moved on since has a deadline of its own).
        self._postponed: dict[int, datetime] = {}

    async def cog_load(self) -> None:
        """Pick up the games that were live at shutdown; a deadline already past fires at once.

        With shards across processes, only the games of this process's servers (and direct
        messages, on the process holding shard 0): the other processes clock their own.
        """
        owns = self.flow.settings.shards.owns
        for game in await self.flow.store.live_games():
            if not owns(game.guild_id):
                continue
            self.live.restore(game)
            if rules.ai_to_move(game):
                self.live.tasks.spawn(self._resume(game.id), name=f"ttt-resume-{game.id}")
        log.info("%d live games restored", len(self.live.games.live()))

    async def _resume(self, game_id: int) -> None:
        await self.client.wait_until_ready()
        await self.flow.ai_move(game_id)

    async def cog_unload(self) -> None:
        """Let the changes in flight be saved and shown (an engine move takes about a second),
        then stop every timer; the games stay in the store for the next start."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + DRAIN
        while (self.live.locks.any_held() or self.flow.thinking.busy()) and loop.time() < give_up:
            await asyncio.sleep(0.05)
        self.live.close()

    # ------------------------------------------------------------ deadlines

    @commands.Cog.listener(f"on_{DEADLINE}")
    async def on_deadline(self, game_id: int) -> None:
        """The game's deadline has come: end it if, under the lock, it is still due."""
        async with self.live.locks(game_id):
            game = self.live.games.get(game_id)
            if game is None or game.deadline is None:
                return
            if game.deadline > self.live.clock.now():
                self.live.games.put(game)  # moved on meanwhile: re-arm
                return
            if self._postponed.pop(game_id, None) == game.deadline:
                after = await self._time_back(game)
            else:
                after = await self._expire(game)
            if after is not None:
                if after.ending is not Ending.ABANDONED:  # else there is no board to edit
                    await self.flow.showing.publish(after)
                return
        # Nothing could be saved: the database is away. The deadline fell while nobody could
        # play (every click was refused), so once it is back the player gets the turn again.
        if game is not None and game.deadline is not None:
            self._postponed[game_id] = game.deadline
        self.live.clock.set(game_id, self.live.clock.now() + timedelta(seconds=RETRY))

    async def _time_back(self, game: GameRecord) -> GameRecord | None:
        """A full turn (or a full challenge) from now for a game whose deadline fell while the
        database was away (lock held); None if it still cannot be saved."""
        try:
            return await self.flow.commit(dataclasses.replace(game, deadline=None))
        except StorageError as exc:
            log.debug("the database is still away for game %s: %s", game.id, exc)
            return None

    async def _expire(self, game: GameRecord) -> GameRecord | None:
        """End a game whose deadline has passed (lock held); None if it was not saved."""
        if game.status is Status.CHALLENGE:
            after = rules.finish(game, Ending.EXPIRED, None)
        elif not game.interactions_only and not await readback.board_exists(self.client, game):
            # Deleted while we were not listening (down, or a lost gateway session): nobody
            # could play it, so nobody forfeits it.
            log.info("the board of game %s is gone; the game is abandoned", game.id)
            after = rules.finish(game, Ending.ABANDONED, None)
        else:
            after = rules.finish(game, Ending.TIMEOUT, rules.other(rules.turn(game)))
        try:
            return await self.flow.commit(after)
        except StorageError as exc:
            log.debug("could not save the end of game %s: %s", game.id, exc)
            return None

    # ------------------------------------------------------- deleted boards

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deleted board ends its game (abandoned, counted for nobody) and frees the channel."""
        await self._board_deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Several messages deleted at once: the same, for a board among them."""
        await self._board_deleted(payload.channel_id, payload.message_ids)

    async def _board_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        # Decided under each game's lock, on the game as it is then: a new board's message id
        # may be being saved as the deletion arrives.
        for game in self.live.games.games_in(channel_id):
            async with self.live.locks(game.id):
                current = self.live.games.get(game.id)
                if current is None or current.message_id not in message_ids:
                    continue
                log.info("the board of game %s was deleted; the game is abandoned", game.id)
                await self.flow.abandon(current, message_ids)
