"""The playground's simulated Discord in the test's own process: the real bot on a real SQLite
file, SimCord with the playground's thread rules, and the playground's server (#games, alice, bob,
carol, and the regulars)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import simcord
from simcord.builders import ChannelHandle

from bot.assembly import create_bot
from bot.client import TicTacToeBot
from bot.config import Settings
from bot.playground.threads import follow_discord
from bot.playground.world import Server, build_server


@dataclasses.dataclass
class World:
    """The bot, its simulated Discord and the playground's server in it."""

    bot: TicTacToeBot
    env: simcord.Env
    server: Server

    def member(self, name: str) -> Any:
        """A member of the server (a regular or not), by name."""
        every = self.server.members + self.server.regulars
        return next(member for member in every if member.name == name)

    def handle(self, channel_id: int) -> ChannelHandle:
        """A SimCord handle of a channel or thread of the server, for a member's command."""
        guild = self.server.channel.guild
        return ChannelHandle(self.env, guild, self.env.backend.get_channel(channel_id))


@asynccontextmanager
async def simulated(tmp_path: Path, **settings: Any) -> AsyncIterator[World]:
    """The playground's world without its page; released at the end."""
    chosen = Settings(
        token="playground.needs.no-token",
        database_path=tmp_path / "games.db",
        engine_workers=1,
        challenge_cooldown=0,
    )
    bot = create_bot(dataclasses.replace(chosen, **settings))
    env = simcord.Env(bot, check_errors=False, settle_timeout=4.0)
    follow_discord(env)
    try:
        await env.start()
        yield World(bot, env, build_server(env))
        await env.shutdown()
    finally:
        await bot.release()
