"""Database trouble: one clear log line, an apology, the bot keeps running, no half-written game."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from simcord import Env

from bot.assembly import sqlite_store
from bot.cogs.games import retry
from bot.cogs.games.between_clicks import RETRY
from bot.cogs.games.texts import NOT_SAVED
from bot.config import Settings
from bot.storage.base import StorageError
from devkit.simcord_board import board_message, cells, free, guild_with, people_game, resign, text
from tests.bot.storage_support import locked, one_clear_line, problems, read_only, spy_on_errors
from tests.bot.store_support import game


async def test_a_move_on_a_locked_database_is_refused_and_nothing_changes(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """A private apology; board and store keep the last move; once the lock is gone it works."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    await alice.click(message, custom_id="ttt:1:4")

    errors = spy_on_errors(simcord_env.bot.store, "save_game")
    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        result = await bob.click(message, custom_id="ttt:1:0")

    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert [c.mark for c in cells(simcord_env, message, 3)][:5] == [None, None, None, None, "X"]
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.moves == (4,)
    assert len(errors) == 1 and "locked" in str(errors[0])
    one_clear_line(caplog, errors[0])

    again = await bob.click(message, custom_id="ttt:1:0")
    assert not again.ephemeral
    assert cells(simcord_env, message, 3)[0].mark == "O"
    assert (await simcord_env.bot.store.load_game(1)).moves == (4, 0)


