"""Edges: mentions, malformed commands, clicks on boards that moved on or whose game was
abandoned, and a busy channel whose board is gone."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import Env

from bot.games.record import Ending, Status
from devkit.simcord_board import board_message, cells, game_id_of, guild_with, people_game, text
from tests.bot.faults_support import (
    CALLBACK,
    answered_once,
    drop_gateway,
    moderator,
    stored,
)
from tests.bot.test_faults_input import no_errors_logged
from tests.bot.test_restart import restart
from tests.support.burst import click_together
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


# ------------------------------------------------------- clicks on an old position


async def test_a_click_on_a_board_that_moved_on_is_refused_not_played_blind(
    simcord_env: Env,
) -> None:
    """X and O click at the same instant on X's turn: X's move is played; O's click, made on a
    board that still showed X to move, is refused privately and the board shown again."""
    _, alice, bob, _, message = await people_game(simcord_env)

    first, second = await click_together(
        simcord_env, [(alice, message, "ttt:1:4"), (bob, message, "ttt:1:0")]
    )

    assert answered_once(first) and not first.ephemeral
    assert second.acknowledged and second.ephemeral
    assert "The board changed before your click arrived: X played B2." in (second.response.content)
    shown = [c.mark for c in cells(simcord_env, message, 3)]
    assert shown == [None, None, None, None, "X", None, None, None, None]
    assert (await stored(simcord_env, 1)).moves == (4,)
    assert f"{bob.mention}, your move (⭕)" in text(simcord_env, message)

    again = await bob.click(message, custom_id="ttt:1:0")  # on the board as it is now
    assert answered_once(again) and not again.ephemeral
    assert (await stored(simcord_env, 1)).moves == (4, 0)
    assert simcord_env.errors == []


# ------------------------------------------------------------ a busy channel


async def test_a_busy_answer_never_links_a_board_deleted_while_the_bot_was_down(
    simcord_env: Env, make_bot: Any
) -> None:
    """The board is deleted while no bot listens; after the restart the bot finds it gone (its
    read-back of the live games' boards at start-up, or /tictactoe in that channel), abandons its
    game, and /tictactoe starts the new one without linking the old board."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    mod = await moderator(simcord_env, guild)
    await alice.slash(channel, "tictactoe")
    old = board_message(channel)
    await alice.click(old, custom_id="ttt:1:0")
    await drop_gateway(simcord_env)  # from here on the bot hears nothing
    await mod.delete(old)
    await restart(simcord_env, make_bot)

    fresh = await mod.slash(channel, "tictactoe")

    assert answered_once(fresh) and not fresh.ephemeral
    gone = await stored(simcord_env, 1)
    assert (gone.status, gone.ending, gone.winner) == (Status.FINISHED, Ending.ABANDONED, None)
    assert (await stored(simcord_env, 2)).status is Status.ACTIVE
    assert f"{mod.mention}, your move" in text(simcord_env, board_message(channel))
    assert simcord_env.errors == []


async def test_a_busy_answer_links_a_board_that_is_there(simcord_env: Env) -> None:
    """The board exists: the channel stays busy, and the answer links it."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    mod = await moderator(simcord_env, guild)
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    busy = await mod.slash(channel, "tictactoe")

    assert answered_once(busy) and busy.ephemeral
    assert f"/channels/{guild.id}/{channel.id}/{message.id}" in busy.response.content
    assert (await stored(simcord_env, 1)).status is Status.ACTIVE
