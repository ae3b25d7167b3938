"""The bot: owns the store, the engine runner and the command tree for its whole life."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.compute.runner import EngineRunner
from bot.config import Settings, Shards
from bot.discord_ui.access import BOARD
from bot.discord_ui.tree import CheckedTree
from bot.metrics import Metrics, WatchedStore
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

SCOPES = ("bot", "applications.commands")
IDENTIFY_SPACING = 5.0  # seconds between two identifies, as Discord asks
# Loaded by name, so this module imports no cog: each extension's setup() wires its own parts.
EXTENSIONS = ("bot.cogs.games", "bot.cogs.stats", "bot.cogs.ops")


class TicTacToeBot(commands.Bot):
    """A tic-tac-toe bot; dependencies come in, lifetimes are owned by setup_hook and close."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store,
        engine: EngineRunner,
        metrics: Metrics | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            **options,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            tree_cls=CheckedTree,
        )
        self.settings = settings
        self.store = store
        self.engine = engine
        self.metrics = metrics  # None unless METRICS_PORT is set

    async def setup_hook(self) -> None:
        """Open storage, warm the engine, load the extensions, sync the slash commands (only
        from the process holding shard 0, when processes share the shards)."""
        await self.store.open()
        await self.engine.start()
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.shards.owns(None):  # one process syncs: the one holding shard 0
            await self.sync_commands()

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
        if self.user is None:
            return
        log.info("logged in as %s (id %s)", self.user, self.user.id)
        log.info("invite link: %s", self.invite_url())

    def invite_url(self) -> str:
        """The OAuth2 link that adds the bot to a server with what it needs."""
        client_id = self.application_id or (self.user.id if self.user else 0)
        return discord.utils.oauth_url(client_id, permissions=BOARD, scopes=SCOPES)

    async def close(self) -> None:
        """Disconnect, then stop the engine and close storage."""
        try:
            await super().close()
        finally:
            await self.release()

    async def release(self) -> None:
        """Stop the engine workers and close storage (what a process exit would do)."""
        self.engine.close()
        await self.store.close()


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


def open_store(settings: Settings) -> Store:
    """The store the settings name: PostgreSQL at DATABASE_URL, else SQLite at DATABASE_PATH.

    A locked or stuck database must fail fast enough to still answer within Discord's 3 s, even
    where one click writes twice (a new game: its id, then the game): one second per statement.
    """
    if settings.database_url:
        try:
            from bot.storage.postgres import PostgresStore
        except ImportError as exc:
            raise StorageError(
                "DATABASE_URL needs asyncpg: pip install 'tictactoe[postgres]'"
            ) from exc
        return PostgresStore(settings.database_url, timeout=1.0)
    from bot.storage.sqlite import SQLiteStore

    return SQLiteStore(settings.database_path, busy_timeout=1.0)


def create_bot(
    settings: Settings, *, store: Store | None = None, engine: EngineRunner | None = None
) -> TicTacToeBot:
    """Build the bot from its settings; tests pass their own store or engine runner."""
    if store is None:
        store = open_store(settings)
    if engine is None:
        engine = EngineRunner(workers=settings.engine_workers)
    options: dict[str, Any] = {}
    if settings.metrics_port is not None:
        metrics = options["metrics"] = Metrics()
        store = WatchedStore(store, metrics)
        options["http_trace"] = metrics.trace()
    shards = settings.shards
    if shards.auto:
        options.update(shard_count=shards.count, shard_ids=list(shards.ids))
        return ShardedTicTacToeBot(settings, store=store, engine=engine, **options)
    return TicTacToeBot(settings, store=store, engine=engine, **options)
