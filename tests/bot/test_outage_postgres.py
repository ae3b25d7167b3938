"""The database server stopped and started under the running bot (PostgreSQL, SimCord for
Discord): the bot's own moves made meanwhile wait and appear by themselves once it is back, a
click meanwhile is told nothing could be saved, and a turn that ran out meanwhile is given back."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import Env

from bot.cogs.games import retry
from bot.cogs.games.between_clicks import RETRY
from bot.cogs.games.texts import NOT_SAVED
from devkit.postgres import PgServer
from devkit.simcord_board import board_message, cells, guild_with, people_game, text
from tests.bot.test_game_postgres import settings  # noqa: F401  (the bot on PostgreSQL)


def stop_after_the_engine(env: Env, server: PgServer) -> None:
    """The server stops each time the engine has found a move, before the bot saves it."""
    engine = env.bot.engine
    real_best_move = engine.best_move

    async def then_stop(*args: Any, **kwargs: Any) -> int:
        cell = await real_best_move(*args, **kwargs)
        if server.running:
            server.stop("immediate")
            server.running = False
        return cell

    server.running = True  # type: ignore[attr-defined]
    engine.best_move = then_stop


def marks(env: Env, message: Any, size: int) -> list[str | None]:
    return [c.mark for c in cells(env, message, size)]


@pytest.mark.usefixtures("two_step_replies")
@pytest.mark.parametrize("size", [4, 5])
async def test_the_bots_move_made_while_the_server_is_away_appears_once_it_is_back(
    simcord_env: Env, postgres_server: PgServer, size: int
) -> None:
    """Two games against the bot; the server stops as the engine answers the first: that move
    waits (the board shows the player's move), a click on it is told nothing could be saved, a
    move in the second game meanwhile is refused too; the server comes back and both boards go
    on by themselves, with no click; every move is stored once."""
    guild, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    other = guild.create_text_channel("more")
    await alice.slash(channel, "tictactoe", size=size)
    first = board_message(channel)
    await bob.slash(other, "tictactoe", size=size)
    second = board_message(other)
    stop_after_the_engine(simcord_env, postgres_server)
    try:
        played = await alice.click(first, custom_id="ttt:1:0")
        assert not played.ephemeral and marks(simcord_env, first, size).count("O") == 0
        waiting = await alice.click(first, custom_id=f"ttt:1:{size * size - 1}")
        assert waiting.ephemeral and waiting.response.content == NOT_SAVED.in_locale(None)
        refused = await bob.click(second, custom_id="ttt:2:0")
        assert refused.ephemeral and "sorry" in refused.response.content.lower()
        await simcord_env.advance_time(retry.PAUSE_MAX * 2)  # tries while it is still away
        assert marks(simcord_env, first, size).count("O") == 0
    finally:
        postgres_server.start()
    await simcord_env.advance_time(retry.PAUSE_MAX + 1)  # the next try comes round

    shown = marks(simcord_env, first, size)
    assert shown[0] == "X" and shown.count("O") == 1
    assert f"{alice.mention}, your move" in text(simcord_env, first)
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.moves == (0, shown.index("O"))
    again = await bob.click(second, custom_id="ttt:2:0")  # the other game goes on too
    assert not again.ephemeral and marks(simcord_env, second, size)[0] == "X"


async def test_a_turn_that_runs_out_while_the_server_is_away_is_given_back(
    simcord_env: Env, postgres_server: PgServer
) -> None:
    """The turn's deadline falls while the server is stopped: no forfeit; once it is back the
    player to move gets a full turn from then, shown on the board."""
    _, alice, _, _, message = await people_game(simcord_env)
    postgres_server.stop("immediate")
    try:
        await simcord_env.advance_time(301)
        assert f"{alice.mention}, your move" in text(simcord_env, message)
    finally:
        postgres_server.start()
    await simcord_env.advance_time(RETRY + 1)

    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.ending is None and stored.deadline is not None
    assert 290 < (stored.deadline - simcord_env.now()).total_seconds() <= 300
    played = await alice.click(message, custom_id="ttt:1:4")
    assert not played.ephemeral and marks(simcord_env, message, 3)[4] == "X"


async def test_a_click_on_a_finished_game_while_the_server_is_away_is_one_line(
    simcord_env: Env, postgres_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A finished game lives only in the database: a click on its board (Rematch) while the
    server is stopped is told nothing could be done, with one line in the log and no traceback;
    once the server is back the same click works."""
    _, alice, bob, _, message = await people_game(simcord_env)
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        await player.click(message, custom_id=f"ttt:1:{cell}")
    postgres_server.stop("immediate")
    try:
        with caplog.at_level(logging.WARNING):
            refused = await bob.click(message, custom_id="ttt:1:rematch")
    finally:
        postgres_server.start()

    assert refused.ephemeral and refused.response.content == NOT_SAVED.in_locale(None)
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    # The one line is the store's: the outage began (the click's own line is a debug line).
    assert [r.exc_info for r in logged] == [None]
    assert "the database stopped answering: cannot load game 1" in logged[0].getMessage()
    again = await bob.click(message, custom_id="ttt:1:rematch")
    assert again.acknowledged
