"""SimCord fixtures: the real bot, with a real SQLite file, against a simulated Discord."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.client import TicTacToeBot, create_bot
from bot.config import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings as a user would write them, with the database in a fresh folder."""
    return Settings(
        token="simulated.bot.token",
        database_path=tmp_path / "data" / "tictactoe.db",
        engine_workers=1,
    )


@pytest.fixture
def make_bot(settings: Settings) -> Callable[..., TicTacToeBot]:
    """Build a fresh bot process-equivalent on the same database (for restarts)."""

    def make(**changes: object) -> TicTacToeBot:
        import dataclasses

        return create_bot(dataclasses.replace(settings, **changes) if changes else settings)

    return make


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TicTacToeBot]) -> TicTacToeBot:
    """The bot SimCord's `simcord_env` fixture runs."""
    return make_bot()
