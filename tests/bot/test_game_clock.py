"""Time, resign and rematch: how games end other than by a line, and what follows.

Restarts (stored deadlines, old buttons) are tested in test_restart.py.
"""

from __future__ import annotations

import pytest
from simcord import Env

from devkit.simcord_board import (
    board_message,
    cells,
    controls,
    guild_with,
    people_game,
    resign,
    text,
)


async def test_the_player_to_move_forfeits_after_the_turn_timeout(simcord_env: Env):
    """Alice lets 5 minutes pass: she loses by forfeit, every button is disabled."""
    _, alice, bob, _, message = await people_game(simcord_env)

    await simcord_env.advance_time(299)
    assert "your move" in text(simcord_env, message)
    await simcord_env.advance_time(2)

    shown = text(simcord_env, message)
    assert f"⌛ {alice.mention} ran out of time. ⭕ {bob.mention} wins by forfeit." in shown
    assert all(c.disabled for c in cells(simcord_env, message, 3))
    shown_controls = controls(simcord_env, message, 3)
    assert "Rematch" in shown_controls and "Resign" not in shown_controls


async def test_each_move_restarts_the_clock_for_the_other_player(simcord_env: Env):
    """Alice moves after 200 s; Bob then has a full 300 s, and it is Bob who forfeits."""
    _, alice, bob, _, message = await people_game(simcord_env)

    await simcord_env.advance_time(200)
    await alice.click(message, custom_id="ttt:1:4")
    await simcord_env.advance_time(200)
    assert f"{bob.mention}, your move" in text(simcord_env, message)
    await simcord_env.advance_time(101)

    assert f"{bob.mention} ran out of time" in text(simcord_env, message)


async def test_against_the_bot_only_the_human_has_a_clock(simcord_env: Env):
    """After the bot's reply the player has 5 minutes; the bot wins the forfeit."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:4")

    await simcord_env.advance_time(301)

    bot = simcord_env.bot.user
    assert f"{alice.mention} ran out of time. ⭕ <@{bot.id}> wins by forfeit." in text(
        simcord_env, message
    )


async def test_resign_and_its_confirmation_end_the_game(simcord_env: Env):
    """Bob resigns on Alice's turn (Resign, then Confirm resign): Alice wins, the board is
    frozen."""
    _, alice, bob, _, message = await people_game(simcord_env)
    await alice.click(message, custom_id="ttt:1:0")

    result = await resign(bob, message)

    assert not result.ephemeral
    assert f"🏳️ {bob.mention} resigned. ❌ {alice.mention} wins." in text(simcord_env, message)
    assert all(c.disabled for c in cells(simcord_env, message, 3))


async def test_only_players_can_resign(simcord_env: Env):
    """Carol cannot resign Alice and Bob's game."""
    _, _, _, carol, message = await people_game(simcord_env)

    result = await carol.click(message, label="Resign")

    assert result.ephemeral and "This isn't your game" in result.response.content
    assert "Resign" in controls(simcord_env, message, 3)
    assert "your move" in text(simcord_env, message)


async def test_rematch_against_the_bot_swaps_the_first_move_and_keeps_the_level(simcord_env: Env):
    """A new board under the old one: the bot now plays ❌ (and has moved), still on easy."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", difficulty="easy")
    first = board_message(channel)
    await resign(alice, first)

    result = await alice.click(first, label="Rematch")

    assert not result.ephemeral
    second = board_message(channel)
    assert second.id != first.id
    bot = simcord_env.bot.user
    shown = text(simcord_env, second)
    assert f"❌ <@{bot.id}> (bot, easy) vs ⭕ {alice.mention}" in shown
    assert [c.mark for c in cells(simcord_env, second, 3)].count("X") == 1
    assert f"{alice.mention}, your move (⭕)" in shown


async def test_rematch_keeps_the_board_size_and_line_length(simcord_env: Env):
    """A 4x4 game with 3 in a row, resigned: the rematch is 4x4 with 3 in a row again."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=4, win_length=3, difficulty="hard")
    first = board_message(channel)
    await resign(alice, first)

    await alice.click(first, label="Rematch")

    second = board_message(channel)
    assert second.id != first.id
    shown = text(simcord_env, second)
    assert "4×4, 3 in a row" in shown and "(bot, hard)" in shown
    assert len(cells(simcord_env, second, 4)) == 16


async def test_rematch_against_a_person_is_a_new_challenge_with_sides_swapped(simcord_env: Env):
    """Bob asks for a rematch: Alice is challenged, Bob plays ❌; Alice accepts and plays ⭕."""
    channel, alice, bob, carol, message = await people_game(simcord_env)
    await resign(alice, message)

    stranger = await carol.click(message, label="Rematch")
    result = await bob.click(message, label="Rematch")

    assert stranger.ephemeral and "can ask for a rematch" in stranger.response.content
    assert not result.ephemeral
    rematch = board_message(channel)
    shown = text(simcord_env, rematch)
    assert f"{alice.mention}, {bob.mention} challenges you" in shown
    assert f"❌ {bob.mention} vs ⭕ {alice.mention}" in shown
    await alice.click(rematch, label="Accept")
    assert f"{bob.mention}, your move (❌)" in text(simcord_env, rematch)


async def test_a_second_rematch_points_to_the_first(simcord_env: Env):
    """Both ask for a rematch: one new game, and a link to it for the other."""
    channel, alice, bob, _, message = await people_game(simcord_env)
    await resign(alice, message)
    await bob.click(message, label="Rematch")

    again = await alice.click(message, label="Rematch")

    assert again.ephemeral and "A challenge is waiting in this channel" in again.response.content
    assert str(board_message(channel).id) in again.response.content


async def end_by_line(env: Env, alice, bob, message) -> None:
    """Alice takes the top row."""
    for player, cell in [(alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)]:
        await player.click(message, custom_id=f"ttt:1:{cell}")


async def end_by_draw(env: Env, alice, bob, message) -> None:
    """A full board without a line."""
    for ply, cell in enumerate([0, 4, 8, 2, 6, 3, 5, 7, 1]):
        await (alice, bob)[ply % 2].click(message, custom_id=f"ttt:1:{cell}")


async def end_by_resign(env: Env, alice, bob, message) -> None:
    """Bob resigns on Alice's turn."""
    await resign(bob, message)


async def end_by_timeout(env: Env, alice, bob, message) -> None:
    """Alice lets her five minutes pass."""
    await env.advance_time(301)


@pytest.mark.parametrize(
    ("end", "words"),
    [
        (end_by_line, "wins with A1, B1, C1!"),
        (end_by_draw, "It's a draw."),
        (end_by_resign, "resigned."),
        (end_by_timeout, "wins by forfeit."),
    ],
)
async def test_every_played_ending_offers_a_rematch_that_works(
    simcord_env: Env, end, words: str
) -> None:
    """A line, a draw, a resignation and a forfeit each leave Rematch, and it starts a game."""
    channel, alice, bob, _, message = await people_game(simcord_env)

    await end(simcord_env, alice, bob, message)

    assert words in text(simcord_env, message)
    assert all(c.disabled for c in cells(simcord_env, message, 3))
    shown_controls = controls(simcord_env, message, 3)
    assert "Rematch" in shown_controls and "Resign" not in shown_controls
    result = await alice.click(message, label="Rematch")
    assert not result.ephemeral
    assert f"{bob.mention}, {alice.mention} challenges you" in text(
        simcord_env, board_message(channel)
    )
