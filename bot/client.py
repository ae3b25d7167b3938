"""The bot: owns the store, the engine runner and the command tree for its whole life."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.compute.runner import EngineRunner
from bot.config import Settings, Shards, version
from bot.discord_ui import gateway
from bot.discord_ui.access import INVITE
from bot.discord_ui.translator import CatalogTranslator
from bot.discord_ui.tree import CheckedTree
from bot.i18n import N_
from bot.metrics import Metrics
from bot.storage.base import Store

log = logging.getLogger(__name__)

SCOPES = ("bot", "applications.commands")
MENTIONED = N_("I only answer slash commands: type /tictactoe to play (or /tictactoe-stats).")
# Loaded by name, so this module imports no cog: each extension's setup() wires its own parts.
EXTENSIONS = (
    "bot.cogs.games",
    "bot.tournaments.extension",
    "bot.puzzles.extension",
    "bot.history.extension",
    "bot.cogs.ops",
)
# The collector's thresholds once the bot is ready (allocations before a young collection, then
# collections of each generation before the next one's). Measured (`load.py --modes gc`,
# docs/figures.md, "Under load"): Python's (700, 10, 10) collects about 700 times in a
# 500-game 3x3 burst; 20,000 about 10 times, with 15% less CPU per interaction; 50,000 saves
# little more and nearly doubles the resident memory per live game.
GC_THRESHOLDS = (20_000, 10, 10)
IDENTIFY_SPACING = 5.0  # seconds between two identifies, as Discord asks
# Seconds for the first contact with Discord (log in, then set up): past it, Discord is out of
# reach (a firewall or proxy that never answers); without it the wait would be minutes.
FIRST_CONTACT_TIMEOUT = 20.0


class DiscordUnreachable(ConnectionError):
    """Discord's API could not be reached at start-up; the message says what went wrong."""


