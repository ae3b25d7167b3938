"""Marks that stop existing: a server emoji deleted while the server's settings or boards use it.

Discord refuses a message whose components name an emoji that no longer exists, so a board using
one could not be shown again (not even its end) and no new board could be posted. When a server's
emojis change (the gateway's GUILD_EMOJIS_UPDATE), every mark naming a deleted one goes back to its
default: in the server's settings (saved), and on each live board of that server (saved, then
shown). Emojis deleted while the bot was away are found when the server becomes available: a
custom mark that is neither one of its emojis nor one of the application's. An application emoji
deleted by the bot's owner while the bot runs sends no event, and is left alone until then.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.games.flow import GameFlow
from bot.games import look as looks
from bot.games import rules
from bot.games.settings import ServerSettings
from bot.live.owners import Live
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

SIDES = ("x", "o", "empty")


class MarkCog(commands.Cog):
    """Puts back the default marks where a server deleted the custom emoji of one."""

    def __init__(
        self,
        *,
        store: Store,
        live: Live,
        flow: GameFlow,
        servers: dict[int, ServerSettings],
    ) -> None:
        self.store = store
        self.live = live
        self.flow = flow
        self.servers = servers

    @commands.Cog.listener()
    async def on_guild_emojis_update(
        self,
        guild: discord.Guild,
        before: Sequence[discord.Emoji],
        after: Sequence[discord.Emoji],
    ) -> None:
        """Marks naming an emoji the server deleted go back to their defaults."""
        await self._forget(guild.id, {e.id for e in before} - {e.id for e in after})

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a start (or a reconnection): marks naming an emoji that is no longer there.
        A server Discord has not sent yet (unavailable) is looked at when it becomes available."""
        missing: dict[int, set[int]] = {}
        for guild_id, named in self._named().items():
            guild = self.flow.client.get_guild(guild_id)
            if guild is not None and not guild.unavailable:
                missing[guild_id] = named - {emoji.id for emoji in guild.emojis}
        await self._forget_missing({g: ids for g, ids in missing.items() if ids})

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server back after an outage: marks naming an emoji that is no longer there."""
        if self.flow.client.is_ready():  # at a start, on_ready looks at every server at once
            named = self._named(guild.id).get(guild.id, set())
            missing = named - {emoji.id for emoji in guild.emojis}
            await self._forget_missing({guild.id: missing} if missing else {})

    def _named(self, only: int | None = None) -> dict[int, set[int]]:
        """Server id -> the custom emojis its settings and live boards name (of one server)."""
        named: dict[int, set[int]] = {}
        used = [(g.guild_id, g.look) for g in self.live.games.live()]
        confs = self.servers.items() if only is None else [(only, self.servers.get(only))]
        used += [(guild_id, conf.look()) for guild_id, conf in confs if conf is not None]
        for guild_id, look in used:
            if guild_id is not None and only in (None, guild_id):
                named.setdefault(guild_id, set()).update(looks.custom_ids(look))
        return named

    async def _forget_missing(self, missing: dict[int, set[int]]) -> None:
        """Forget the emojis missing from each server that are not the application's own
        either (Discord is asked once); nothing when Discord won't say which are."""
        if not missing:
            return
        try:
            mine = {emoji.id for emoji in await self.flow.client.fetch_application_emojis()}
        except discord.HTTPException as exc:
            log.warning("could not list the application's emojis: %s", exc)
            return
        for guild_id, ids in missing.items():
            try:
                await self._forget(guild_id, ids - mine)
            except Exception:  # one server's trouble does not stop the others' check
                log.exception("could not reset the deleted marks of server %s", guild_id)

    async def _forget(self, guild_id: int, gone: set[int]) -> None:
        """Marks of a server that name an emoji in `gone` go back to their defaults."""
        if not gone:
            return
        await self._settings(guild_id, gone)
        for game in self.live.games.live():
            if game.guild_id == guild_id and looks.without(game.look, gone) != game.look:
                await self._board(game.id, gone)

    async def _settings(self, guild_id: int, gone: set[int]) -> None:
        conf = self.servers.get(guild_id)
        if conf is None:
            return
        kept = looks.without(conf.look(), gone)
        reset: dict[str, Any] = {
            f"mark_{side}": None
            for side in SIDES
            if getattr(conf, f"mark_{side}") not in (None, getattr(kept, side))
        }
        if not reset:
            return
        after = dataclasses.replace(conf, **reset)
        try:
            await self.store.save_server_settings(guild_id, after)
        except StorageError as exc:
            log.debug("could not reset the deleted marks of server %s: %s", guild_id, exc)
            return
        self.servers[guild_id] = after
        log.info("server %s deleted the emoji of %s; back to the default", guild_id, list(reset))

    async def _board(self, game_id: int, gone: set[int]) -> None:
        async with self.live.locks(game_id):
            game = self.live.games.get(game_id)
            if game is None or not rules.is_live(game):
                return
            game = dataclasses.replace(game, look=looks.without(game.look, gone))
            try:
                game = await self.flow.commit(game, clock=False)
            except StorageError as exc:
                log.debug("could not reset the deleted marks of game %s: %s", game_id, exc)
                return
            await self.flow.showing.publish(game)
