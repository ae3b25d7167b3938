"""The daily puzzle posted by the bot: the setting, the post at the hour, once a day whatever the
restarts, and the expected failures as one log line. The clock is SimCord's (it starts at
2026-01-01 00:00 UTC and moves only when a test moves it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.config import Settings
from bot.games import kinds
from bot.games.settings import ServerSettings
from bot.puzzles.board import DAILY_ID
from bot.puzzles.posting import as_game
from bot.puzzles.store import PuzzleStore
from devkit.simcord_board import rows, text
from engine.puzzles import daily, prove
from tests.bot.faults_support import deny, set_bot_overwrite
from tests.bot.puzzles.puzzle_support import puzzle_of
from tests.bot.storage_support import locked
from tests.bot.test_server_settings import server_with_admin

HOUR = 3600
DAY = date(2026, 1, 1).toordinal()  # SimCord's first day


async def at_hour(env: Env, hours: int) -> None:
    """Move the clock `hours` full hours on, and past the task's waking (a second late)."""
    for _ in range(hours):
        await env.advance_time(HOUR)
    await env.advance_time(2)


async def test_the_puzzle_is_posted_at_the_hour_once(simcord_env: Env) -> None:
    """Set for 02:00 UTC: nothing at 01:00, the post at 02:00 with today's puzzle of the server
    drawn as a board, who moves and in how many moves, and the button; nothing more that day."""
    guild, channel, admin, _ = server_with_admin(simcord_env)
    done = await admin.slash(
        channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=2
    )
    said = done.response.content
    assert (
        done.ephemeral
        and f"`puzzle_channel` · Channel of the daily puzzle: <#{channel.id}>" in said
    )
    assert "`puzzle_hour` · Hour of the daily puzzle: 02:00 UTC" in done.response.content
    await at_hour(simcord_env, 1)
    assert channel.history() == []
    await at_hour(simcord_env, 1)
    [post] = channel.history()
    puzzle = daily(DAY, guild.id)
    shown = text(simcord_env, post)
    mark = "❌" if puzzle.board.turn == "X" else "⭕"
    assert "Daily puzzle · 2026-01-01" in shown
    assert f"{mark} to play and win in {puzzle.moves} moves." in shown
    assert kinds.CLASSIC.grid(as_game(puzzle), keyed=False) in shown
    [[button]] = rows(simcord_env, post)
    assert button["custom_id"] == DAILY_ID and button["label"] == "Solve it"
    await at_hour(simcord_env, 21)  # 23:00
    assert len(channel.history()) == 1
    await at_hour(simcord_env, 3)  # 02:00 the next day: the next day's puzzle
    assert len(channel.history()) == 2
    assert "Daily puzzle · 2026-01-02" in text(simcord_env, channel.history()[-1])


async def test_no_second_post_after_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """Posted at 00:00 (the default hour); the bot restarts at 01:00 and looks again at once and
    at each hour: still one post that day."""
    _, channel, admin, _ = server_with_admin(simcord_env)
    shown = await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel)
    assert "02:00" not in shown.response.content
    assert "`puzzle_hour` · Hour of the daily puzzle: 00:00 UTC (default)" in shown.response.content
    await at_hour(simcord_env, 1)
    assert len(channel.history()) == 1
    old = simcord_env.bot
    assert isinstance(old, TicTacToeBot)
    await old.release()
    await simcord_env.restart_bot(make_bot())
    await at_hour(simcord_env, 3)
    assert len(channel.history()) == 1


async def test_a_post_missed_while_the_bot_was_away_is_made_up_that_day(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """Set while the hour has passed: the post comes at the next full hour, once."""
    _, channel, admin, _ = server_with_admin(simcord_env)
    await at_hour(simcord_env, 5)
    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=3)
    assert channel.history() == []
    await at_hour(simcord_env, 1)
    assert len(channel.history()) == 1


