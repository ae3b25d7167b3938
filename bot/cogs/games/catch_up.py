"""Boards the store is ahead of, shown without anyone's click.

A board whose last edit failed (a 5xx, a 429 past its Retry-After, a dropped connection, an
answer given up on as its click's window closed) is marked behind (``bot.live.boards``), which
reports it here (the event ``BEHIND``). Each is tried again in the background after a growing pause,
until Discord shows it or the message is gone: one bounded edit a try, under the game's lock, of
the game as it is then. A game shown only through interactions (a user install) is tried through
its newest click while that token lives; after that its next click shows it, as its answer.

At start-up the boards of the games restored are read back: the last process may have died
between saving a change and showing it, or with a board behind, and no click may come to show it
(a player waiting for the bot's move does not click). A board that cannot be read is shown again.
"""

from __future__ import annotations

import asyncio
import logging
import random

import discord
from discord.ext import commands

from bot.cogs.games.events import BEHIND
from bot.cogs.games.flow import GameFlow
from bot.discord_ui import access, readback
from bot.games.record import Ending, GameRecord
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

PAUSES = (0.25, 0.5, 1.0, 2.0)  # seconds before each of the first tries
PAUSE_MAX = 3.0  # and before each later one (give or take a fifth, so boards spread out)
READ_WAIT = 5.0  # seconds a board read back at start-up may take


def pause(attempt: int) -> float:
    """Seconds to wait before try number `attempt` (from 0)."""
    if attempt < len(PAUSES):
        return PAUSES[attempt]
    return PAUSE_MAX * random.uniform(0.8, 1.2)


class BoardCatchUp(commands.Cog):
    """Shows every board that is behind its stored game, click or no click."""

    def __init__(self, *, client: commands.Bot, live: Live, flow: GameFlow) -> None:
        self.client = client
        self.live = live
        self.flow = flow
        self._running: set[int] = set()  # games whose board is being caught up

    async def cog_load(self) -> None:
        """Read back the boards of the games restored at start-up, once connected."""
        self.live.tasks.spawn(self._read_back(), name="ttt-read-back")

    @commands.Cog.listener(f"on_{BEHIND}")
    async def on_board_behind(self, game_id: int) -> None:
        """A board fell behind: catch it up, unless that is under way already."""
        if game_id not in self._running:
            self._running.add(game_id)
            self.live.tasks.spawn(self._catch_up(game_id), name=f"ttt-catch-up-{game_id}")

    async def _catch_up(self, game_id: int) -> None:
        attempt = 0
        try:
            while True:
                await asyncio.sleep(pause(attempt))
                attempt += 1
                if await self.try_once(game_id, attempt):
                    return
        finally:
            self._running.discard(game_id)

    async def try_once(self, game_id: int, attempt: int) -> bool:
        """One try at showing the stored game on its board (lock taken); True when nothing is
        left to try: shown, gone, or out of the bot's reach until a click brings it."""
        async with self.live.locks(game_id):
            if not self.live.boards.is_behind(game_id):
                return True
            try:
                game = await self.flow.load(game_id)
            except StorageError as exc:  # tried again later
                log.debug("catching up game %s: %s", game_id, exc)
                return False
            if game is None or game.ending is Ending.ABANDONED:
                self.flow.showing.caught_up(game_id)
                return True
            return await self._show(game, attempt)

    async def _show(self, game: GameRecord, attempt: int) -> bool:
        try:
            shown = await self.flow.showing.show(game)
        except discord.HTTPException as exc:
            if access.board_gone(exc):
                log.warning(
                    "the board of game %s is gone (%s); the game is abandoned", game.id, exc
                )
                await self.flow.abandon(game)
                return True
            if isinstance(exc, discord.Forbidden):  # no passing fault: its next click shows it
                log.warning("the board of game %s cannot be edited: %s", game.id, exc)
                return True
            log.debug("catching up game %s, try %d: %s", game.id, attempt, exc)
            return False
        if not shown:
            self.flow.showing.fell_behind(game.id)
        else:
            self.flow.showing.caught_up(game.id)
            log.info("the board of game %s caught up with the store (try %d)", game.id, attempt)
        return True

    async def _read_back(self) -> None:
        """Compare each restored game's board with the game; one that differs, or cannot be
        read, is marked behind (and so caught up)."""
        await self.client.wait_until_ready()
        for game in self.live.games.live():
            if game.interactions_only or game.message_id is None:
                continue  # no channel to read: its first click compares (``first_click``)
            channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            try:
                message = await asyncio.wait_for(channel.fetch_message(game.message_id), READ_WAIT)
            except (discord.HTTPException, TimeoutError) as exc:
                log.debug("could not read back the board of game %s: %s", game.id, exc)
                message = None
            current = self.live.games.get(game.id)
            if current is not None and (message is None or not readback.shows(message, current)):
                self.flow.showing.fell_behind(game.id)
