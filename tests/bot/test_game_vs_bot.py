"""Playing against the bot: the board message, the human move at once, the bot's reply, the end."""

from __future__ import annotations

from simcord import Env

from devkit.simcord_board import (
    board_message,
    cells,
    controls,
    free,
    guild_with,
    text,
)

SUCCESS = 3


async def play_out(env: Env, player, message, size: int) -> int:
    """Click the first free cell until the game ends; returns how many clicks it took."""
    clicks = 0
    while "Rematch" not in controls(env, message, size):
        result = await player.click(message, custom_id=free(env, message, size)[0].custom_id)
        assert result.acknowledged and not result.ephemeral
        assert result.response is not None and result.response.id == message.id
        clicks += 1
        assert clicks <= size * size
    return clicks


async def test_new_game_shows_an_empty_board_players_level_and_whose_turn(simcord_env: Env):
    """/tictactoe alone: a public board, the player mentioned as the one to move, bot unbeatable."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    bot_id = simcord_env.bot.user.id

    result = await alice.slash(channel, "tictactoe")

    assert result.acknowledged and not result.ephemeral
    message = board_message(channel)
    shown = text(simcord_env, message)
    assert f"❌ {alice.mention} vs ⭕ <@{bot_id}> (bot, unbeatable)" in shown
    assert "⬜⬜⬜\n⬜⬜⬜\n⬜⬜⬜" in shown
    assert f"{alice.mention}, your move (❌)" in shown
    board = cells(simcord_env, message, 3)
    assert [c.mark for c in board] == [None] * 9
    assert not any(c.disabled for c in board)
    assert list(controls(simcord_env, message, 3)) == ["Hint", "Resign"]


async def test_a_move_is_shown_at_once_and_the_bot_replies_in_the_same_message(simcord_env: Env):
    """One click: the response edits the board, then the bot's ⭕ is edited in; both disabled."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    result = await alice.click(message, custom_id="ttt:1:4")

    assert result.acknowledged and not result.ephemeral
    board = cells(simcord_env, message, 3)
    assert board[4].mark == "X" and board[4].disabled
    bot_cells = [c for c in board if c.mark == "O"]
    assert len(bot_cells) == 1 and bot_cells[0].disabled
    assert sum(not c.disabled for c in board) == 7
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)
    assert channel.last_message.id == message.id  # no extra message in the channel


async def test_a_full_game_against_the_unbeatable_bot_is_a_draw_or_a_bot_win(simcord_env: Env):
    """Played to the end: every cell disabled, the result in words, a Rematch control."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    bot_id = simcord_env.bot.user.id
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    await play_out(simcord_env, alice, message, 3)

    shown = text(simcord_env, message)
    board = cells(simcord_env, message, 3)
    assert all(c.disabled for c in board)
    assert list(controls(simcord_env, message, 3)) == ["Rematch", "Review", "Replay"]
    assert "It's a draw." in shown or f"⭕ <@{bot_id}> wins with " in shown
    assert f"{alice.mention} wins" not in shown
    if "wins with" in shown:
        line = [c for c in board if c.style == SUCCESS]
        assert len(line) == 3 and all(c.mark == "O" for c in line)


async def test_bot_moves_first_when_the_player_lets_it(simcord_env: Env):
    """first=opponent: the bot plays ❌ straight away and the player is asked for ⭕."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")

    await alice.slash(channel, "tictactoe", first="opponent", difficulty="easy")

    message = board_message(channel)
    board = cells(simcord_env, message, 3)
    assert [c.mark for c in board].count("X") == 1
    shown = text(simcord_env, message)
    assert f"❌ <@{simcord_env.bot.user.id}> (bot, easy) vs ⭕ {alice.mention}" in shown
    assert f"{alice.mention}, your move (⭕)" in shown


async def test_an_easy_bot_game_can_be_played_to_the_end_in_a_dm(simcord_env: Env):
    """Direct messages: the command works there and the game runs as in a server."""
    alice = simcord_env.create_user("alice")

    result = await alice.slash("tictactoe", difficulty="easy")

    assert result.acknowledged and not result.ephemeral
    message = result.response
    assert "your move (❌)" in text(simcord_env, message)
    await play_out(simcord_env, alice, message, 3)
    assert all(c.disabled for c in cells(simcord_env, message, 3))
