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
from bot.config import Settings
from bot.discord_ui.access import BOARD
from bot.discord_ui.translator import CatalogTranslator
from bot.discord_ui.tree import CheckedTree
from bot.i18n import N_
from bot.storage.base import Store

log = logging.getLogger(__name__)

SCOPES = ("bot", "applications.commands")
MENTIONED = N_("I only answer slash commands: type /tictactoe to play (or /tictactoe-stats).")
# Loaded by name, so this module imports no cog: each extension's setup() wires its own parts.
EXTENSIONS = ("bot.cogs.games", "bot.cogs.stats")
# Seconds for the first contact with Discord (log in, then set up): past it, Discord is out of
# reach (a firewall or proxy that never answers); without it the wait would be minutes.
FIRST_CONTACT_TIMEOUT = 20.0


class DiscordUnreachable(ConnectionError):
    """Discord's API could not be reached at start-up; the message says what went wrong."""


class TicTacToeBot(commands.Bot):
    """A tic-tac-toe bot; dependencies come in, lifetimes are owned by setup_hook and close."""

    def __init__(
        self, settings: Settings, *, store: Store, engine: EngineRunner, freeze_heap: bool = False
    ) -> None:
        # This bot needs no voice: discord.py's two "voice will NOT be supported" warnings are
        # not for its users.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            # No prefix commands: messages are never parsed as commands (see on_message).
            command_prefix=(),
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            tree_cls=CheckedTree,
        )
        self.settings = settings
        self.store = store
        self.engine = engine
        self.freeze_heap = freeze_heap
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
        language with a catalog)."""
        await self.store.open()
        await self.tree.set_translator(CatalogTranslator())
        await self.engine.start()
        for name in EXTENSIONS:
            await self.load_extension(name)
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
        """Log who we are and the invite link with the scopes and permissions the bot needs."""
        if self.freeze_heap:
            # What start-up built (modules, caches, restored games) lives as long as the
            # process: moved out of the collector's reach, so no full collection scans it again.
            self.freeze_heap = False
            gc.collect()
            gc.freeze()
        if self.user is None:
            return
        log.info("logged in as %s (id %s)", self.user, self.user.id)
        log.info("invite link: %s", self.invite_url())

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

    def invite_url(self) -> str:
        """The OAuth2 link that adds the bot to a server with what it needs."""
        client_id = self.application_id or (self.user.id if self.user else 0)
        return discord.utils.oauth_url(client_id, permissions=BOARD, scopes=SCOPES)

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


def create_bot(
    settings: Settings,
    *,
    store: Store | None = None,
    engine: EngineRunner | None = None,
    freeze_heap: bool = False,
) -> TicTacToeBot:
    """Build the bot from its settings; tests pass their own store or engine runner.

    `freeze_heap` (for a long-lived process: the bot's own start, not a test that builds many
    bots) freezes the heap once the bot is ready (``gc.freeze``).
    """
    if store is None:
        from bot.storage.sqlite import SQLiteStore

        # A locked database must fail fast enough to still answer within Discord's 3 s, even
        # where one click writes twice (a new game: its id, then the game).
        store = SQLiteStore(settings.database_path, busy_timeout=1.0)
    if engine is None:
        engine = EngineRunner(workers=settings.engine_workers)
    return TicTacToeBot(settings, store=store, engine=engine, freeze_heap=freeze_heap)
