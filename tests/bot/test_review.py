"""Post-game review and hints: the named moves agree with the engine's exact values."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import review as reviews
from bot.games.review import best_of, result_class, winner_moves
from engine import Board, IllegalMoveError, analyse, cell_name, parse_cell

NAMES = {"X": "Alice", "O": "Bob"}
ROOT = Path(__file__).resolve().parents[2]


def review(*args: object) -> list[str]:
    """The review's lines in English."""
    return [line.in_locale(None) for line in reviews.review(*args)]  # type: ignore[arg-type]


def hint(*args: object) -> str:
    """The hint in English."""
    return reviews.hint(*args).in_locale(None)  # type: ignore[arg-type]


def test_x_blunder_from_draw_to_loss_is_named_with_a_drawing_move() -> None:
    """X's fifth move throws the draw away; the review names it and a move that kept the draw."""
    moves = [4, 0, 1, 7, 2, 6, 3, 8]  # X: B2, O: A1, X: B1, O: B3, X: C1 (the blunder), ...
    lines = review(moves, 3, 3, NAMES)
    assert lines == [
        "Move 5: Alice (X) played C1; the position went from a draw to a loss; A2 kept the draw.",
        "Moves that changed the result: Alice (X) 1, Bob (O) 0.",
    ]
    # The claim, checked against the engine directly: before move 5 the best X can get is a
    # draw, C1 (cell 2) loses, A2 (cell 3) draws.
    values = analyse(Board.from_moves(moves[:4], 3, 3))
    assert max(values.values()) == 0
    assert values[2] < 0 and values[3] == 0


def test_every_result_change_is_named_and_counted() -> None:
    """A game with three mistakes, a thrown-away win among them, lists each one in order."""
    lines = review([0, 1, 2, 4, 7, 3, 5, 6, 8], 3, 3, NAMES)
    assert lines == [
        "Move 2: Bob (O) played B1; the position went from a draw to a loss; B2 kept the draw.",
        "Move 3: Alice (X) played C1; the position went from a win to a draw; "
        "A2 kept the win (a win in 3 moves).",
        "Move 8: Bob (O) played A3; the position went from a draw to a loss; C3 kept the draw.",
        "Moves that changed the result: Alice (X) 1, Bob (O) 2.",
    ]
    after_two = analyse(Board.from_moves([0, 1], 3, 3))
    assert after_two[2] == 0 and after_two[3] == max(after_two.values()) > 0
    assert winner_moves(after_two[3]) == 3


def test_perfect_game_has_no_mistakes() -> None:
    """A drawn game of perfect moves gets only the summary line."""
    assert review([4, 0, 8, 2, 1, 7, 6, 5, 3], 3, 3, NAMES) == [
        "No move changed the result: perfect play from both sides."
    ]


def test_review_of_an_unfinished_game_and_without_names() -> None:
    """A resigned game is reviewed up to its last move; without names the marks stand alone."""
    assert review([0, 1], 3, 3) == [
        "Move 2: O played B1; the position went from a draw to a loss; B2 kept the draw.",
        "Moves that changed the result: X 0, O 1.",
    ]
    assert review([], 3, 3) == ["No move changed the result: perfect play from both sides."]


def test_review_agrees_with_the_engine_on_random_games() -> None:
    """For random 3x3 games, exactly the moves whose value has another sign are named."""
    import random

    rng = random.Random(7)
    for _ in range(40):
        board, moves, expected = Board.empty(3, 3), [], []
        while board.outcome() is None:
            values = analyse(board)
            cell = rng.choice(sorted(values))
            if result_class(values[cell]) != result_class(max(values.values())):
                expected.append(f"Move {len(moves) + 1}: ")
            moves.append(cell)
            board = board.play(cell)
        named = [line[: line.index(":") + 2] for line in review(moves, 3, 3)[:-1]]
        assert named == expected, moves


def test_hint_takes_a_win_in_one() -> None:
    """With a line to complete, the hint plays it."""
    assert hint([0, 3, 1, 4], 3, 3) == "Play C1: it wins now."


def test_hint_finds_the_forced_block() -> None:
    """When only a block holds, the hint names it and says every other move loses."""
    assert hint([0, 4, 1], 3, 3) == "Play C1: it holds the draw; every other move loses."
    values = analyse(Board.from_moves([0, 4, 1], 3, 3))
    assert values[2] == 0 and all(v < 0 for c, v in values.items() if c != 2)


def test_hint_counts_the_winners_moves() -> None:
    """A win in three of your moves, a plain draw, and the longest resistance when lost."""
    assert hint([0, 1], 3, 3) == "Play A2: it wins in 3 moves."
    assert hint([], 3, 3) == "Play A1: it holds the draw."
    assert hint([0, 1, 4], 3, 3) == "Every move loses; C3 holds out longest (loss in 2 moves)."


def test_hint_on_a_finished_game_is_refused() -> None:
    """There is no hint once the game is over."""
    with pytest.raises(IllegalMoveError):
        hint([0, 3, 1, 4, 2], 3, 3)


def test_value_helpers() -> None:
    """Engine values map to classes and to the winner's move count; ties go to the lower cell."""
    assert [result_class(v) for v in (99, 0, -98)] == ["win", "draw", "loss"]
    assert [winner_moves(v) for v in (99, 97, 95, -98, -96)] == [1, 2, 3, 1, 2]
    assert best_of({5: 0, 3: 0, 8: -98}) == 3 and best_of({5: 97, 3: 95}) == 5
    with pytest.raises(ValueError):
        winner_moves(0)


def test_cell_names_on_every_size() -> None:
    """Letter = column, number = row, top-left A1, row-major cells."""
    assert [cell_name(c, 3) for c in range(9)] == [
        "A1",
        "B1",
        "C1",
        "A2",
        "B2",
        "C2",
        "A3",
        "B3",
        "C3",
    ]
    assert cell_name(24, 5) == "E5" and cell_name(5, 5) == "A2" and cell_name(15, 4) == "D4"
    for size in (3, 4, 5):
        assert [parse_cell(cell_name(c, size), size) for c in range(size * size)] == list(
            range(size * size)
        )
    assert parse_cell(" b2 ", 3) == 4
    for bad in ("D1", "A4", "A0", "B", "22", ""):
        with pytest.raises(ValueError):
            parse_cell(bad, 3)
    with pytest.raises(ValueError):
        cell_name(9, 3)


def test_review_module_is_pure() -> None:
    """Importing the review loads neither discord nor asyncio (it runs in an executor)."""
    code = "import sys, bot.games.review; print(sorted({'discord', 'asyncio'} & set(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
