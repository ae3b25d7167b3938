"""Bigger boards: wins in one, forced blocks, deadlines, and play against known results."""

from __future__ import annotations

import random
import time

import pytest

import engine
from engine import Board, play
from engine.search import solver


@pytest.mark.parametrize(
    ("text", "k", "win"),
    [
        ("XXX./OO../..O./....", 4, 3),
        ("XX.X./OO.../O..../...../.....", 4, 2),
        ("XXXX./OOOO./...../...../.....", 5, 4),
    ],
)
def test_takes_win_in_one(text: str, k: int, win: int) -> None:
    """The engine completes its line at every level, with or without a deadline."""
    board = Board.from_string(text, k)
    for level in engine.LEVELS:
        assert engine.best_move(board, level=level, rng=random.Random(3)) == win
    assert engine.best_move(board, deadline=time.monotonic() + 0.05) == win
    assert engine.evaluate(board) == 99


@pytest.mark.parametrize(
    ("moves", "size", "k", "block"),
    [
        ([0, 4, 1, 5, 15, 6], 4, 4, 7),
        ([0, 6, 1, 12, 2, 24], 5, 4, 3),
        ([12, 0, 6, 1], 5, 3, 18),
    ],
)
def test_makes_forced_block(moves: list[int], size: int, k: int, block: int) -> None:
    """With no win of its own, the engine blocks the opponent's only win in one."""
    board = Board.from_moves(moves, size, k)
    assert engine.best_move(board) == block
    assert engine.best_move(board, level="hard", rng=random.Random(1)) == block
    assert engine.best_move(board, deadline=time.monotonic() + 0.05) == block


def test_deadline_kept_on_hard_position() -> None:
    """With a short deadline on 5x5 k=5 (slow to solve) a legal move comes back near it."""
    board = Board.from_moves([12, 6], size=5, k=5)
    start = time.monotonic()
    cell = engine.best_move(board, deadline=start + 0.2)
    # Generous bound: checks that the deadline stops the search, not the machine's speed.
    assert time.monotonic() - start < 3.0
    assert cell in board.legal_moves()


def test_without_deadline_a_slow_position_still_gets_a_move() -> None:
    """Off the book, where the exact solver needs seconds, best_move returns within its budget.

    The position (5x5 k=4, ply 4, never on the engine's own lines) is a draw that takes the
    solver several seconds from empty tables; the bound is loose so that it tests the budget, not
    the machine's speed.
    """
    board = Board.from_string("...../...../O..../...../OX..X", 4)
    solver(5, 4).table.clear()
    start = time.monotonic()
    cell = engine.best_move(board)
    assert time.monotonic() - start < 5.0
    assert cell in board.legal_moves()


def test_budget_spent_still_wins_blocks_and_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no time at all the engine still takes a win in one, blocks, or plays a legal move."""
    monkeypatch.setattr(play, "MOVE_BUDGET", 0.0)
    solver(5, 4).table.clear()
    board = Board.from_string("...../...../O..../...../OX..X", 4)
    assert engine.best_move(board) in board.legal_moves()
    assert engine.best_move(Board.from_string("XX.X./OO.../O..../...../.....", 4)) == 2  # win
    assert engine.best_move(Board.from_string("XXX../OO.../...../...../.....", 4)) == 3  # block


@pytest.mark.parametrize(("size", "k", "expected"), [(4, 3, 95), (4, 4, 0), (5, 3, 95)])
def test_known_results_from_empty(size: int, k: int, expected: int) -> None:
    """4x4 k=3 and 5x5 k=3 are first-player wins (in 5 plies); 4x4 k=4 is a draw."""
    assert engine.evaluate(Board.empty(size, k)) == expected


def test_five_by_five_k4_is_a_draw() -> None:
    """5x5 k=4 is a draw (the shipped book's value, proven when the book was built)."""
    assert engine.evaluate(Board.empty(5, 4)) == 0


def _play(x: object, o: object, board: Board, rng: random.Random) -> Board:
    while board.outcome() is None:
        side = x if board.turn == "X" else o
        move = (
            engine.best_move(board, rng=rng)
            if side == "engine"
            else rng.choice(board.legal_moves())
        )
        board = board.play(move)
    return board


@pytest.mark.parametrize(("size", "k"), [(4, 3), (5, 3)])
def test_first_player_wins_as_proven(size: int, k: int) -> None:
    """As X the engine wins every game, in at most the proven 5 plies when unopposed well."""
    rng = random.Random(5)
    for _ in range(5):
        outcome = _play("engine", "random", Board.empty(size, k), rng).outcome()
        assert outcome is not None and outcome.winner == "X"
    outcome = _play("engine", "engine", Board.empty(size, k), rng)
    assert outcome.outcome() is not None and outcome.outcome().winner == "X"  # type: ignore[union-attr]
    assert outcome.ply == 5


def test_four_by_four_k4_never_loses() -> None:
    """On 4x4 k=4 the engine draws itself and never loses to random play, as X or as O."""
    rng = random.Random(11)
    assert _play("engine", "engine", Board.empty(4, 4), rng).outcome() == engine.Outcome(None, ())
    for first in ("engine", "random"):
        second = "random" if first == "engine" else "engine"
        for _ in range(3):
            outcome = _play(first, second, Board.empty(4, 4), rng).outcome()
            assert outcome is not None
            assert outcome.winner != ("O" if first == "engine" else "X")


def test_analyse_matches_evaluate_on_4x4() -> None:
    """Each move's value from analyse equals the value of the resulting position, flipped."""
    board = Board.from_moves([5, 0, 10], size=4, k=4)
    values = engine.analyse(board)
    assert max(values.values()) == engine.evaluate(board)
    for cell, value in values.items():
        child = board.play(cell)
        if child.outcome() is None:
            v = engine.evaluate(child)
            assert value == -v + (1 if v > 0 else -1 if v < 0 else 0)


def test_five_by_five_k4_engine_draws_itself_and_never_loses() -> None:
    """On 5x5 k=4 (a draw) the engine draws itself and never loses to random play, as X or O."""
    rng = random.Random(13)
    for _ in range(2):
        final = _play("engine", "engine", Board.empty(5, 4), rng)
        assert final.outcome() == engine.Outcome(None, ())
    for first in ("engine", "random"):
        second = "random" if first == "engine" else "engine"
        for _ in range(3):
            outcome = _play(first, second, Board.empty(5, 4), rng).outcome()
            assert outcome is not None
            assert outcome.winner != ("O" if first == "engine" else "X")
