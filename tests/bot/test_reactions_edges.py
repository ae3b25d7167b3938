"""Moves by reactions at the edges, through SimCord: a board that does not show the game is
never played blind, a 5x5 column shown before a restart, permissions missing at a rematch, at the
start and mid-game, and hints on a board that names its cells by their reactions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.games import look as looks
from bot.games import rules
from devkit.simcord_board import board_message, resign, text
from engine import parse_cell
from tests.bot.faults_support import CHANNEL_EDIT, deny, set_bot_overwrite, shows_store
from tests.bot.test_marks import cell_emojis
from tests.bot.test_reactions import (
    bot_keys,
    game_of,
    keys_missing,
    reaction_server,
    reactions,
)
from tests.bot.test_restart import restart


async def friend_game(env: Env, mode: str = "reactions") -> tuple[Any, Any, Any, Any]:
    """Alice (X) against Bob, accepted, on a 3x3 board moved by reactions."""
    _, channel, _, (alice, bob) = await reaction_server(env, mode)
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Accept")
    return channel, alice, bob, board


async def test_a_reaction_on_a_board_whose_edit_failed_is_not_played_blind(
    simcord_env: Env,
) -> None:
    """Alice's move is saved but Discord keeps failing the board's edit; Bob's reaction, made on
    a board without her move, plays nothing; once Discord is well the board catches up by itself
    (nobody reacting), and his next reaction plays."""
    _, alice, bob, board = await friend_game(simcord_env)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=500, times=None)  # until cleared
    await alice.react(board, "5️⃣")
    game = await game_of(simcord_env, board)
    assert game.moves == (4,) and not await shows_store(simcord_env, board, game.id)

    await bob.react(board, "1️⃣")
    assert (await game_of(simcord_env, board)).moves == (4,)
    assert not await shows_store(simcord_env, board, game.id)
    simcord_env.backend.faults.clear()
    await simcord_env.settle()
    assert await shows_store(simcord_env, board, game.id)  # caught up with no reaction
    await bob.react(board, "1️⃣")  # the bot took the first one back (Manage Messages)
    assert (await game_of(simcord_env, board)).moves == (4, 0)


async def test_after_a_restart_a_reaction_board_is_read_back_before_a_move(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """Alice's move was saved, then the process died before showing it. After the restart the
    bot reads the board back and shows it as stored, nobody reacting; then reactions play on it
    as usual (a board that does not show its game plays nothing: the test above)."""
    _, alice, bob, board = await friend_game(simcord_env)
    store = simcord_env.bot.store
    game = await game_of(simcord_env, board)
    await store.save_game(rules.play(game, 4))  # saved; the edit never went out
    await restart(simcord_env, make_bot)
    await simcord_env.settle()
    assert await shows_store(simcord_env, board, game.id)  # read back and shown at start-up

    await bob.react(board, "1️⃣")
    assert (await game_of(simcord_env, board)).moves == (4, 0)
    await alice.react(board, "9️⃣")
    assert (await game_of(simcord_env, board)).moves == (4, 0, 8)


@pytest.mark.parametrize("mode", ["reactions", "both"])
async def test_a_row_after_a_restart_drops_the_column_shown(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot], mode: str
) -> None:
    """5x5: Alice picks column C, the bot restarts and forgets it; her row then plays nothing and
    the board no longer says a column is picked (with cell buttons too, where the marks alone
    match); column and row again make the move."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env, mode)
    await alice.slash(channel, "tictactoe", size=5, win_length=4, difficulty="easy")
    board = board_message(channel)
    await alice.react(board, "🇨")
    assert "column 🇨 picked" in text(simcord_env, board)
    await restart(simcord_env, make_bot)

    await alice.react(board, "2️⃣")
    assert (await game_of(simcord_env, board)).moves == ()
    assert "picked" not in text(simcord_env, board)
    await alice.react(board, "🇨")
    await alice.react(board, "2️⃣")
    assert (await game_of(simcord_env, board)).moves[0] == 7


