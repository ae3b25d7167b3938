"""4x4 and 5x5 games, against the bot and between people (the bot thinking on a big board:
``test_game_thinking``)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import Env

import engine
from devkit.simcord_board import (
    board_message,
    cells,
    controls,
    free,
    guild_with,
    text,
)
from engine import cell_name

SUCCESS = 3  # the button style of the winning line


def shown_board(env: Env, message: Any, size: int, k: int) -> engine.Board:
    """The position the buttons show, read back through the engine."""
    marks = [c.mark or "." for c in cells(env, message, size)]
    rows = ["".join(marks[r * size : (r + 1) * size]) for r in range(size)]
    return engine.Board.from_string("/".join(rows), k=k)


def assert_finished_as_shown(env: Env, message: Any, size: int, k: int) -> engine.Board:
    """Every cell disabled, Rematch offered, and the words and highlight match the position."""
    board = shown_board(env, message, size, k)
    outcome = board.outcome()
    assert outcome is not None, "the game is over but the board is not"
    shown = text(env, message)
    on_board = cells(env, message, size)
    assert all(c.disabled for c in on_board)
    offered = controls(env, message, size)
    assert "Rematch" in offered and "Resign" not in offered
    highlighted = [i for i, c in enumerate(on_board) if c.style == SUCCESS]
    if outcome.winner is None:
        assert "🤝 It's a draw." in shown
        assert highlighted == []
    else:
        line = sorted(outcome.line)
        assert len(line) == k and highlighted == line
        names = ", ".join(cell_name(c, size) for c in outcome.line)
        assert f"wins with {names}!" in shown
    return board


async def play_first_free_cells(env: Env, player: Any, message: Any, size: int) -> int:
    """Click the first free cell until the game ends; every click answered on the board."""
    clicks = 0
    while "Rematch" not in controls(env, message, size):
        result = await player.click(message, custom_id=free(env, message, size)[0].custom_id)
        assert result.acknowledged and not result.ephemeral
        clicks += 1
        assert clicks <= size * size
    return clicks


@pytest.mark.parametrize(
    ("size", "k", "level"), [(4, 4, "unbeatable"), (4, 3, "hard"), (5, 4, "medium")]
)
async def test_a_big_board_against_the_bot_is_played_to_the_end(
    simcord_env: Env, size: int, k: int, level: str
) -> None:
    """Each click is answered on the board and the bot replies, up to a result the board shows."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    result = await alice.slash(channel, "tictactoe", size=size, win_length=k, difficulty=level)
    assert not result.ephemeral
    message = board_message(channel)
    assert f"{size}×{size}, {k} in a row" in text(simcord_env, message)
    assert len(cells(simcord_env, message, size)) == size * size

    clicks = await play_first_free_cells(simcord_env, alice, message, size)

    board = assert_finished_as_shown(simcord_env, message, size, k)
    marks = [c.mark for c in cells(simcord_env, message, size)]
    assert marks.count("X") == clicks  # one bot reply per click, except after the last
    assert marks.count("O") in (clicks, clicks - 1)
    if level == "unbeatable":
        assert board.outcome().winner != "X"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("size", "k", "alice", "bob"),
    [
        (4, 4, [0, 1, 2, 3], [4, 5, 6]),  # the top row
        (4, 3, [5, 10, 15], [0, 1]),  # a diagonal of three, not touching a corner start
        (5, 4, [0, 6, 12, 18], [1, 2, 3]),  # a diagonal of four
        (5, 5, [2, 7, 12, 17, 22], [0, 1, 3, 4]),  # the middle column
    ],
)
async def test_a_big_board_between_people_ends_with_the_line_highlighted(
    simcord_env: Env, size: int, k: int, alice: list[int], bob: list[int]
) -> None:
    """Alice completes her line: the result names it, the line is green, nothing is clickable."""
    _, channel, (alice_p, bob_p) = guild_with(simcord_env, "alice", "bob")
    await alice_p.slash(channel, "tictactoe", opponent=bob_p, size=size, win_length=k)
    message = board_message(channel)
    await bob_p.click(message, label="Accept")
    order = [cell for pair in zip(alice, [*bob, None], strict=True) for cell in pair]
    players = [alice_p, bob_p] * len(alice)

    for player, cell in zip(players, order, strict=True):
        if cell is None:
            break
        result = await player.click(message, custom_id=f"ttt:1:{cell}")
        assert result.acknowledged and not result.ephemeral

    board = assert_finished_as_shown(simcord_env, message, size, k)
    assert sorted(board.outcome().line) == sorted(alice)  # type: ignore[union-attr]
    assert f"🏆 ❌ {alice_p.mention} wins with" in text(simcord_env, message)
