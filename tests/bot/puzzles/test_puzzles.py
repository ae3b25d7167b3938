"""/tictactoe-puzzle played: solved by clicking with the defence answering, a wrong move ending
the attempt with the reason, a hint that counts, clicks of others refused privately, a puzzle
in the bot's DM, a locked database, a slow answer (which puzzle, and what it shows:
``test_puzzles_choice``)."""

from __future__ import annotations

from typing import Any

from simcord import Env

from bot.puzzles.store import PuzzleStore
from devkit.simcord_board import board_message, cells, controls, guild_with, rows, text
from engine import cell_name
from engine.puzzles import Attempt, hint, play
from tests.bot.puzzles.puzzle_support import attempt_id, click_cell, puzzle_of, solve, solve_rest


async def test_a_puzzle_is_solved_by_clicking_and_the_defence_answers(simcord_env: Env) -> None:
    """The board shows the puzzle's position, each empty cell's button named (C4); each right
    move is answered by the defence on the same message; the solve says so and moves the
    player's rating up."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    result = await alice.slash(channel, "tictactoe-puzzle")
    assert result.acknowledged and not result.ephemeral
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    shown = text(simcord_env, message)
    assert f"{alice.mention} plays" in shown and f"wins in {puzzle.moves} moves" in shown
    marks = [c.mark for c in cells(simcord_env, message, size)]
    assert marks == [None if m == "." else m for m in puzzle.board.to_string().replace("/", "")]
    buttons = [b for row in rows(simcord_env, message)[:size] for b in row]
    named = {b["label"]: cell for cell, b in enumerate(buttons) if "label" in b}
    assert named == {cell_name(c, size): c for c, m in enumerate(marks) if m is None}
    assert list(controls(simcord_env, message, size)) == ["Hint"]
    first = puzzle.solution
    await click_cell(simcord_env, alice, message, size, first)
    after = play(Attempt(puzzle), first)
    board = cells(simcord_env, message, size)
    assert board[first].mark == puzzle.board.turn and board[first].disabled
    assert board[after.moves[-1]].mark is not None  # the defence, drawn at once
    name, reply = cell_name(first, size), cell_name(after.moves[-1], size)
    assert f"**{name}** is right. I answer **{reply}**" in text(simcord_env, message)
    end = await solve_rest(simcord_env, alice, message, after)
    assert end.state == "solved"
    shown = text(simcord_env, message)
    assert "Solved:" in shown and "Your puzzle rating: 1500 → " in shown
    assert all(c.disabled for c in cells(simcord_env, message, size))
    assert list(controls(simcord_env, message, size)) == ["Next puzzle"]
    assert channel.last_message.id == message.id  # every answer on the one message


async def test_a_wrong_first_move_ends_the_attempt_and_says_why(simcord_env: Env) -> None:
    """A move other than the solution: the attempt ends, the defence's refutation is drawn and
    named with the reason, the winning move is named, and the board takes no more clicks."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.solution)
    await click_cell(simcord_env, alice, message, size, wrong)
    failed = play(Attempt(puzzle), wrong)
    shown = text(simcord_env, message)
    said = {
        "slower": "still wins, but not this fast",
        "draw": "lets the win slip",
        "loses": "loses: ",
    }[failed.state]
    assert said in shown and f"The winning move was **{cell_name(puzzle.solution, size)}**" in shown
    assert "turns the game around" not in shown
    if failed.refutation is not None:
        assert f"**{cell_name(failed.refutation, size)}**" in shown
        assert cells(simcord_env, message, size)[failed.refutation].mark is not None
    assert "Your puzzle rating: 1500 → " in shown
    assert all(c.disabled for c in cells(simcord_env, message, size))


