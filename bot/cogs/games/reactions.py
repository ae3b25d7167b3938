"""Moves by reactions, on the boards of servers whose ``input`` setting asks for them.

A board that takes reactions carries one per cell on 3x3 and 4x4, and on 5x5 one per column and
one per row (``bot.games.look.keys``). The bot adds them after posting the board, in a task of
its own: Discord limits reactions per channel to a few a second, and nothing else waits behind
them (other games, clicks, even a move made before the last reaction appears). A restart adds
what was left.

A reaction is read from the raw gateway event, so it works without any message cache and after
a restart. It is a move by the player whose turn it is, decided under the game's lock like a
click, and never on a board that does not show the game as stored (its last edit failed, or
the last process may have died between saving and showing): that board is shown again instead.
A reaction has no interaction, so nothing can be said privately: a reaction that plays nothing
(not your turn, a taken cell, not a player) is removed quietly where the bot has Manage
Messages, and ignored where it has not; the channel never hears of it. Played reactions are
removed too (with Manage Messages), so a key can be used again; without it a player takes the
reaction back and adds it again to use the same key twice (5x5 columns and rows).

Where the bot loses Add Reactions during a game moved by reactions only, the keys it could not
add would leave the game stuck: the board takes cell buttons as well (input ``both``) instead.
"""

from __future__ import annotations

import dataclasses
import logging

import discord
from discord.ext import commands

from bot.cogs.games.flow import GameFlow
from bot.cogs.games.opening import POSTED
from bot.discord_ui import board, readback
from bot.games import kinds, rules
from bot.games.kinds.base import plain
from bot.games.record import GameRecord, Status
from bot.games.rules import Refused
from bot.live.registry import GameRegistry
from bot.storage.base import StorageError

log = logging.getLogger(__name__)