class TicTacToeBot(commands.Bot):
    """A tic-tac-toe bot; dependencies come in, lifetimes are owned by setup_hook and close."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store,
        engine: EngineRunner,
        freeze_heap: bool = False,
        metrics: Metrics | None = None,
        **options: Any,
    ) -> None:
        # This bot needs no voice: discord.py's two "voice will NOT be supported" warnings are
        # not for its users.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            **options,
            # No prefix commands: messages are never parsed as commands (see on_message).
            command_prefix=(),
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            tree_cls=CheckedTree,
            max_messages=None,  # no message cache: the bot reads no message twice
        )
        gateway.read_only_what_matters(self._connection.parsers, lambda: self._user_id)
        gateway.answers_without_their_message()
        self.settings = settings
        self.store = store
        self.engine = engine
        self.freeze_heap = freeze_heap
        self.metrics = metrics  # None unless METRICS_PORT is set
        self._stopping: asyncio.Task[Any] | None = None
        self._set_up = False  # setup_hook has finished: a signal now closes the bot

    async def login(self, token: str) -> None:
        """Log in and set up; Discord out of reach (no network, DNS, a silent proxy) raises
        DiscordUnreachable within FIRST_CONTACT_TIMEOUT seconds."""
        try:
            async with asyncio.timeout(FIRST_CONTACT_TIMEOUT):
                await super().login(token)
        except TimeoutError:
            raise DiscordUnreachable(f"no answer in {FIRST_CONTACT_TIMEOUT:g} s") from None
        except aiohttp.ClientConnectionError as error:
            raise DiscordUnreachable(_reason(error)) from None

    async def setup_hook(self) -> None:
        """Open storage, warm the engine, load the extensions, sync the slash commands (in every
        language with a catalog; only from the process holding shard 0, when processes share
        the shards)."""
        await self.store.open()
        await self.tree.set_translator(CatalogTranslator())
        await self.engine.start()
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.shards.owns(None):  # one process syncs: the one holding shard 0
            await self.sync_commands()
        self._set_up = True

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync to the development server if one is set (instant), else globally."""
        guild_id = self.settings.guild_id
        if guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        """Log who we are and the two invite links: to a server, with the scopes and permissions
        the bot needs, and to a person's account."""
        if self.freeze_heap:
            # What start-up built (modules, caches, restored games) lives as long as the
            # process: moved out of the collector's reach, so no full collection scans it again.
            self.freeze_heap = False
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
        if self.user is None:
            return
        log.info("tictactoe %s: logged in as %s (id %s)", version(), self.user, self.user.id)
        log.info("invite link (add to a server): %s", self.invite_url())
        log.info("invite link (add to my account): %s", self.user_install_url())

    async def on_message(self, message: discord.Message) -> None:
        """A message that mentions the bot by name gets one line pointing to /tictactoe.

        The bot has no prefix commands, so nothing else is read; a message that mentions the bot
        carries its text without the privileged message content intent. A message does not say
        its author's language, so the line is in the server's preferred language (English in
        direct messages and in servers that set none).
        """
        me = self.user
        if me is None or message.author.bot or me not in message.mentions:
            return
        if f"<@{me.id}>" not in message.content and f"<@!{me.id}>" not in message.content:
            return  # a reply to one of the bot's messages, not a word to the bot
        try:
            locale = str(message.guild.preferred_locale) if message.guild else None
            await message.reply(MENTIONED.in_locale(locale), mention_author=False)
        except discord.HTTPException as exc:
            log.info("could not answer a mention in channel %s: %s", message.channel.id, exc)

    @property
    def _user_id(self) -> int | None:
        return self.user.id if self.user is not None else None

    def invite_url(self) -> str:
        """The OAuth2 link that adds the bot to a server with what it needs."""
        client_id = self.application_id or (self.user.id if self.user else 0)
        return discord.utils.oauth_url(client_id, permissions=INVITE, scopes=SCOPES)

    def user_install_url(self) -> str:
        """The link that adds the app to a person's account: its commands in every DM, group
        DM and server they are in, with no bot in the channel (User Install, developer portal)."""
        client_id = self.application_id or (self.user.id if self.user else 0)
        link = discord.utils.oauth_url(client_id, scopes=("applications.commands",))
        return f"{link}&integration_type=1"

    def stop_on_signals(self) -> None:
        """Stop cleanly on Ctrl-C (SIGINT) and SIGTERM, instead of dying mid-change.

        Call it from the task that starts the bot: a signal during start-up cancels that task
        (nothing is in flight yet, and closing would pull storage from under the start), one
        afterwards closes the bot.
        """
        loop = asyncio.get_running_loop()
        starter = asyncio.current_task()
        for ending in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(ending, self._stop, ending, starter)
            except (NotImplementedError, RuntimeError):  # not on this platform or thread
                return

    def _stop(self, ending: signal.Signals, starter: asyncio.Task[Any] | None) -> None:
        if self._stopping is not None:
            return
        if not self._set_up and starter is not None:
            log.info("%s during start-up: stopping", ending.name)
            starter.cancel()
            self._stopping = starter
            return
        log.info("%s: finishing the changes in flight, then stopping", ending.name)
        self._stopping = asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        """Unload the cogs (the game cog lets the changes in flight finish), disconnect, then
        stop the engine and close storage."""
        try:
            await super().close()
        finally:
            await self.release()

    async def release(self) -> None:
        """Stop the engine workers and close storage (what a process exit would do)."""
        self.engine.close()
        await self.store.close()


def _reason(error: aiohttp.ClientConnectionError) -> str:
    """What went wrong in a few words: the host, and the system's reason if there is one."""
    if not isinstance(error, aiohttp.ClientConnectorError):
        return str(error) or type(error).__name__
    cause = error.os_error
    if isinstance(cause, ConnectionRefusedError):
        why = "connection refused"
    else:
        why = cause.strerror or str(cause) or type(cause).__name__
    return f"{error.host}: {why}"


class ShardedTicTacToeBot(TicTacToeBot, commands.AutoShardedBot):
    """The same bot running the shards of ``settings.shards`` in this process."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait before a shard identifies: discord.py spaces the shards of one process by 5 s;
        the first one of a process waits its turn among the processes started together."""
        if initial:
            await asyncio.sleep(identify_delay(self.settings.shards))
        else:
            await super().before_identify_hook(shard_id, initial=initial)


def identify_delay(shards: Shards) -> float:
    """Seconds before a process's first shard identifies: Discord allows one identify per 5 s
    (per concurrency bucket), so shard k of a fleet started at once goes at about 5 k s."""
    return IDENTIFY_SPACING * shards.ids[0]
