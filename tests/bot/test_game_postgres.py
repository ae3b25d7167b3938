"""The whole bot on PostgreSQL (SimCord for Discord): a game played, a restart, and the
database server stopped mid-game: the players get the apology, and once the server is back the
same bot goes on, with nothing half written."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.config import Settings
from bot.games.stats import Record
from bot.storage.postgres import PostgresStore
from devkit.postgres import PgServer
from devkit.simcord_board import board_message, cells, people_game
from tests.bot.storage_support import one_clear_line, spy_on_errors
from tests.bot.test_restart import restart


@pytest.fixture
def settings(tmp_path: Path, postgres_url: str) -> Settings:
    """The bot's settings with DATABASE_URL set (no SQLite file is made)."""
    return Settings(
        token="simulated.bot.token",
        database_path=tmp_path / "unused" / "tictactoe.db",
        database_url=postgres_url,
        engine_workers=1,
    )


async def test_a_game_is_played_and_counted_on_postgresql(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot], settings: Settings
) -> None:
    """Moves before and after a restart land on the same board; the win is counted once."""
    assert isinstance(simcord_env.bot.store, PostgresStore)
    channel, alice, bob, _, message = await people_game(simcord_env)
    for who, cell in ((alice, 0), (bob, 3), (alice, 1)):
        assert not (await who.click(message, custom_id=f"ttt:1:{cell}")).ephemeral
    await restart(simcord_env, make_bot)
    await bob.click(message, custom_id="ttt:1:4")
    await alice.click(message, custom_id="ttt:1:2")
    assert [c.mark for c in cells(simcord_env, message, 3)][:5] == ["X", "X", "X", "O", "O"]
    stats = await simcord_env.bot.store.player_stats(channel.guild.id, alice.id)
    assert stats.vs_people == Record(wins=1) and stats.rated_games == 1
    assert not settings.database_path.parent.exists()


async def test_database_down_mid_game_then_back(
    simcord_env: Env, postgres_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Server stopped: the click gets the private apology, one log line, the board unchanged.
    Server back: the next click plays, on the same bot, and the store has every move once."""
    channel, alice, bob, _, message = await people_game(simcord_env)
    await alice.click(message, custom_id="ttt:1:4")
    store = simcord_env.bot.store
    errors = spy_on_errors(store, "save_game")
    postgres_server.stop("immediate")
    try:
        with caplog.at_level(logging.WARNING):
            result = await bob.click(message, custom_id="ttt:1:0")
    finally:
        postgres_server.start()
    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert [c.mark for c in cells(simcord_env, message, 3)][:5] == [None, None, None, None, "X"]
    assert len(errors) == 1
    one_clear_line(caplog, errors[0])

    again = await bob.click(message, custom_id="ttt:1:0")
    assert not again.ephemeral and cells(simcord_env, message, 3)[0].mark == "O"
    stored = await store.load_game(1)
    assert stored is not None and stored.moves == (4, 0)
    assert board_message(channel).id == message.id