async def test_a_hint_names_a_winning_cell_and_the_solve_is_not_clean(simcord_env: Env) -> None:
    """Hint names the solution; solved after it, the rating still drops (a hinted solve is
    not a clean solve)."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    await alice.click(message, label="Hint")
    assert f"💡 **{cell_name(puzzle.solution, size)}** wins in time" in text(simcord_env, message)
    await solve(simcord_env, alice, message)
    shown = text(simcord_env, message)
    assert "Solved:" in shown
    before, after = shown.split("Your puzzle rating: ")[1].split(".")[0].split(" → ")
    assert float(after) < float(before)


async def test_others_are_refused_privately_and_a_stale_click_is_not_played(
    simcord_env: Env,
) -> None:
    """Bob clicking Alice's puzzle gets one private line; a click on a board drawn at an older
    ply shows the board as it stands instead of playing."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    result = await click_cell(simcord_env, bob, message, size, puzzle.solution)
    assert result.ephemeral and f"This puzzle is {alice.mention}'s" in result.response.content
    # The attempt moves on without this board (its answer never showed: a crash between the
    # save and the edit): a click on the old board shows the attempt as stored, plays nothing.
    puzzles = PuzzleStore(simcord_env.bot.store)
    stored = await puzzles.load_attempt(attempt_id(simcord_env, message, size))
    assert stored is not None and stored.ply == 0
    moved = stored.moved(play(stored.attempt, puzzle.solution))
    assert await puzzles.save_attempt(moved, stored)
    other = next(c for c in puzzle.board.legal_moves() if c not in moved.moves)
    shown = await click_cell(simcord_env, alice, message, size, other)
    assert shown.acknowledged and not shown.ephemeral
    board = cells(simcord_env, message, size)
    assert board[other].mark is None and board[other].custom_id.endswith(f"@{moved.ply}")
    assert all(board[c].mark is not None for c in moved.moves)
    assert await puzzles.load_attempt(stored.id) == moved


async def test_a_puzzle_in_the_bots_dm(simcord_env: Env) -> None:
    """In the bot's own DM a puzzle is posted there and solved by clicking; ratings there are
    kept apart from any server's."""
    alice = simcord_env.create_user("alice")
    result = await alice.slash("tictactoe-puzzle")
    assert result.acknowledged and not result.ephemeral
    message = board_message(alice.dm_channel)
    assert (await solve(simcord_env, alice, message)).state == "solved"
    store = simcord_env.bot.store
    assert (await PuzzleStore(store).puzzle_player(None, alice.id)).solved == 1


async def test_a_click_on_a_locked_database_is_refused_and_nothing_changes(
    simcord_env: Env, settings: Any, caplog: Any
) -> None:
    """The database locked by another process: a private apology, one log line, the board and
    the stored attempt unchanged; once the lock is gone the same click plays."""
    import logging

    from tests.bot.storage_support import locked, one_clear_line, spy_on_errors

    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    store = simcord_env.bot.store
    errors = spy_on_errors(store, "write")  # every feature write: here the attempt's save
    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        result = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert cells(simcord_env, message, size)[puzzle.solution].mark is None
    stored = await PuzzleStore(store).load_attempt(attempt_id(simcord_env, message, size))
    assert stored is not None and stored.moves == ()
    assert len(errors) == 1 and "locked" in str(errors[0])
    one_clear_line(caplog, errors[0])
    again = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert not again.ephemeral and cells(simcord_env, message, size)[puzzle.solution].mark


async def test_a_slow_answer_shows_the_move_first_then_the_defence(
    simcord_env: Env, monkeypatch: Any
) -> None:
    """When the engine outlasts the wait, the click's one response shows the move with the
    cells disabled, and the defence follows in an edit of that response (no second response)."""
    from bot.puzzles import attempts

    monkeypatch.setattr(attempts, "REPLY_WAIT", 0.0)
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    result = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert result.acknowledged and not result.ephemeral and not result.followups
    after = play(Attempt(puzzle), puzzle.solution)
    board = cells(simcord_env, message, size)
    assert board[after.moves[-1]].mark is not None and board[puzzle.solution].disabled
    assert "is right" in text(simcord_env, message)
    assert sum(not c.disabled for c in board) == len(after.board.legal_moves())
    await click_cell(simcord_env, alice, message, size, hint(after)[1])
    assert channel.last_message.id == message.id
