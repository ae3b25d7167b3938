"""Unexpected failures: one private apology for the user, the cause in the log, the bot goes on."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import Env

from bot.discord_ui.replies import SORRY
from devkit.simcord_board import board_message, cells, free, guild_with, text

# Each test breaks the bot on purpose and checks its one apology and its logged traceback.
pytestmark = pytest.mark.tracebacks


class Broken(RuntimeError):
    """A bug, not a storage failure: nothing in the bot expects it."""


def break_method(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Make `owner.name` raise Broken on every call; returns the list of calls made."""
    calls: list[int] = []

    async def broken(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise Broken(f"{name} is broken")

    monkeypatch.setattr(owner, name, broken)
    return calls


def logged_cause(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    """The one error logged, which carries the Broken exception (its traceback) with it."""
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert errors[0].exc_info is not None and isinstance(errors[0].exc_info[1], Broken)
    return errors[0]


async def test_an_unexpected_error_in_the_command_is_one_private_apology_and_logged(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """/tictactoe hits a bug: an ephemeral apology, the cause logged once, the channel free."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    calls = break_method(monkeypatch, simcord_env.bot.store, "next_game_id")

    with caplog.at_level(logging.ERROR):
        result = await alice.slash(channel, "tictactoe")

    assert calls == [1]
    assert result.acknowledged and result.ephemeral
    assert result.response.content == SORRY.in_locale(None)
    assert result.followups == []
    assert channel.last_message is None
    assert "tictactoe" in logged_cause(caplog).getMessage()
    # SimCord reports every error that reaches the command tree; this one was expected.
    (reported,) = simcord_env.errors
    assert isinstance(reported.__cause__, Broken)

    monkeypatch.undo()
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral  # the failed command did not keep the channel
    assert len(free(simcord_env, board_message(channel), 3)) == 9


async def test_an_unexpected_error_in_a_click_is_one_private_apology_and_logged(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A move hits a bug while saving: an ephemeral apology, the cause logged, the board as was."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    calls = break_method(monkeypatch, simcord_env.bot.store, "save_game")

    with caplog.at_level(logging.ERROR):
        result = await alice.click(message, custom_id="ttt:1:4")

    assert calls == [1]
    assert result.acknowledged and result.ephemeral
    assert result.response.content == SORRY.in_locale(None)
    assert result.followups == []
    assert [c.mark for c in cells(simcord_env, message, 3)] == [None] * 9
    assert "ttt:1:4" in logged_cause(caplog).getMessage()

    monkeypatch.undo()
    again = await alice.click(message, custom_id="ttt:1:4")
    assert not again.ephemeral
    assert cells(simcord_env, message, 3)[4].mark == "X"
    assert f"{bob.mention}, your move" in text(simcord_env, message)


@pytest.mark.usefixtures("two_step_replies")
async def test_an_error_after_the_board_was_posted_is_apologized_for_in_a_followup(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A 4x4 reply that outlasts the click's wait is saved after the move was shown; when that
    save breaks: one private note, as a followup."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=4)
    message = board_message(channel)
    real_save = simcord_env.bot.store.save_game
    saves: list[int] = []

    async def second_save_breaks(game: Any) -> None:
        saves.append(len(game.moves))
        if len(game.moves) == 2:  # the bot's reply
            raise Broken("save_game is broken")
        await real_save(game)

    monkeypatch.setattr(simcord_env.bot.store, "save_game", second_save_breaks)
    with caplog.at_level(logging.ERROR):
        result = await alice.click(message, custom_id="ttt:1:0")

    assert saves == [1, 2]
    assert result.acknowledged and not result.ephemeral  # the move itself was shown
    assert [f.content for f in result.followups] == [SORRY.in_locale(None)]
    assert all(f.ephemeral for f in result.followups)
    logged_cause(caplog)
    marks = [c.mark for c in cells(simcord_env, message, 4)]
    assert marks[0] == "X" and marks.count("O") == 0


@pytest.mark.parametrize(
    ("command", "method"),
    [("tictactoe-stats", "player_stats"), ("tictactoe-leaderboard", "leaderboard")],
)
async def test_an_unexpected_error_in_a_stats_command_is_one_private_apology_and_logged(
    simcord_env: Env,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    command: str,
    method: str,
) -> None:
    """The read commands answer a bug the same way: never 'This interaction failed'."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    calls = break_method(monkeypatch, simcord_env.bot.store, method)

    with caplog.at_level(logging.ERROR):
        result = await alice.slash(channel, command)

    assert calls == [1]
    assert result.acknowledged and result.ephemeral
    assert result.response.content == SORRY.in_locale(None)
    assert result.followups == []
    assert command in logged_cause(caplog).getMessage()
    (reported,) = simcord_env.errors
    assert isinstance(reported.__cause__, Broken)