async def test_a_missing_permission_is_one_line_and_no_post(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Send Messages taken away after the setting: no post, one warning line naming it, no
    traceback, and no second line at the next hours."""
    _, channel, admin, _ = server_with_admin(simcord_env)
    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=1)
    set_bot_overwrite(simcord_env, channel, deny("send_messages"))
    await simcord_env.settle()
    caplog.set_level(logging.INFO)
    await at_hour(simcord_env, 3)
    assert channel.history() == []
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and loud[0].exc_info is None
    assert "Send Messages" in loud[0].getMessage()


async def test_a_deleted_channel_is_one_line(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """The puzzle channel deleted: one warning line, no traceback."""
    guild, channel, admin, _ = server_with_admin(simcord_env)
    other = guild.create_text_channel("puzzles")
    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=other, puzzle_hour=1)
    simcord_env.backend.delete_channel(other.id)
    await simcord_env.settle()
    await at_hour(simcord_env, 2)
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and loud[0].exc_info is None
    assert "gone" in loud[0].getMessage()


async def test_a_database_outage_at_the_hour_is_one_line_and_the_post_comes_later(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """The database is locked at 01:00: the store's one outage line (no traceback) and no post;
    once it answers again, the post comes at the next hour, once."""
    _, channel, admin, _ = server_with_admin(simcord_env)
    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=1)
    caplog.set_level(logging.DEBUG, logger="bot.puzzles.posting")
    with locked(settings.database_path):
        await at_hour(simcord_env, 1)
    assert channel.history() == []
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in loud] == ["bot.storage.base"] and loud[0].exc_info is None
    assert any("could not claim the daily puzzle post" in r.getMessage() for r in caplog.records)
    await at_hour(simcord_env, 2)
    assert len(channel.history()) == 1


async def test_the_setting_is_validated_and_only_managers_change_it(simcord_env: Env) -> None:
    """A member without Manage Server is refused; a channel where the bot cannot send is refused
    naming the permission; reset takes the channel off, and nothing is posted then."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    closed = guild.create_text_channel("closed")
    set_bot_overwrite(simcord_env, closed, deny("send_messages"))
    await simcord_env.settle()

    refused = await alice.slash(channel, "tictactoe-settings set", puzzle_channel=closed)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    closed_refusal = await admin.slash(channel, "tictactoe-settings set", puzzle_channel=closed)
    assert closed_refusal.ephemeral
    assert f"I can't post the daily puzzle in <#{closed.id}>" in closed_refusal.response.content
    assert "**Send Messages**" in closed_refusal.response.content
    shown = await admin.slash(channel, "tictactoe-settings show")
    assert "none (the daily puzzle is not posted)" in shown.response.content

    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=1)
    reset = await admin.slash(channel, "tictactoe-settings reset", setting="puzzle_channel")
    assert "none (the daily puzzle is not posted)" in reset.response.content
    await at_hour(simcord_env, 2)
    assert channel.history() == []


async def test_a_server_on_another_shard_is_left_to_it(simcord_env: Env) -> None:
    """Settings of a server this process does not hold: no post and no claim of its day."""
    store = simcord_env.bot.store
    await store.save_server_settings(987654321, ServerSettings(puzzle_channel=1, puzzle_hour=0))
    await at_hour(simcord_env, 1)
    assert await PuzzleStore(store).claim_daily_post(987654321, DAY) is True


async def test_solve_it_gives_the_clicker_a_private_attempt(simcord_env: Env) -> None:
    """A member presses Solve it on the post: a private attempt at the very puzzle posted (the
    post and the attempt read the same clock); the post itself is left as it is."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    await admin.slash(channel, "tictactoe-settings set", puzzle_channel=channel, puzzle_hour=1)
    await at_hour(simcord_env, 1)
    [post] = channel.history()
    before = text(simcord_env, post)
    result = await alice.click(post, custom_id=DAILY_ID)
    assert result.ephemeral
    attempt = puzzle_of(simcord_env, result.response)
    assert prove(attempt)
    assert attempt == daily(DAY, guild.id)
    assert "Daily puzzle of 2026-01-01" in text(simcord_env, result.response)
    assert len(channel.history()) == 1 and text(simcord_env, post) == before
