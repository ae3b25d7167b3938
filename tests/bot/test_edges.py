"""Edges: mentions, malformed commands, clicks on boards that moved on or whose game was
abandoned, and a busy channel whose board is gone."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import Env

from tests.bot.game_support import guild_with, people_game, text
from tests.bot.test_faults_discord import CALLBACK, answered_once, game_id_of, stored
from tests.bot.test_faults_input import no_errors_logged
from tests.support.forge import raw_slash

SUBCOMMAND, STRING, USER = 1, 3, 6


# ------------------------------------------------------------------------ mentions


async def test_a_mention_gets_one_line_and_logs_nothing(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """ "@bot hello": one reply pointing to /tictactoe, no CommandNotFound in the log."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    bot_id = simcord_env.backend.bot_user.id

    with caplog.at_level(logging.INFO):
        said = await alice.send(channel, f"<@{bot_id}> hello")
        await alice.send(channel, "hello everyone")  # not to the bot: no answer

    replies = [m for m in channel.history() if m.author.id == bot_id]
    assert len(replies) == 1
    (answer,) = replies
    assert "/tictactoe" in answer.content and len(answer.content.splitlines()) == 1
    assert answer.reference is not None and answer.reference.message_id == said.id
    assert no_errors_logged(caplog)
    assert not [r for r in caplog.records if "CommandNotFound" in r.getMessage()]
    assert simcord_env.errors == []


# -------------------------------------------------------------- malformed commands


async def run_raw(env: Env, name: str, options: list[dict[str, Any]], **kw: Any) -> Any:
    _, channel, (alice,) = guild_with(env, "alice")
    return await raw_slash(env, alice, channel, name, options, **kw), channel


@pytest.mark.parametrize(
    ("name", "options", "says"),
    [
        (
            "tictactoe",
            [{"name": "teleport", "type": SUBCOMMAND, "options": []}],
            "/tictactoe has no subcommand teleport",
        ),
        (
            "tictactoe",
            [{"name": "opponent", "type": STRING, "value": "alice"}],
            "opponent arrived as text",
        ),
        (
            "tictactoe-stats",
            [{"name": "user", "type": USER, "value": "424242424242"}],
            "could not find the user <@424242424242>",
        ),
    ],
    ids=["unknown subcommand", "opponent as a string", "stats user unresolved"],
)
async def test_a_malformed_command_gets_its_own_private_line(
    simcord_env: Env, caplog: pytest.LogCaptureFixture, name: str, options: Any, says: str
) -> None:
    """One private line saying what was wrong; nothing logged at ERROR; no game."""
    with caplog.at_level(logging.INFO):
        result, channel = await run_raw(simcord_env, name, options)

    assert answered_once(result) and result.ephemeral
    assert says in result.response.content
    assert "something went wrong" not in result.response.content
    assert channel.last_message is None
    assert no_errors_logged(caplog)
    assert simcord_env.errors == []


# --------------------------------------------------------------- abandoned games


async def test_a_click_on_an_abandoned_games_board_says_start_a_new_game(
    simcord_env: Env,
) -> None:
    """The board could not be updated (gone): the game is abandoned; a later click on what the
    clicker still sees is told to start a new game, not to ask for a rematch."""
    _, alice, bob, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=404, code=10008, message="Unknown Message")
    await alice.click(message, custom_id=f"ttt:{game}:4")
    assert (await stored(simcord_env, game)).ending is not None

    result = await bob.click(message, custom_id=f"ttt:{game}:0")

    assert answered_once(result) and result.ephemeral
    assert "abandoned" in result.response.content
    assert "/tictactoe" in result.response.content
    assert "rematch" not in result.response.content
    assert f"{alice.mention}, your move" in text(simcord_env, message)  # never changed
