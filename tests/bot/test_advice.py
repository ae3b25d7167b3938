"""The Hint and Review buttons: private answers that agree with the engine's exact values."""

from __future__ import annotations

import re

import pytest
from simcord import Env

from bot.cogs.games import advice
from devkit.simcord_board import board_message, cells, controls, guild_with, resign
from engine import Board, analyse, parse_cell

CELL_NAME = re.compile(r"Play ([A-E][1-5])")


def sign(value: int) -> int:
    """Win (1), draw (0) or loss (-1) from an engine value."""
    return (value > 0) - (value < 0)


def moves_shown(env: Env, message, size: int) -> Board:
    """The position on the board message (X moved first, so the counts give the order's parity)."""
    marks = [c.mark for c in cells(env, message, size)]
    text = "/".join(
        "".join(m or "." for m in marks[r * size : (r + 1) * size]) for r in range(size)
    )
    return Board.from_string(text, k=3 if size == 3 else 4)


async def test_hint_names_an_optimal_move_for_the_player_to_move(simcord_env: Env):
    """Against the bot, mid-game: the hint's cell is one of the engine's best, privately."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:0")  # A1; the bot replies
    before = cells(simcord_env, message, 3)

    result = await alice.click(message, label="Hint")

    assert result.acknowledged and result.ephemeral
    answer = result.response.content
    board = moves_shown(simcord_env, message, 3)
    values = analyse(board)
    cell = parse_cell(CELL_NAME.search(answer).group(1), 3)
    assert values[cell] == max(values.values())
    assert answer.startswith("💡 Play ")
    if values[cell] == 0:
        assert "holds the draw" in answer
    else:
        assert "wins" in answer
    assert cells(simcord_env, message, 3) == before  # a hint changes nothing on the board


async def test_hints_are_for_the_player_against_the_bot_while_the_game_runs(simcord_env: Env):
    """Someone else gets a private reason; after the game, and between people, there is no Hint."""
    _, channel, (alice, carol) = guild_with(simcord_env, "alice", "carol")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)

    other = await carol.click(message, label="Hint")
    assert other.ephemeral and f"Only {alice.mention} can ask for hints" in other.response.content

    await resign(alice, message)
    assert "Hint" not in controls(simcord_env, message, 3)

    _, room, (bob, dave) = guild_with(simcord_env, "bob", "dave")
    await bob.slash(room, "tictactoe", opponent=dave)
    challenge = board_message(room)
    await dave.click(challenge, label="Accept")
    assert list(controls(simcord_env, challenge, 3)) == ["Resign"]


async def test_review_names_the_move_that_lost_the_game_and_a_move_that_held(simcord_env: Env):
    """Alice (X) plays her worst move each turn against the unbeatable bot; the review says where
    she threw the draw away."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    changed = []  # (move number, cell) of each of Alice's moves that changed the result
    while "Rematch" not in controls(simcord_env, message, 3):
        board = moves_shown(simcord_env, message, 3)
        values = analyse(board)
        worst = min(values, key=lambda c: (values[c], c))
        if sign(values[worst]) != sign(max(values.values())):
            changed.append((board.ply + 1, worst))
        await alice.click(message, custom_id=f"ttt:1:{worst}")

    result = await alice.click(message, label="Review")

    assert result.acknowledged and result.ephemeral
    lines = result.response.content.splitlines()
    assert lines[0].startswith("**Review of game 1**")
    assert changed
    number, cell = changed[0]
    match = re.fullmatch(
        rf"Move {number}: You \(❌\) played ([A-C][1-3]); the position went from a draw to a "
        r"loss; ([A-C][1-3]) kept the draw\.",
        lines[1],
    )
    assert match, lines
    assert parse_cell(match.group(1), 3) == cell
    kept = parse_cell(match.group(2), 3)
    moves = (await simcord_env.bot.store.load_game(1)).moves
    assert analyse(Board.from_moves(moves[: number - 1], 3, 3))[kept] == 0
    assert lines[-1] == (
        f"Moves that changed the result: You (❌) {len(changed)}, "
        f"<@{simcord_env.bot.user.id}> (⭕) 0."
    )


async def test_anyone_may_review_a_finished_game_but_not_a_live_one(simcord_env: Env):
    """A spectator sees the players by mention; during the game the review is closed."""
    _, channel, (alice, bob, carol) = guild_with(simcord_env, "alice", "bob", "carol")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    assert "Review" not in controls(simcord_env, message, 3)

    for who, cell in [(alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)]:
        await who.click(message, custom_id=f"ttt:1:{cell}")
    result = await carol.click(message, label="Review")

    assert result.ephemeral
    content = result.response.content
    assert f"{bob.mention} (⭕) played A2" in content  # the loss came from Bob's first move
    assert "You" not in content


async def test_an_analysis_past_its_limit_is_stopped_with_a_clear_answer(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
):
    """A 5x5 hint that needs more than its limit: a polite private answer, the bot plays on."""
    monkeypatch.setattr(advice, "HINT_LIMIT", 0.05)
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=5)
    message = board_message(channel)

    result = await alice.click(message, label="Hint")

    assert result.acknowledged and result.ephemeral
    assert "needs a deeper analysis than I can finish in 0.05 s" in result.response.content
    assert not simcord_env.bot.engine._analysts  # the analysis process was stopped
    move = await alice.click(message, custom_id="ttt:1:12")
    assert not move.ephemeral
    assert sum(c.mark is not None for c in cells(simcord_env, message, 5)) == 2


async def test_on_a_big_board_the_hint_follows_privately(simcord_env: Env):
    """On 4x4 the answer is computed in a process of its own and arrives as a private message."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=4, win_length=3)
    message = board_message(channel)

    result = await alice.click(message, label="Hint")

    assert result.acknowledged and result.ephemeral
    assert result.response.content.startswith("💡 Play ")
    assert "wins" in result.response.content  # 4x4 with 3 in a row is a first-player win


def test_a_long_review_fits_one_message_and_keeps_its_summary():
    """Lines past the limit are counted, not cut mid-line; the summary stays."""
    lines = [f"Move {n}: a line of some length" for n in range(200)] + ["Summary."]
    text = advice.fit(lines, limit=300)
    assert len(text) <= 300
    assert text.endswith("Summary.")
    kept = text.splitlines()
    assert kept[-2].startswith("… and ") and kept[-2].endswith(" more.")
    assert int(kept[-2].split()[2]) + len(kept) - 2 == 200
