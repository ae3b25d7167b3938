"""Everything the bot refuses, always privately, and without touching the board."""

from __future__ import annotations

from simcord import Env

from devkit.simcord_board import board_message, cells, guild_with, people_game, text
from tests.support.burst import click_together


async def test_win_length_longer_than_the_board_is_refused(simcord_env: Env):
    """size 3 with win_length 4 cannot be played: say why, start nothing."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")

    result = await alice.slash(channel, "tictactoe", size=3, win_length=4)

    assert result.ephemeral
    assert "win_length 4 does not fit on a 3×3 board" in result.response.content
    assert channel.last_message is None


async def test_challenging_yourself_is_refused(simcord_env: Env):
    """You cannot be your own opponent."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")

    result = await alice.slash(channel, "tictactoe", opponent=alice)

    assert result.ephemeral and "You can't challenge yourself" in result.response.content
    assert channel.last_message is None


async def test_challenging_another_bot_is_refused(simcord_env: Env):
    """Other bots cannot press buttons; only this bot plays, by leaving opponent out."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))

    result = await alice.slash(channel, "tictactoe", opponent=robot)

    assert result.ephemeral
    assert f"{robot.mention} is a bot and can't play" in result.response.content
    assert channel.last_message is None


async def test_one_game_per_channel_with_a_link_to_the_running_one(simcord_env: Env):
    """A second /tictactoe where a game (or a pending challenge) runs points to it."""
    guild, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    pending = board_message(channel)

    second = await bob.slash(channel, "tictactoe")

    assert second.ephemeral
    url = f"https://discord.com/channels/{guild.id}/{channel.id}/{pending.id}"
    assert f"A challenge is waiting in this channel: {url}" in second.response.content
    assert board_message(channel).id == pending.id
    # Another channel is free.
    other = guild.create_text_channel("other")
    assert not (await bob.slash(other, "tictactoe")).ephemeral


async def test_challenges_have_a_cooldown_and_playing_the_bot_does_not(simcord_env: Env):
    """Within challenge_cooldown (30 s) a second challenge is refused with the time left."""
    guild, channel, (alice, bob, carol) = guild_with(simcord_env, "alice", "bob", "carol")
    other = guild.create_text_channel("other")
    third = guild.create_text_channel("third")
    await alice.slash(channel, "tictactoe", opponent=bob)

    again = await alice.slash(other, "tictactoe", opponent=carol)
    bot_game = await alice.slash(other, "tictactoe")

    assert again.ephemeral
    assert "You can challenge again" in again.response.content
    assert "(in 30 s)" in again.response.content
    assert not bot_game.ephemeral
    await simcord_env.advance_time(31)
    later = await alice.slash(third, "tictactoe", opponent=carol)
    assert not later.ephemeral


async def test_a_stranger_cannot_play_in_someone_elses_game(simcord_env: Env):
    """Carol clicks a cell in Alice and Bob's game: told it is theirs; nothing changes."""
    _, alice, bob, carol, message = await people_game(simcord_env)
    before = text(simcord_env, message)

    result = await carol.click(message, custom_id="ttt:1:4")

    assert result.ephemeral
    assert f"This game is between {alice.mention} and {bob.mention}" in result.response.content
    assert text(simcord_env, message) == before


async def test_the_player_not_to_move_is_told_to_wait(simcord_env: Env):
    """Bob clicks on Alice's turn: 'not your turn', and the cell stays empty."""
    _, alice, bob, _, message = await people_game(simcord_env)

    result = await bob.click(message, custom_id="ttt:1:4")

    assert result.ephemeral
    assert f"It's not your turn: waiting for {alice.mention}." in result.response.content
    assert cells(simcord_env, message, 3)[4].mark is None


async def test_two_clicks_at_once_by_the_player_to_move_apply_only_one(simcord_env: Env):
    """Alice double-clicks two cells at the same instant: one move, one refusal."""
    _, alice, _, _, message = await people_game(simcord_env)

    results = await click_together(
        simcord_env, [(alice, message, "ttt:1:0"), (alice, message, "ttt:1:8")]
    )

    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks.count("X") == 1 and marks.count("O") == 0
    assert sorted(r.ephemeral for r in results) == [False, True]
    refused = next(r for r in results if r.ephemeral)
    assert "It's not your turn" in refused.response.content


async def test_both_players_clicking_at_once_cannot_both_move(simcord_env: Env):
    """Alice and Bob click together on Alice's turn: only Alice's move lands."""
    _, alice, bob, _, message = await people_game(simcord_env)

    results = await click_together(
        simcord_env, [(bob, message, "ttt:1:4"), (alice, message, "ttt:1:0")]
    )

    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks[0] == "X" and marks.count("O") == 0
    assert results[0].ephemeral and not results[1].ephemeral


async def test_a_click_arriving_with_the_first_against_the_bot_is_told_what_changed(
    simcord_env: Env,
):
    """A second click that arrives with the first, against the bot on 3x3: the first click's
    response shows Alice's move and the bot's reply; the second, made on the empty board, is
    refused with the moves it did not see (the bot thinking on a big board: test_game_big_boards).
    """
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    results = await click_together(
        simcord_env, [(alice, message, "ttt:1:0"), (alice, message, "ttt:1:8")]
    )

    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks[0] == "X" and marks[4] == "O"  # the only reply to a corner that does not lose
    assert marks.count("X") == 1 and marks.count("O") == 1
    refused = [r for r in results if r.ephemeral]
    assert len(refused) == 1 and all(r.acknowledged and not r.followups for r in results)
    assert refused[0].response.content.startswith(
        "The board changed before your click arrived: X played A1, O played B2."
    )
