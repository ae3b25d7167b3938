"""What the user-install tests share: the local Discord started for a test, the bot started
against it, its stored games, and people in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assembly import sqlite_store
from bot.games.record import GameRecord
from devkit.local_game import LocalBot, Table
from devkit.localdiscord import FakeDiscord, User


async def stored(bot: LocalBot, game_id: int) -> GameRecord | None:
    store = sqlite_store(bot.database)
    await store.open()
    try:
        return await store.load_game(game_id)
    finally:
        await store.close()


async def started(discord: FakeDiscord, folder: Path, **env: str) -> tuple[LocalBot, Table]:
    """The bot started against `discord` (settings `env`), and a table to play at."""
    bot = LocalBot(discord, folder, **env)
    await bot.start()
    return bot, Table(discord)


def people(discord: FakeDiscord, *names: str) -> list[User]:
    return [discord.create_user(name) for name in names]


def no_channel_route(fake: FakeDiscord) -> bool:
    """Whether the bot never used a channel route (none answered 403, none even tried)."""
    return fake.refused == [] and not any("/channels/" in path for _, path in fake.requests)


# Each test runs the bot in a process group of its own, found through /proc.
NEEDS_PROCESSES = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="runs the bot in a process group"
)
