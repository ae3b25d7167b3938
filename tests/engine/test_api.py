"""Exact values and perfect moves, checked exhaustively on 3x3 against a brute-force minimax."""

from __future__ import annotations

import random
from functools import cache

import pytest

import engine
from engine import Board

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _winner(cells: str) -> str | None:
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


@cache
def brute(cells: str) -> int:
    """Independent minimax over a 9-char string: win in n plies = 100 - n, for the mover."""
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    best = -1000
    for i, ch in enumerate(cells):
        if ch != ".":
            continue
        nxt = cells[:i] + mover + cells[i + 1 :]
        if _winner(nxt):
            value = 99
        elif "." not in nxt:
            value = 0
        else:
            child = brute(nxt)
            value = -child + (1 if child > 0 else -1 if child < 0 else 0)
        best = max(best, value)
    return best


def _reachable() -> list[str]:
    seen: set[str] = set()
    stack = ["." * 9]
    while stack:
        cells = stack.pop()
        if cells in seen:
            continue
        seen.add(cells)
        if _winner(cells) or "." not in cells:
            continue
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        stack.extend(cells[:i] + mover + cells[i + 1 :] for i, c in enumerate(cells) if c == ".")
    return sorted(seen)


POSITIONS = _reachable()
LIVE = [p for p in POSITIONS if not _winner(p) and "." in p]


def _board(cells: str) -> Board:
    return Board.from_string("/".join(cells[i : i + 3] for i in (0, 3, 6)))


def _move_value(cells: str, i: int) -> int:
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    nxt = cells[:i] + mover + cells[i + 1 :]
    if _winner(nxt):
        return 99
    if "." not in nxt:
        return 0
    child = brute(nxt)
    return -child + (1 if child > 0 else -1 if child < 0 else 0)


def test_reachable_count() -> None:
    """The test's own enumeration finds the known 5,478 reachable positions."""
    assert len(POSITIONS) == 5478


def test_evaluate_and_analyse_exhaustive() -> None:
    """evaluate and analyse agree with brute force in every live reachable position."""
    for cells in LIVE:
        board = _board(cells)
        assert engine.evaluate(board) == brute(cells), cells
        expected = {i: _move_value(cells, i) for i, c in enumerate(cells) if c == "."}
        assert engine.analyse(board) == expected, cells


def test_classify_is_the_sign_of_the_value() -> None:
    """classify gives 1, 0 or -1 as the brute-force value is a win, a draw or a loss."""
    for cells in LIVE:
        value = brute(cells)
        assert engine.classify(_board(cells)) == (value > 0) - (value < 0), cells
    with pytest.raises(engine.IllegalMoveError):
        engine.classify(Board.from_string("XXX/OO./..."))


def test_best_move_optimal_everywhere() -> None:
    """Unbeatable's move is optimal in every live position, with and without rng."""
    rng = random.Random(7)
    for cells in LIVE:
        board = _board(cells)
        best = brute(cells)
        assert _move_value(cells, engine.best_move(board)) == best, cells
        for _ in range(3):
            assert _move_value(cells, engine.best_move(board, rng=rng)) == best, cells


def test_ties_vary_with_rng_and_not_without() -> None:
    """With rng the empty board's move varies; without, it is always the same."""
    board = Board.empty()
    rng = random.Random(1)
    assert len({engine.best_move(board, rng=rng) for _ in range(60)}) > 3
    assert len({engine.best_move(board) for _ in range(10)}) == 1


def _never_loses(board: Board, engine_side: str) -> None:
    """The engine never loses, whatever the opponent plays (all opponent lines)."""
    outcome = board.outcome()
    if outcome is not None:
        assert outcome.winner in (None, engine_side)
        return
    if board.turn == engine_side:
        _never_loses(board.play(engine.best_move(board)), engine_side)
    else:
        for cell in board.legal_moves():
            _never_loses(board.play(cell), engine_side)


@pytest.mark.parametrize("side", ["X", "O"])
def test_never_loses_against_any_line(side: str) -> None:
    """Against every possible opponent line, unbeatable never loses as X or as O."""
    _never_loses(Board.empty(), side)


def test_values_scale() -> None:
    """A win next move is 99; a loss after the reply is -98; game over raises."""
    assert engine.evaluate(Board.from_string("XX./OO./...")) == 99
    assert engine.evaluate(Board.from_string("XX./O../O..")) == 99
    with pytest.raises(engine.IllegalMoveError):
        engine.evaluate(Board.from_string("XXX/OO./..."))
    with pytest.raises(engine.IllegalMoveError):
        engine.best_move(Board.from_string("XXX/OO./..."))
    with pytest.raises(engine.IllegalMoveError, match="level"):
        engine.best_move(Board.empty(), level="godlike")
