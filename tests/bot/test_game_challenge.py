"""Playing another member: the challenge, its answers and expiry, and a game between people."""

from __future__ import annotations

from simcord import Env
from simcord.builders import UserHandle

from devkit.simcord_board import (
    board_message,
    cells,
    challenge_buttons,
    controls,
    guild_with,
    text,
)


async def challenge(env: Env, **options):
    """Alice challenges Bob in #games; returns (channel, alice, bob, carol, message)."""
    _, channel, (alice, bob, carol) = guild_with(env, "alice", "bob", "carol")
    result = await alice.slash(channel, "tictactoe", opponent=bob, **options)
    assert result.acknowledged and not result.ephemeral
    return channel, alice, bob, carol, board_message(channel)


async def test_a_challenge_mentions_the_opponent_with_accept_and_decline(simcord_env: Env):
    """The challenge is public, pings the opponent, and offers Accept, Decline and Withdraw."""
    _, alice, bob, _, message = await challenge(simcord_env)

    shown = text(simcord_env, message)
    assert f"{bob.mention}, {alice.mention} challenges you" in shown
    assert f"❌ {alice.mention} vs ⭕ {bob.mention}" in shown
    assert list(challenge_buttons(simcord_env, message)) == ["Accept", "Decline", "Withdraw"]


async def test_accepting_turns_the_challenge_into_the_board(simcord_env: Env):
    """Bob accepts: the same message becomes the board, with Alice (❌) to move."""
    _, alice, bob, _, message = await challenge(simcord_env)

    result = await bob.click(message, label="Accept")

    assert result.acknowledged and not result.ephemeral
    shown = text(simcord_env, message)
    assert f"{alice.mention}, your move (❌)" in shown
    assert [c.mark for c in cells(simcord_env, message, 3)] == [None] * 9
    assert list(controls(simcord_env, message, 3)) == ["Resign"]


async def test_a_game_between_people_alternates_turns_and_ends_with_a_winner(simcord_env: Env):
    """Alice takes the left column; the result names her and highlights the line."""
    _, alice, bob, _, message = await challenge(simcord_env)
    await bob.click(message, label="Accept")

    for player, cell in [(alice, 0), (bob, 1), (alice, 3), (bob, 4), (alice, 6)]:
        result = await player.click(message, custom_id=f"ttt:1:{cell}")
        assert not result.ephemeral

    assert f"🏆 ❌ {alice.mention} wins with A1, A2, A3!" in text(simcord_env, message)
    board = cells(simcord_env, message, 3)
    assert all(c.disabled for c in board)
    assert [i for i, c in enumerate(board) if c.style == 3] == [0, 3, 6]


async def test_first_opponent_gives_the_opponent_the_first_move(simcord_env: Env):
    """first=opponent: Bob plays ❌ and moves first once he accepts."""
    _, alice, bob, _, message = await challenge(simcord_env, first="opponent")
    assert f"❌ {bob.mention} vs ⭕ {alice.mention}" in text(simcord_env, message)

    await bob.click(message, label="Accept")

    assert f"{bob.mention}, your move (❌)" in text(simcord_env, message)


async def test_declining_ends_the_challenge(simcord_env: Env):
    """Bob declines: the message says so and has nothing left to click."""
    channel, _, bob, _, message = await challenge(simcord_env)

    await bob.click(message, label="Decline")

    assert f"{bob.mention} declined the challenge." in text(simcord_env, message)
    assert challenge_buttons(simcord_env, message) == {}
    # The channel is free again.
    again = await bob.slash(channel, "tictactoe")
    assert not again.ephemeral


async def test_the_challenger_can_withdraw(simcord_env: Env):
    """Alice changes her mind before Bob answers."""
    _, alice, _, _, message = await challenge(simcord_env)

    await alice.click(message, label="Withdraw")

    assert f"{alice.mention} withdrew the challenge." in text(simcord_env, message)


async def test_only_the_opponent_can_accept_or_decline(simcord_env: Env):
    """Alice and Carol are told why they cannot answer; the challenge stays open."""
    _, alice, bob, carol, message = await challenge(simcord_env)
    before = text(simcord_env, message)

    own = await alice.click(message, label="Accept")
    other = await carol.click(message, label="Decline")
    withdraw = await bob.click(message, label="Withdraw")

    assert own.ephemeral and f"Wait for {bob.mention} to answer" in own.response.content
    assert other.ephemeral and f"This challenge is for {bob.mention}" in other.response.content
    assert withdraw.ephemeral and "Only the challenger can withdraw" in withdraw.response.content
    assert text(simcord_env, message) == before


async def test_an_unanswered_challenge_expires_after_the_challenge_timeout(simcord_env: Env):
    """After challenge_timeout (60 s) the message says it expired and loses its buttons."""
    _, _, bob, _, message = await challenge(simcord_env)

    await simcord_env.advance_time(59)
    assert list(challenge_buttons(simcord_env, message)) == ["Accept", "Decline", "Withdraw"]
    await simcord_env.advance_time(2)

    assert f"The challenge expired: {bob.mention} did not answer in time." in text(
        simcord_env, message
    )
    assert challenge_buttons(simcord_env, message) == {}


async def test_difficulty_against_a_person_is_ignored_and_the_challenger_told(simcord_env: Env):
    """A level only means something against the bot: a private note says it was ignored."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")

    result = await alice.slash(channel, "tictactoe", opponent=bob, difficulty="easy")

    assert not result.ephemeral
    assert [f.content for f in result.followups if f.ephemeral] == [
        "Note: difficulty only applies when you play against me, so it was ignored."
    ]
    assert "(bot," not in text(simcord_env, board_message(channel))


async def test_choosing_the_bot_itself_as_opponent_plays_the_bot(simcord_env: Env):
    """opponent=<this bot> means the same as leaving the option out."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    me = simcord_env.bot.user

    await alice.slash(
        channel, "tictactoe", opponent=UserHandle(simcord_env, simcord_env.backend.bot_user)
    )

    assert f"<@{me.id}> (bot, unbeatable)" in text(simcord_env, board_message(channel))