async def test_a_move_on_a_read_only_database_is_refused_and_nothing_changes(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Writes refused: the apology, one line saying read-only, the board and store unchanged."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    store = simcord_env.bot.store
    errors = spy_on_errors(store, "save_game")

    await read_only(store, True)
    with caplog.at_level(logging.WARNING):
        result = await alice.click(message, custom_id="ttt:1:4")
    await read_only(store, False)

    assert result.ephemeral and "sorry" in result.response.content.lower()
    assert [c.mark for c in cells(simcord_env, message, 3)] == [None] * 9
    assert (await store.load_game(1)).moves == ()  # type: ignore[union-attr]
    assert len(errors) == 1 and "read-only" in str(errors[0])
    one_clear_line(caplog, errors[0])
    again = await alice.click(message, custom_id="ttt:1:4")
    assert not again.ephemeral and cells(simcord_env, message, 3)[4].mark == "X"


@pytest.mark.usefixtures("two_step_replies")
@pytest.mark.parametrize("trouble", ["locked", "read-only"])
async def test_the_bots_reply_on_a_locked_database_is_saved_and_shown_once_it_is_free(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture, trouble: str
) -> None:
    """On 4x4, the bot's reply outlasting the click's wait (so saved after the player's move is
    shown), the database is locked by another process (or made read-only) while the bot thinks:
    its move waits, a click meanwhile is told that nothing could be saved, and once the database
    can be written again the move is saved and shown by itself."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=4)
    message = board_message(channel)
    engine = simcord_env.bot.engine
    real_best_move = engine.best_move
    lock = locked(settings.database_path)
    store = simcord_env.bot.store

    async def then_lock(*args: Any, **kwargs: Any) -> int:
        cell = await real_best_move(*args, **kwargs)
        # Before the move is saved: another process takes the database, or it turns read-only.
        if trouble == "locked":
            lock.__enter__()
        else:
            await read_only(store, True)
        return cell

    engine.best_move = then_lock
    errors = spy_on_errors(simcord_env.bot.store, "save_game")
    try:
        with caplog.at_level(logging.WARNING):
            result = await alice.click(message, custom_id="ttt:1:0")
        engine.best_move = real_best_move

        assert not result.ephemeral and not result.followups  # the player's move was shown
        marks = [c.mark for c in cells(simcord_env, message, 4)]
        assert marks[0] == "X" and marks.count("O") == 0
        # One line when the database stopped answering, none for each try that failed again
        # (debug lines), no traceback.
        assert errors and len(problems(caplog)) == 1
        record = problems(caplog)[0]
        assert str(errors[0]) in record.getMessage() and record.exc_info is None

        waiting = await alice.click(message, custom_id="ttt:1:8")
        assert waiting.ephemeral and waiting.response.content == NOT_SAVED.in_locale(None)
    finally:
        if trouble == "locked":
            lock.__exit__(None, None, None)
        else:
            await read_only(store, False)
        engine.best_move = real_best_move
    await simcord_env.advance_time(retry.PAUSE_MAX * 2)  # the bot's own try comes round

    marks = [c.mark for c in cells(simcord_env, message, 4)]
    assert marks[0] == "X" and marks.count("X") == 1 and marks.count("O") == 1
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.moves == (0, marks.index("O"))
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)
    again = await alice.click(message, custom_id=free(simcord_env, message, 4)[0].custom_id)
    assert not again.ephemeral  # and play goes on


async def test_a_new_game_on_a_locked_database_is_refused_and_the_channel_stays_free(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """/tictactoe cannot save its game: an apology, one log line, no board, the channel free."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    errors = spy_on_errors(simcord_env.bot.store, "next_game_id")
    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        result = await alice.slash(channel, "tictactoe")
    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert channel.last_message is None  # no board was posted
    assert len(errors) == 1
    one_clear_line(caplog, errors[0])

    result = await alice.slash(channel, "tictactoe")
    assert not result.ephemeral
    assert len(free(simcord_env, board_message(channel), 3)) == 9


async def test_a_rematch_on_a_locked_database_is_refused_and_can_be_asked_again(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """The new game cannot be stored: an apology, one log line, and Rematch still works later."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await resign(alice, message)
    errors = spy_on_errors(simcord_env.bot.store, "next_game_id")

    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        result = await alice.click(message, label="Rematch")

    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert board_message(channel).id == message.id  # no new board
    assert len(errors) == 1
    one_clear_line(caplog, errors[0])
    again = await alice.click(message, label="Rematch")
    assert not again.ephemeral and board_message(channel).id != message.id


async def test_a_turn_that_runs_out_while_the_database_is_away_is_given_back(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """The turn runs out while the database is locked (nobody could play: every click would be
    refused): nothing shown, one log line, no forfeit. Once the lock is gone the player to move
    gets a full turn from then, shown on the board; that turn's own end is a forfeit as usual."""
    _, alice, bob, _, message = await people_game(simcord_env)
    errors = spy_on_errors(simcord_env.bot.store, "save_game")

    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        await simcord_env.advance_time(301)

    assert len(errors) == 1
    one_clear_line(caplog, errors[0])
    assert f"{alice.mention}, your move" in text(simcord_env, message)
    before = text(simcord_env, message)
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.ending is None

    await simcord_env.advance_time(RETRY + 1)

    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.ending is None and stored.deadline is not None
    given = (stored.deadline - simcord_env.now()).total_seconds()
    assert 290 < given <= 300  # a full turn from the database's return
    assert f"{alice.mention}, your move" in text(simcord_env, message)
    assert text(simcord_env, message) != before  # the board shows the new time

    await simcord_env.advance_time(301)

    assert f"{alice.mention} ran out of time. ⭕ {bob.mention} wins by forfeit." in text(
        simcord_env, message
    )
    assert all(c.disabled for c in cells(simcord_env, message, 3))


async def test_a_turn_given_back_is_given_back_once(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """The turn runs out while the database is locked; once it is free Alice moves before the
    bot gets round to giving her time back: Bob's own turn then runs out as any other, a
    forfeit, not a turn given back."""
    _, alice, bob, _, message = await people_game(simcord_env)
    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        await simcord_env.advance_time(301)
    played = await alice.click(message, custom_id="ttt:1:4")
    assert not played.ephemeral

    await simcord_env.advance_time(301)

    assert f"{bob.mention} ran out of time. ❌ {alice.mention} wins by forfeit." in text(
        simcord_env, message
    )


async def test_an_outage_is_two_lines_whatever_fails_meanwhile(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Saves that fail while another process locks the file: one error line when the database
    stops answering, one line when it answers again, nothing for each failure in between."""
    path = tmp_path / "games.db"
    store = sqlite_store(path, busy_timeout=0.05)
    await store.open()
    try:
        with caplog.at_level(logging.DEBUG, logger="bot"):
            with locked(path):
                for gid in range(1, 6):
                    with pytest.raises(StorageError):
                        await store.save_game(game(gid))
            await store.save_game(game(6))
            await store.save_game(game(7))
    finally:
        await store.close()
    said = [r for r in caplog.records if r.name == "bot.storage.base"]
    assert [r.levelno for r in said] == [logging.ERROR, logging.INFO]
    assert "stopped answering" in said[0].getMessage() and "locked" in said[0].getMessage()
    assert "answers again after" in said[1].getMessage()
    assert "(5 calls failed meanwhile)" in said[1].getMessage()