class ReactionCog(commands.Cog):
    """Adds the reactions of boards that take them and plays the moves they make."""

    def __init__(self, *, client: discord.Client, games: GameRegistry, flow: GameFlow) -> None:
        self.client = client
        self.games = games
        self.flow = flow
        # game id -> (player id, column, moves then): a column picked on 5x5, waiting for a row
        self._picked: dict[int, tuple[int, int, int]] = {}
        self._adding: set[int] = set()  # games whose keys are being added

    # ------------------------------------------------------------- the reactions

    @commands.Cog.listener(f"on_{POSTED}")
    async def on_board_posted(self, game_id: int) -> None:
        """Add a new board's reactions, in a task: the command's answer does not wait."""
        game = self.games.get(game_id)
        if game is not None and _takes_reactions(game):
            self._start_adding(game_id, fresh=True)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a start (or a reconnection): finish adding the reactions of live boards."""
        for game in self.games.live():
            if _takes_reactions(game) and game.message_id is not None:
                self._start_adding(game.id, fresh=False)

    def _start_adding(self, game_id: int, *, fresh: bool) -> None:
        """Add a board's keys in a task of their own, unless one is at it already."""
        if game_id not in self._adding:
            self._adding.add(game_id)
            self.games.spawn(self._add_reactions(game_id, fresh=fresh), name=f"ttt-keys-{game_id}")

    async def _add_reactions(self, game_id: int, *, fresh: bool) -> None:
        """Add the board's reactions that are not there yet, while the game is on."""
        try:
            await self._add_keys(game_id, fresh=fresh)
        finally:
            self._adding.discard(game_id)

    async def _add_keys(self, game_id: int, *, fresh: bool) -> None:
        game = self.games.get(game_id)
        if game is None or game.message_id is None:
            return
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        message = channel.get_partial_message(game.message_id)
        present: set[str] = set()
        try:
            if not fresh:
                shown = await message.fetch()
                present = {plain(str(r.emoji)) for r in shown.reactions if r.me}
            for key in kinds.of(game).keys(game):
                current = self.games.get(game_id)
                if current is None or not rules.is_live(current):
                    return  # over: the rest would be noise
                if plain(key) not in present:
                    await message.add_reaction(key)
        except discord.Forbidden as exc:
            log.warning("may not add the reactions of game %s: %s", game_id, exc)
            await self._give_buttons(game_id)
        except discord.HTTPException as exc:
            log.warning("could not add the reactions of game %s: %s", game_id, exc)

    async def _give_buttons(self, game_id: int) -> None:
        """A board moved by reactions only whose keys may not be added takes cell buttons too."""
        async with self.games.lock(game_id):
            game = self.games.get(game_id)
            if game is None or game.look.buttons or not rules.is_live(game):
                return
            look = dataclasses.replace(game.look, input="both")
            try:
                game = await self.flow.commit(dataclasses.replace(game, look=look), clock=False)
            except StorageError as exc:
                log.debug("could not give game %s its buttons: %s", game_id, exc)
                return
            await self.flow.publish(game)

    # ------------------------------------------------------------------ moves

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        """A reaction on a board that takes them: a move, or nothing (removed quietly)."""
        me = self.client.user
        if me is None or payload.user_id == me.id or payload.guild_id is None:
            return
        game = next(
            (
                g
                for g in self.games.games_in(payload.channel_id)
                if g.message_id == payload.message_id
            ),
            None,
        )
        if game is None or not _takes_reactions(game):
            return
        key = str(payload.emoji)
        if plain(key) not in {plain(k) for k in kinds.of(game).keys(game)}:
            return  # not one of the board's keys: a reaction of someone's own, left alone
        try:
            after = await self._play(game.id, payload.user_id, key)
        except Exception:
            log.exception("the reaction on game %s failed", game.id)
            after = None
        if self._may_manage(payload):  # in a task: the bot's reply does not wait for it
            self.games.spawn(self._take_back(payload), name=f"ttt-unreact-{game.id}")
        if after is not None and rules.ai_to_move(after):
            await self.flow.ai_move(game.id)

    async def _play(self, game_id: int, user_id: int, key: str) -> GameRecord | None:
        """Under the game's lock: the move the reaction makes, saved and shown; None when it
        makes none (refused, half a move on 5x5, or not saved)."""
        async with self.games.lock(game_id):
            game = self.games.get(game_id)
            if game is None or self.games.is_unsaved(game_id):
                return None
            if not await self._shows(game):
                await self.flow.publish(game)  # never played blind: the board catches up first
                return None
            cell = await self._cell(game, user_id, key)
            if cell is None:
                return None
            result = rules.move(game, user_id, cell)
            if isinstance(result, Refused):
                if kinds.of(game).picks(game):
                    await self._show_picked(game, None)  # the first half picked is gone
                return None
            try:
                after = await self.flow.commit(await self.flow.with_reply(result))
            except StorageError as exc:
                log.debug("could not save the move by reaction in game %s: %s", game_id, exc)
                return None
            self._picked.pop(game_id, None)
            await self.flow.publish(after)
            return after

    async def _shows(self, game: GameRecord) -> bool:
        """Whether the board shows the game as stored: not after a failed edit, and, for the
        first reaction or click on a game live at start-up, as the message itself says."""
        if self.games.is_behind(game.id):
            return False
        if not self.games.first_click(game.id) or game.message_id is None:
            return True
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            shown = await channel.fetch_message(game.message_id)
        except discord.HTTPException as exc:
            log.info("could not read the board of game %s back: %s", game.id, exc)
            return False
        # The words may show a first half picked before the restart, which is forgotten.
        return readback.shows(shown, game, words=kinds.of(game).picks(game))

    async def _cell(self, game: GameRecord, user_id: int, key: str) -> int | None:
        """The cell a reaction plays; a first half (a 5x5 column, an ultimate board) is kept
        (and shown) until the second."""
        kind = kinds.of(game)
        if game.status is not Status.ACTIVE or rules.player_id(game, rules.turn(game)) != user_id:
            return None  # nobody else's reaction plays, or unpicks, anything
        picked = self._picked.pop(game.id, None)
        mine = picked is not None and picked[0] == user_id and picked[2] == len(game.moves)
        meaning = kind.read_key(game, picked[1] if picked is not None and mine else None, key)
        if meaning is not None and meaning[0] == "cell":
            return meaning[1]
        if meaning is None or not kind.can_pick(game, meaning[1]):
            if picked is not None:  # the board may still show a first half picked before a move
                await self._show_picked(game, None)  # (one before a restart is read back)
            return None
        # Picks of games that ended meanwhile go: only live games keep one.
        self._picked = {g: p for g, p in self._picked.items() if self.games.get(g)}
        self._picked[game.id] = (user_id, meaning[1], len(game.moves))
        await self._show_picked(game, meaning[1])
        return None

    async def _show_picked(self, game: GameRecord, column: int | None) -> None:
        """Show the column a player picked, waiting for its row (None: no column picked)."""
        if game.message_id is None:
            return
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.get_partial_message(game.message_id).edit(view=board.view(game, column))
        except discord.HTTPException as exc:
            log.warning("could not show the column picked in game %s: %s", game.id, exc)

    async def _take_back(self, payload: discord.RawReactionActionEvent) -> None:
        """Remove a reaction the bot has read."""
        channel = self.client.get_partial_messageable(payload.channel_id, guild_id=payload.guild_id)
        message = channel.get_partial_message(payload.message_id)
        try:
            await message.remove_reaction(payload.emoji, discord.Object(id=payload.user_id))
        except discord.HTTPException as exc:
            log.info("could not remove a reaction in channel %s: %s", payload.channel_id, exc)

    def _may_manage(self, payload: discord.RawReactionActionEvent) -> bool:
        """Whether the bot may remove others' reactions in the reaction's channel."""
        guild = self.client.get_guild(payload.guild_id or 0)
        if guild is None:
            return False
        place = guild.get_channel_or_thread(payload.channel_id)
        return place is not None and place.permissions_for(guild.me).manage_messages


def _takes_reactions(game: GameRecord) -> bool:
    return game.look.reactions and not game.interactions_only


