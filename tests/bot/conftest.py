"""SimCord fixtures: the real bot, with a real SQLite file, against a simulated Discord; and
stores on a fresh database of either backend (SQLite file, PostgreSQL server)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import assembly
from bot.assembly import create_bot, postgres_store
from bot.client import TicTacToeBot
from bot.cogs.games import flow
from bot.config import Settings
from bot.storage.base import Store
from bot.storage.sqlite import SQLiteStore
from devkit.localdiscord import FakeDiscord


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings as a user would write them, with the database in a fresh folder."""
    return Settings(
        token="simulated.bot.token",
        database_path=tmp_path / "data" / "tictactoe.db",
        engine_workers=1,
    )


@pytest.fixture
async def make_bot(settings: Settings) -> AsyncIterator[Callable[..., TicTacToeBot]]:
    """Build fresh bots on the same database (a restart is a new bot); all released at the end.

    SimCord detaches a bot without calling its close(), so the engine workers and the database
    thread of every bot made here are released when the test ends.

    To restart, release the running bot first (``await env.bot.release()``), as a dead process
    would be: a new bot's engine workers are started from an executor thread, where SimCord's
    clock is frozen, and starting a process polls the old bot's still-living workers with a
    zero timeout that never runs out on a frozen clock, so the start would hang.
    """
    made: list[TicTacToeBot] = []

    def make(**changes: object) -> TicTacToeBot:
        bot = create_bot(dataclasses.replace(settings, **changes) if changes else settings)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        await bot.release()


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TicTacToeBot]) -> TicTacToeBot:
    """The bot SimCord's `simcord_env` fixture runs."""
    return make_bot()


@pytest.fixture
def two_step_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """A click's response does not wait for the bot's reply on a big board: the player's move
    is shown first and the reply in a second edit, as when the search outlasts the wait."""
    monkeypatch.setattr(flow, "REPLY_WAIT", 0.0)


@pytest.fixture
async def local_discord() -> AsyncIterator[FakeDiscord]:
    """The local Discord of devkit/localdiscord, listening for a test's bot process."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture(params=["sqlite", "postgres"])
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """Make stores on one fresh database (a new store is a restarted process), either backend."""
    if request.param == "sqlite":
        path = tmp_path / "data" / "games.db"
        return lambda: assembly.sqlite_store(path, busy_timeout=0.2)

    url = request.getfixturevalue("postgres_url")
    return lambda: postgres_store(url, timeout=1.0)


@pytest.fixture
async def store(new_store: Callable[[], Store]) -> AsyncIterator[Store]:
    """An open store on a fresh database of either backend, closed after the test."""
    s = new_store()
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    """An open SQLite store on a fresh file, closed after the test."""
    s = assembly.sqlite_store(tmp_path / "data" / "games.db", busy_timeout=0.2)
    await s.open()
    yield s
    await s.close()
