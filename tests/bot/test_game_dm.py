"""Playing the bot in a direct message: the same game, and the limits of a two-person chat."""

from __future__ import annotations

from simcord import Env

from devkit.simcord_board import board_message, cells, controls, resign, text


async def test_a_direct_message_game_shows_the_board_and_the_bot_replies(simcord_env: Env):
    """In the bot's DM, /tictactoe posts a board there; a click is shown and answered."""
    alice = simcord_env.create_user("alice")
    dm = alice.dm_channel

    result = await alice.slash("tictactoe")
    assert result.acknowledged and not result.ephemeral
    message = board_message(dm)
    assert message.id == result.response.id
    move = await alice.click(message, custom_id="ttt:1:4")

    assert move.acknowledged and not move.ephemeral
    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks[4] == "X" and marks.count("O") == 1
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)


async def test_a_challenge_in_a_direct_message_is_refused_with_the_reason(simcord_env: Env):
    """Nobody else can see a DM with the bot, so a person cannot be challenged there."""
    alice = simcord_env.create_user("alice")
    bob = simcord_env.create_user("bob")

    result = await alice.slash("tictactoe", opponent=bob)

    assert result.ephemeral
    assert "In my DMs you can only play against me" in result.response.content
    assert alice.dm_channel.last_message is None


async def test_one_game_at_a_time_in_a_direct_message_too(simcord_env: Env):
    """A second /tictactoe in the DM links to the running game (a DM link, not a server one)."""
    alice = simcord_env.create_user("alice")
    await alice.slash("tictactoe")
    running = board_message(alice.dm_channel)

    again = await alice.slash("tictactoe")

    assert again.ephemeral and "A game is running in this channel" in again.response.content
    assert f"/channels/@me/{alice.dm_channel.id}/{running.id}" in again.response.content


async def test_resign_and_rematch_in_a_direct_message(simcord_env: Env):
    """Resigning frees the DM; Rematch starts the next game there with the bot moving first."""
    alice = simcord_env.create_user("alice")
    await alice.slash("tictactoe", difficulty="hard")
    first = board_message(alice.dm_channel)

    await resign(alice, first)
    result = await alice.click(first, label="Rematch")

    assert not result.ephemeral
    second = board_message(alice.dm_channel)
    assert second.id != first.id
    assert "Rematch" in controls(simcord_env, first, 3)
    bot_id = simcord_env.bot.user.id
    assert f"❌ <@{bot_id}> (bot, hard) vs ⭕ {alice.mention}" in text(simcord_env, second)
    assert [c.mark for c in cells(simcord_env, second, 3)].count("X") == 1


async def test_a_direct_message_game_times_out_like_any_other(simcord_env: Env):
    """The forfeit is edited into the DM through the channel, with every cell disabled."""
    alice = simcord_env.create_user("alice")
    await alice.slash("tictactoe")
    message = board_message(alice.dm_channel)

    await simcord_env.advance_time(301)

    bot_id = simcord_env.bot.user.id
    assert f"{alice.mention} ran out of time. ⭕ <@{bot_id}> wins by forfeit." in text(
        simcord_env, message
    )
    assert all(c.disabled for c in cells(simcord_env, message, 3))