async def test_a_rematch_without_add_reactions_does_not_start(simcord_env: Env) -> None:
    """The channel loses Add Reactions after a game moved by reactions only: Rematch answers
    with one private line naming it, and no new board is posted."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    await alice.slash(channel, "tictactoe", difficulty="easy")
    board = board_message(channel)
    await resign(alice, board)
    assert (await game_of(simcord_env, board)).ending is not None
    set_bot_overwrite(simcord_env, channel, deny("add_reactions"))

    refused = await alice.click(board, label="Rematch")
    assert refused.ephemeral and "**Add Reactions**" in refused.response.content
    assert board_message(channel).id == board.id


@pytest.mark.parametrize("mode", ["reactions", "both"])
async def test_the_starter_is_told_that_reactions_cannot_be_removed(
    simcord_env: Env, mode: str
) -> None:
    """Without Manage Messages the game starts, and its starter alone is told, in one private
    line after the board, that a reaction must be taken back before it can be used again; with
    it, nothing is said."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env, mode)
    kept = await alice.slash(channel, "tictactoe", difficulty="easy")
    assert not kept.followups
    await resign(alice, board_message(channel))

    set_bot_overwrite(simcord_env, channel, deny("manage_messages"))
    told = await alice.slash(channel, "tictactoe", difficulty="easy")
    assert not told.ephemeral  # the board
    [note] = told.followups
    assert note.ephemeral and "**Manage Messages**" in note.content


async def test_losing_add_reactions_mid_game_gives_the_board_its_buttons(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """Two of the bot's reactions are gone and it may no longer add them: after the restart
    the board takes cell buttons too (stored as input both), Alice's turn keeps its deadline,
    and the game goes on by a click."""
    channel, alice, board = await keys_missing(simcord_env)
    set_bot_overwrite(simcord_env, channel, deny("add_reactions"))
    deadline = (await game_of(simcord_env, board)).deadline
    await simcord_env.advance_time(60)
    await restart(simcord_env, make_bot)

    game = await game_of(simcord_env, board)
    assert game.look.input == "both" and "8️⃣" not in bot_keys(simcord_env, board)
    assert deadline is not None and game.deadline == deadline
    assert await shows_store(simcord_env, board, game.id)
    played = await alice.click(board, custom_id=f"ttt:{game.id}:8")
    assert not played.ephemeral and (await game_of(simcord_env, board)).moves[0] == 8


@pytest.mark.parametrize("size", [3, 4])
async def test_a_hint_on_a_keyed_board_names_the_cells_reaction(
    simcord_env: Env, size: int
) -> None:
    """Where each empty cell shows its reaction instead of coordinates, the hint names the
    reaction that plays its cell too."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    await alice.slash(channel, "tictactoe", size=size, win_length=3)
    board = board_message(channel)
    await alice.react(board, looks.keys(size)[0])
    assert alice.id not in reactions(simcord_env, board).get(looks.keys(size)[0], [])

    answer = (await alice.click(board, label="Hint")).response.content
    found = re.search(r"Play ([A-D][1-4]) \((\S+)\)", answer)
    assert found is not None, answer
    assert looks.keys(size)[parse_cell(found[1], size)] == found[2]


async def test_both_on_5x5_with_a_servers_marks_by_reaction_and_by_click(
    simcord_env: Env,
) -> None:
    """input both on 5x5 with 🐱 and 🐶: a move by column and row reactions, a move by a
    button, the marks on the grid and the buttons; a column picked before a move by click is
    stale afterwards: its row plays nothing and the board drops the column."""
    _, channel, admin, (alice, bob) = await reaction_server(simcord_env, "both")
    await admin.slash(channel, "tictactoe-settings set", mark_x="🐱", mark_o="🐶")
    await alice.slash(channel, "tictactoe", opponent=bob, size=5, win_length=4)
    board = board_message(channel)
    await bob.click(board, label="Accept")
    game = await game_of(simcord_env, board)
    assert bot_keys(simcord_env, board) == looks.keys(5)

    await alice.react(board, "🇦")
    await alice.react(board, "1️⃣")
    await bob.click(board, custom_id=f"ttt:{game.id}:12")
    await alice.react(board, "🇧")  # picked, then Alice plays by a click instead
    assert "column 🇧 picked" in text(simcord_env, board)
    await alice.click(board, custom_id=f"ttt:{game.id}:2")
    await bob.click(board, custom_id=f"ttt:{game.id}:18")
    await alice.react(board, "2️⃣")  # the row of a column picked two moves ago
    assert (await game_of(simcord_env, board)).moves == (0, 12, 2, 18)
    assert "picked" not in text(simcord_env, board)

    grid = text(simcord_env, board).split("\n\n")[1]
    assert grid.count("🐱") == 2 and grid.count("🐶") == 2 and "❌" not in grid
    emojis = cell_emojis(simcord_env, board)
    assert len(emojis) == 25 and emojis.count("🐱") == 2 and emojis.count("🐶") == 2
