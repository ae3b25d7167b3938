"""Games survive a restart: the old buttons work, challenges can be answered, deadlines fire.

A restart here is what a process restart is: the old bot's engine workers and database
connection are gone (released), and a new bot starts on the same SQLite file, against the same
simulated Discord, whose messages still carry the old buttons.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from simcord import Env

from bot.client import TicTacToeBot
from bot.games import rules as play
from devkit.simcord_board import (
    board_message,
    cells,
    challenge_buttons,
    controls,
    free,
    guild_with,
    people_game,
    text,
)
from tests.support.burst import click_together


def channel_edits(env: Env, message: discord.Message) -> int:
    """How many times the bot has edited the message through its channel so far."""
    path = f"/channels/{message.channel.id}/messages/{message.id}"
    return sum(r.method == "PATCH" and r.path == path for r in env.http_requests)


async def restart(env: Env, make_bot: Callable[..., TicTacToeBot], **changes: object) -> None:
    """Stop the running bot the way a dead process stops, then start a new one."""
    old = env.bot
    assert isinstance(old, TicTacToeBot)
    await old.release()
    await env.restart_bot(make_bot(**changes))


async def test_a_game_against_the_bot_goes_on_after_a_restart(simcord_env: Env, make_bot) -> None:
    """The first move before the restart, the second after it, on the same message."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await alice.click(message, custom_id=free(simcord_env, message, 3)[0].custom_id)
    before = [c.mark for c in cells(simcord_env, message, 3)]
    assert before.count("X") == 1 and before.count("O") == 1

    await restart(simcord_env, make_bot)

    target = free(simcord_env, message, 3)[0]
    result = await alice.click(message, custom_id=target.custom_id)
    assert result.acknowledged and not result.ephemeral
    after = [c.mark for c in cells(simcord_env, message, 3)]
    assert after.count("X") == 2
    assert after[int(target.custom_id.rsplit(":", 1)[1])] == "X"
    assert all(after[i] == before[i] for i in range(9) if before[i])


async def test_a_challenge_can_be_accepted_after_a_restart(simcord_env: Env, make_bot) -> None:
    """Bob accepts a challenge made before the restart, and the game starts."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)

    await restart(simcord_env, make_bot)

    result = await bob.click(message, label="Accept")
    assert result.acknowledged and not result.ephemeral
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)
    assert list(controls(simcord_env, message, 3)) == ["Resign"]


async def test_a_challenge_still_expires_after_a_restart(simcord_env: Env, make_bot) -> None:
    """The expiry is stored, not a timer that died with the old process."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)

    await restart(simcord_env, make_bot)
    await simcord_env.advance_time(61)

    assert "expired" in text(simcord_env, message)
    assert not challenge_buttons(simcord_env, message) or all(
        b.get("disabled") for b in challenge_buttons(simcord_env, message).values()
    )


async def test_the_turn_deadline_fires_after_a_restart(simcord_env: Env, make_bot) -> None:
    """Bob never moves: five minutes later, across a restart, he forfeits."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    await alice.click(message, custom_id=cells(simcord_env, message, 3)[4].custom_id)
    await simcord_env.advance_time(200)

    await restart(simcord_env, make_bot)
    await simcord_env.advance_time(101)

    shown = text(simcord_env, message)
    assert alice.mention in shown and ("time" in shown.lower() or "forfeit" in shown.lower())
    assert all(c.disabled for c in cells(simcord_env, message, 3))


async def test_a_deadline_that_passed_while_down_fires_at_start(simcord_env: Env, make_bot) -> None:
    """The bot was down when the turn ran out: the new bot ends the game as it starts."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    old = simcord_env.bot
    await old.release()
    # Down for ten minutes: no bot runs the old timers (the old bot's tasks are cancelled).
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(301)

    assert all(c.disabled for c in cells(simcord_env, message, 3))
    # The channel is free again.
    result = await alice.slash(channel, "tictactoe")
    assert not result.ephemeral


async def test_a_click_on_a_game_that_no_longer_exists_is_explained(
    simcord_env: Env, make_bot, tmp_path
) -> None:
    """The database was replaced: an old button answers privately, without an exception."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    await restart(simcord_env, make_bot, database_path=tmp_path / "other" / "fresh.db")

    result = await alice.click(message, custom_id=free(simcord_env, message, 3)[0].custom_id)
    assert result.ephemeral
    assert "no longer" in result.response.content.lower()


async def test_a_result_counts_once_when_the_final_click_is_retried(
    simcord_env: Env, make_bot
) -> None:
    """The winning click arrives twice at once, then again after a restart: one win recorded."""
    guild, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    for player, cell in [(alice, 0), (bob, 1), (alice, 3), (bob, 4)]:
        await player.click(message, custom_id=f"ttt:1:{cell}")

    both = await click_together(simcord_env, [(alice, message, "ttt:1:6")] * 2)
    assert all(r.acknowledged for r in both)
    assert sorted(r.ephemeral for r in both) == [False, True]
    await restart(simcord_env, make_bot)
    stats = await simcord_env.bot.store.player_stats(guild.id, alice.id)
    assert (stats.vs_people.wins, stats.vs_people.games) == (1, 1)
    loser = await simcord_env.bot.store.player_stats(guild.id, bob.id)
    assert (loser.vs_people.losses, loser.vs_people.games) == (1, 1)
    assert stats.rating > loser.rating


async def test_a_board_left_behind_by_a_dead_process_is_shown_again(
    simcord_env: Env, make_bot
) -> None:
    """Bob's move was saved but never shown (the process died in between). At the restart the
    bot reads the board back and brings it up to date with nobody clicking; a click there then
    leaves the up-to-date board alone."""
    _, alice, bob, _, message = await people_game(simcord_env)
    await alice.click(message, custom_id="ttt:1:0")
    store = simcord_env.bot.store
    game = await store.load_game(1)
    assert game is not None
    await store.save_game(play.play(game, 4))  # saved; the edit never went out

    await restart(simcord_env, make_bot)
    await simcord_env.settle()
    shown = [c.mark for c in cells(simcord_env, message, 3)]
    assert shown[0] == "X" and shown[4] == "O" and shown.count(None) == 7

    before = channel_edits(simcord_env, message)
    again = await bob.click(message, custom_id="ttt:1:8")
    assert again.ephemeral and "not your turn" in again.response.content
    assert channel_edits(simcord_env, message) == before


async def test_an_up_to_date_board_is_left_alone_after_a_restart(
    simcord_env: Env, make_bot
) -> None:
    """A refused first click after a restart does not edit a board that shows the game."""
    _, alice, _, _, message = await people_game(simcord_env)
    await alice.click(message, custom_id="ttt:1:0")
    await restart(simcord_env, make_bot)
    before = channel_edits(simcord_env, message)

    refused = await alice.click(message, custom_id="ttt:1:4")
    assert refused.ephemeral and "not your turn" in refused.response.content
    assert channel_edits(simcord_env, message) == before
