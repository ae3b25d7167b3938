"""Moves by reactions, on the boards of servers whose ``input`` setting asks for them (the keys
under the board are ``bot.cogs.games.reaction_keys``).

A reaction is read from the raw gateway event, so it works without any message cache and after
a restart. It is a move by the player whose turn it is, decided under the game's lock like a
click, and never on a board that does not show the game as stored (its last edit failed, or
the last process may have died between saving and showing): that board is shown again instead.
A reaction has no interaction, so nothing can be said privately. A reaction of the player to
move that plays nothing (a taken cell) gets a reply to the board saying why, which goes away
after `NOTICE` seconds; one of anyone else (not their turn, not a player) is only removed.
Reactions read are removed where the bot has Manage Messages (and left where it has not), so a
key can be used again; without it a player takes the reaction back and adds it again to use
the same key twice (5x5 columns and rows).
"""

from __future__ import annotations

import logging
from datetime import datetime

import discord
from discord.ext import commands

from bot.cogs.games.flow import GameFlow
from bot.cogs.games.reaction_keys import takes_reactions
from bot.discord_ui import access, readback
from bot.games import kinds, rules
from bot.games.kinds.base import plain
from bot.games.record import GameRecord, Status
from bot.games.rules import Refused
from bot.i18n import Text, translation
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)
NOTICE = 10.0  # seconds the reply that says why a reaction played nothing stays


class ReactionCog(commands.Cog):
    """Plays the moves the reactions on boards that take them make."""

    def __init__(self, *, client: discord.Client, live: Live, flow: GameFlow) -> None:
        self.client = client
        self.live = live
        self.flow = flow
        # game id -> (player id, column, moves then): a column picked on 5x5, waiting for a row
        self._picked: dict[int, tuple[int, int, int]] = {}
        self._told: dict[int, datetime] = {}  # game id -> when a player last heard a refusal

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
                for g in self.live.games.games_in(payload.channel_id)
                if g.message_id == payload.message_id
            ),
            None,
        )
        if game is None or not takes_reactions(game):
            return
        key = str(payload.emoji)
        if plain(key) not in {plain(k) for k in kinds.of(game).keys(game)}:
            return  # not one of the board's keys: a reaction of someone's own, left alone
        try:
            after = await self._play(game.id, payload.user_id, key)
        except Exception:
            log.exception("the reaction on game %s failed", game.id)
            after = None
        if access.may_manage(self.client, payload.guild_id, payload.channel_id):
            # in a task: the bot's reply does not wait for it
            self.live.tasks.spawn(self._take_back(payload), name=f"ttt-unreact-{game.id}")
        if after is not None and rules.ai_to_move(after):
            await self.flow.ai_move(game.id)

    async def _play(self, game_id: int, user_id: int, key: str) -> GameRecord | None:
        """Under the game's lock: the move the reaction makes, saved and shown; None when it
        makes none (refused, half a move on 5x5, or not saved)."""
        async with self.live.locks(game_id):
            game = self.live.games.get(game_id)
            if game is None or self.live.games.is_unsaved(game_id):
                return None
            if not await self._shows(game):
                await self.flow.showing.publish(
                    game
                )  # never played blind: the board catches up first
                return None
            cell = await self._cell(game, user_id, key)
            if cell is None:
                return None
            result = rules.move(game, user_id, cell)
            if isinstance(result, Refused):
                if kinds.of(game).picks(game):
                    await self._show_picked(game, None)  # the first half picked is gone
                self._tell(game, user_id, result.text)  # a taken cell: the player hears why
                return None
            try:
                after = await self.flow.commit(await self.flow.with_reply(result))
            except StorageError as exc:
                log.debug("could not save the move by reaction in game %s: %s", game_id, exc)
                return None
            self._picked.pop(game_id, None)
            await self.flow.showing.publish(after)
            return after

    async def _shows(self, game: GameRecord) -> bool:
        """Whether the board shows the game as stored: not after a failed edit, and, for the
        first reaction or click on a game live at start-up, as the message itself says."""
        if self.live.boards.is_behind(game.id):
            return False
        if not self.live.boards.first_click(game.id) or game.message_id is None:
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
        self._picked = {g: p for g, p in self._picked.items() if self.live.games.get(g)}
        self._picked[game.id] = (user_id, meaning[1], len(game.moves))
        await self._show_picked(game, meaning[1])
        return None

    async def _show_picked(self, game: GameRecord, column: int | None) -> None:
        """Show the column a player picked, waiting for its row (None: no column picked)."""
        if game.message_id is None:
            return
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        message = channel.get_partial_message(game.message_id)
        try:
            await self.flow.showing.painter.send(
                await self.flow.showing.painter.drawn(game, column), message.edit
            )
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

    def _tell(self, game: GameRecord, user_id: int, refusal: Text) -> None:
        """Say why a player's reaction played nothing, in a reply to the board that goes away
        after `NOTICE` seconds (a reaction has no private answer); one at a time a game."""
        now = self.live.clock.now()
        told = self._told.get(game.id)
        if told is not None and (now - told).total_seconds() < NOTICE:
            return
        self._told = {g: t for g, t in self._told.items() if self.live.games.get(g)}
        self._told[game.id] = now
        words = f"<@{user_id}> {refusal.render(translation(game.locale))}"
        self.live.tasks.spawn(self._say(game, words), name=f"ttt-notice-{game.id}")

    async def _say(self, game: GameRecord, words: str) -> None:
        channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        board_message = channel.get_partial_message(game.message_id or 0)
        try:
            await channel.send(
                words,
                reference=board_message.to_reference(fail_if_not_exists=False),
                mention_author=False,
                allowed_mentions=discord.AllowedMentions.none(),
                delete_after=NOTICE,
            )
        except discord.HTTPException as exc:
            log.info("could not say why a reaction in game %s played nothing: %s", game.id, exc)
