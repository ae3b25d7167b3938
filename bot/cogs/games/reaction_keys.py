"""The keys under a board moved by reactions: added after the board is posted, taken away as
they stop playing anything.

A board that takes reactions carries one per cell on 3x3 and 4x4, and on 5x5 one per column and
one per row (``bot.games.look.keys``). The bot adds them after posting the board, in a task of
its own: Discord limits reactions per channel to a few a second, and nothing else waits behind
them (other games, clicks, even a move made before the last reaction appears). A restart adds
what was left. After each move the bot takes its own key of a cell that was taken (on 5x5, of a
full column or row) away, which needs no permission; at the end of the game it clears every
reaction where it has Manage Messages, and else takes its own keys away one by one. One task a
game does this work, in order, always toward the game as last saved (``Kind.live_keys``).

Where the bot loses Add Reactions during a game moved by reactions only, the keys it could not
add would leave the game stuck: the board takes cell buttons as well (input ``both``) instead.
"""

from __future__ import annotations

import dataclasses
import logging

import discord
from discord.ext import commands

from bot.cogs.games.events import KEYED_SAVE, POSTED
from bot.cogs.games.flow import GameFlow
from bot.discord_ui import access
from bot.games import kinds, rules
from bot.games.kinds.base import plain
from bot.games.record import GameRecord
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)


class KeyCog(commands.Cog):
    """Keeps the reactions under boards that take them to those that still play."""

    def __init__(self, *, client: discord.Client, live: Live, flow: GameFlow) -> None:
        self.client = client
        self.live = live
        self.flow = flow
        self._adding: set[int] = set()  # games whose keys are being matched to the board
        self._next: dict[int, GameRecord] = {}  # game id -> the newest game its keys follow

    @commands.Cog.listener(f"on_{POSTED}")
    async def on_board_posted(self, game_id: int) -> None:
        """Add a new board's reactions, in a task: the command's answer does not wait."""
        game = self.live.games.get(game_id)
        if game is not None and takes_reactions(game):
            self._keep_keys(game, fresh=True)

    @commands.Cog.listener(f"on_{KEYED_SAVE}")
    async def on_keyed_game_saved(self, game: GameRecord) -> None:
        """A move (or the end) of a game moved by reactions: its keys follow the board."""
        if takes_reactions(game):
            self._keep_keys(game)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a start (or a reconnection): finish adding the reactions of live boards."""
        for game in self.live.games.live():
            if takes_reactions(game) and game.message_id is not None:
                self._keep_keys(game)

    def _keep_keys(self, game: GameRecord, *, fresh: bool = False) -> None:
        """Make the board's keys those that still play (``Kind.live_keys``), in one task a game:
        a change while it works is taken up when it is done with the one before."""
        self._next[game.id] = game
        if game.id not in self._adding:
            self._adding.add(game.id)
            self.live.tasks.spawn(
                self._match_keys(game.id, fresh=fresh), name=f"ttt-keys-{game.id}"
            )

    async def _match_keys(self, game_id: int, *, fresh: bool) -> None:
        try:
            on: set[str] | None = set() if fresh else None  # the bot's keys under the board
            while (game := self._next.pop(game_id, None)) is not None:
                on = await self._match(game, on)
        finally:
            self._adding.discard(game_id)

    async def _match(self, game: GameRecord, on: set[str] | None) -> set[str] | None:
        """Take away the bot's keys that no longer play and add those missing; the keys now on
        the board (None when Discord could not be asked)."""
        if game.message_id is None:
            return on
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        message = channel.get_partial_message(game.message_id)
        live = kinds.of(game).live_keys(game)
        try:
            if on is None:
                shown = await message.fetch()
                on = {plain(str(r.emoji)) for r in shown.reactions if r.me}
            if not live and on and access.may_manage(self.client, game.guild_id, game.channel_id):
                await message.clear_reactions()  # over: one call takes every key away
                return set()
            wanted = {plain(key) for key in live}
            for key in [k for k in kinds.of(game).keys(game) if plain(k) in on - wanted]:
                await message.remove_reaction(key, discord.Object(id=self._me()))
                on.discard(plain(key))
            for key in live:
                if game.id in self._next:
                    break  # the game moved meanwhile: match that first
                if plain(key) not in on:
                    await message.add_reaction(key)
                    on.add(plain(key))
        except discord.Forbidden as exc:
            log.warning("may not change the reactions of game %s: %s", game.id, exc)
            if live:
                await self._give_buttons(game.id)
        except discord.NotFound:
            return on  # the board is gone (the game ends as abandoned elsewhere)
        except discord.HTTPException as exc:
            log.warning("could not change the reactions of game %s: %s", game.id, exc)
            return None
        return on

    def _me(self) -> int:
        assert self.client.user is not None  # keys are kept only once the bot is connected
        return self.client.user.id

    async def _give_buttons(self, game_id: int) -> None:
        """A board moved by reactions only whose keys may not be added takes cell buttons too."""
        async with self.live.locks(game_id):
            game = self.live.games.get(game_id)
            if game is None or game.look.buttons or not rules.is_live(game):
                return
            look = dataclasses.replace(game.look, input="both")
            try:
                game = await self.flow.commit(dataclasses.replace(game, look=look), clock=False)
            except StorageError as exc:
                log.debug("could not give game %s its buttons: %s", game_id, exc)
                return
            await self.flow.showing.publish(game)


def takes_reactions(game: GameRecord) -> bool:
    """Whether a game's board is moved by reactions (and the bot reaches its channel)."""
    return game.look.reactions and not game.interactions_only
