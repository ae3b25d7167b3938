"""Answers Discord refuses as too late (10062 Unknown interaction): the bot was held up past the
interaction's 3 seconds (a process stopped for a while, a connection that came back with its
events replayed, 5xx answers retried), and a board whose end was never shown; each also comes
up in the chaos soak (benchmarks/chaos/soak.py).

An expected condition: one line in the log, no traceback, no apology through a dead token; the
stored game stays right, and a board the late answer would have shown is shown another way."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import Env

from bot.games.record import Status
from devkit.simcord_board import board_message, game_id_of, guild_with
from tests.bot.faults_support import (
    CALLBACK,
    CHANNEL_EDIT,
    marks,
    people_game,
    shows_store,
    stored,
)

TOO_LATE = {"status": 404, "code": 10062, "message": "Unknown interaction"}


def one_line_each(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The bot's warnings and errors; none of them may carry a traceback."""
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in records if r.exc_info] == []
    return [r.getMessage() for r in records]


async def test_a_move_answered_too_late_is_kept_and_shown_through_the_channel(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's click is answered after its 3 s: her move is stored, the board shows it (edited
    through the channel), the log says so in a line, and Bob plays on."""
    _, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, **TOO_LATE)

    late = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert not late.acknowledged and not late.followups
    assert (await stored(simcord_env, game)).moves == (4,)
    assert marks(simcord_env, message)[4] == "X"
    assert await shows_store(simcord_env, message, game)
    (line,) = one_line_each(caplog)
    assert "could not update the board of game" in line and "Unknown interaction" in line
    nxt = await bob.click(message, custom_id=f"ttt:{game}:0")
    assert nxt.acknowledged and not nxt.ephemeral
    assert (await stored(simcord_env, game)).moves == (4, 0)


async def test_a_refusal_answered_too_late_is_one_line(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Bob clicks on Alice's turn and the refusal comes too late: nothing stored, nothing more
    sent, one line logged."""
    _, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, **TOO_LATE)

    late = await bob.click(message, custom_id=f"ttt:{game}:4")

    assert not late.acknowledged and not late.followups
    assert (await stored(simcord_env, game)).moves == ()
    (line,) = one_line_each(caplog)
    assert "had expired" in line
    played = await alice.click(message, custom_id=f"ttt:{game}:4")
    assert played.acknowledged and not played.ephemeral


async def test_a_game_whose_board_came_too_late_frees_its_channel(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """/tictactoe answered too late: no board exists, so the game is abandoned and the channel
    is free for the next /tictactoe; one line logged, no apology attempted."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    simcord_env.inject_error("POST", CALLBACK, **TOO_LATE)

    late = await alice.slash(channel, "tictactoe")

    assert not late.acknowledged and not late.followups
    first = await simcord_env.bot.store.load_game(1)
    assert first is not None and first.ending is not None and first.ending.value == "abandoned"
    (line,) = one_line_each(caplog)
    assert line.startswith("a new board: ") and "had expired" in line
    again = await alice.slash(channel, "tictactoe")
    assert again.acknowledged and not again.ephemeral
    assert game_id_of(simcord_env, board_message(channel)) == 2


async def test_a_refused_command_answered_too_late_is_one_line(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A second /tictactoe in a busy channel, its refusal too late: one line, nothing sent."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    simcord_env.inject_error("POST", CALLBACK, **TOO_LATE)

    late = await alice.slash(channel, "tictactoe")

    assert not late.acknowledged and not late.followups
    (line,) = one_line_each(caplog)
    assert line.startswith("a private answer: ") and "had expired" in line


async def test_a_board_discord_refuses_frees_its_channel_and_is_apologized_for(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """/tictactoe whose board Discord refuses (a 429 with no retry): the game is abandoned, the
    starter gets the private apology, the log one line; the next /tictactoe opens a board."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    simcord_env.inject_error("POST", CALLBACK, status=429, message="You are being rate limited.")

    refused = await alice.slash(channel, "tictactoe")

    assert refused.ephemeral and "went wrong" in refused.response.content
    first = await simcord_env.bot.store.load_game(1)
    assert first is not None and first.ending is not None and first.ending.value == "abandoned"
    (line,) = one_line_each(caplog)
    assert line.startswith("could not post the board of game 1: 429")
    again = await alice.slash(channel, "tictactoe")
    assert again.acknowledged and not again.ephemeral


async def test_a_finished_games_end_never_shown_is_shown_by_the_next_click(
    simcord_env: Env, make_bot: Any
) -> None:
    """Alice's winning move is stored but Discord fails every edit of it, and the bot restarts
    (the process that knew the board was behind is gone): Bob's click on the board, which still
    shows the game running, is refused and the board shows the end."""
    _, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4)):
        await player.click(message, custom_id=f"ttt:{game}:{cell}")
    simcord_env.inject_error("POST", CALLBACK, status=500)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=500, times=None)  # until cleared
    await alice.click(message, custom_id=f"ttt:{game}:2")
    assert (await stored(simcord_env, game)).status is Status.FINISHED
    assert marks(simcord_env, message)[2] is None  # the end is not on the board
    await simcord_env.restart_bot(make_bot())
    simcord_env.backend.faults.clear()  # Discord is well again; a finished game is not read back

    late = await bob.click(message, custom_id=f"ttt:{game}:5")

    assert late.acknowledged and late.ephemeral
    assert (await stored(simcord_env, game)).moves == (0, 3, 1, 4, 2)
    assert marks(simcord_env, message)[2] == "X"
    assert await shows_store(simcord_env, message, game)


async def test_a_refusal_discord_rate_limits_is_one_line_and_an_apology(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Bob clicks on Alice's turn and Discord answers the refusal 429 (no wait offered): one line
    in the log, no traceback, and the apology takes the refusal's place."""
    _, _, _, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=429, message="You are being rate limited.")

    refused = await bob.click(message, custom_id=f"ttt:{game}:4")

    assert refused.ephemeral and "went wrong" in refused.response.content
    (line,) = one_line_each(caplog)
    assert line.startswith(f"click on 'ttt:{game}:4': Discord refused an answer: 429")
