"""Board rules, the text round trip and every kind of bad input."""

from __future__ import annotations

import pickle
import random

import pytest

from engine import Board, IllegalMoveError, Outcome
from engine.rules import rules


@pytest.mark.parametrize(
    ("size", "k", "count"),
    [(3, 3, 8), (4, 3, 24), (4, 4, 10), (5, 3, 48), (5, 4, 28), (5, 5, 12)],
)
def test_line_counts(size: int, k: int, count: int) -> None:
    """Each board has the known number of k-in-a-row lines, each of k cells."""
    lines = rules(size, k).lines
    assert len(lines) == count
    assert len(set(lines)) == count
    assert all(line.bit_count() == k for line in lines)


@pytest.mark.parametrize(("size", "k"), [(3, 3), (4, 3), (4, 4), (5, 3), (5, 4), (5, 5)])
def test_every_line_wins(size: int, k: int) -> None:
    """Filling any line with X (and O elsewhere, legally) gives X the win with that line."""
    for line in rules(size, k).lines:
        cells = [c for c in range(size * size) if line >> c & 1]
        others = [c for c in range(size * size) if not line >> c & 1]
        # O fills cells of no single line with the chosen ones: pick cells away from the line.
        board = Board.empty(size, k)
        o_cells = iter(others)
        for i, cell in enumerate(cells):
            board = board.play(cell)
            if i < len(cells) - 1:
                while True:
                    candidate = next(o_cells)
                    trial = board.play(candidate)
                    if trial.outcome() is None:
                        board = trial
                        break
        outcome = board.outcome()
        assert outcome is not None
        assert outcome.winner == "X"
        assert set(outcome.line) == set(cells)


def test_round_trip_and_defaults() -> None:
    """to_string reads back; k defaults to 3 on 3x3 and 4 on bigger boards."""
    for text in ["X.O/.X./...", "..../..../..../....", "XO.../...../..X../...../....."]:
        board = Board.from_string(text)
        assert board.to_string() == text
        assert Board.from_string(board.to_string(), board.k) == board
        assert eval(repr(board), {"Board": Board}) == board
    assert Board.empty().k == 3
    assert Board.empty(4).k == 4
    assert Board.empty(5, 5).k == 5
    assert Board.from_string("..../..../..../....", 3).k == 3


def test_turn_moves_and_outcome() -> None:
    """Turn follows the counts; play returns a new board; outcome reports the winning line."""
    board = Board.empty()
    assert board.turn == "X"
    assert board.legal_moves() == tuple(range(9))
    after = board.play(4)
    assert board == Board.empty()
    assert after.turn == "O"
    assert after.cell(4) == "X"
    won = Board.from_moves([0, 3, 1, 4, 2])
    assert won.outcome() == Outcome("X", (0, 1, 2))
    assert won.legal_moves() == ()
    drawn = Board.from_string("XOX/XOO/OXX")
    assert drawn.outcome() == Outcome(None, ())
    assert Board.from_string("XX./OO./...").outcome() is None


def test_hashable_and_picklable() -> None:
    """Boards are equal by value, hash alike and survive pickling compactly."""
    a = Board.from_moves([4, 0], size=5)
    b = Board.from_string(a.to_string())
    assert a == b and hash(a) == hash(b)
    data = pickle.dumps(a)
    assert pickle.loads(data) == a
    assert len(data) < 100
    with pytest.raises(AttributeError):
        a.x = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "k", "fragment"),
    [
        ("X.O/.Y./...", None, "unknown character"),
        ("X.O/.X/...", None, "row 2"),
        ("../..", None, "rows"),
        ("XX./.../...", None, "impossible counts"),
        ("O../.../...", None, "impossible counts"),
        ("XXX/OOO/X..", None, "both"),
        ("XXX/OO./O..", None, "moved after"),
        ("XXX/.../XXX", None, "impossible counts"),
        ("X../.../...", 4, "k must be"),
        ("..../..../..../....", 2, "k must be"),
        ("XXX./O.../O.../O...", 3, "both"),
    ],
)
def test_bad_text(text: str, k: int | None, fragment: str) -> None:
    """Bad board text raises IllegalMoveError (a ValueError) saying what is wrong."""
    with pytest.raises(IllegalMoveError, match=fragment) as info:
        Board.from_string(text, k)
    assert isinstance(info.value, ValueError)


def test_two_disjoint_lines_cannot_happen() -> None:
    """A winner holding two lines that share no cell is rejected."""
    with pytest.raises(IllegalMoveError, match="one last move"):
        Board.from_string("XXX./O.O./XXX./OO.O", 3)


def test_illegal_moves() -> None:
    """Occupied, off-board and after-the-end moves raise IllegalMoveError."""
    board = Board.from_moves([4])
    with pytest.raises(IllegalMoveError, match="taken"):
        board.play(4)
    with pytest.raises(IllegalMoveError, match="off the board"):
        board.play(9)
    with pytest.raises(IllegalMoveError, match="off the board"):
        board.play(-1)
    with pytest.raises(IllegalMoveError, match="over"):
        Board.from_moves([0, 3, 1, 4, 2]).play(8)
    with pytest.raises(IllegalMoveError, match="size"):
        Board.empty(6)


def _replayed(moves: list[int], size: int, k: int) -> Board | str:
    """The board after playing `moves` one by one with `play`, or the first error's text."""
    board = Board.empty(size, k)
    try:
        for cell in moves:
            board = board.play(cell)
    except IllegalMoveError as exc:
        return str(exc)
    return board


@pytest.mark.parametrize(("size", "k"), [(3, 3), (4, 3), (4, 4), (5, 4), (5, 5)])
def test_from_moves_is_play_move_by_move_errors_included(size: int, k: int) -> None:
    """Random move lists (taken cells, cells off the board, moves after the end included) give
    the same board, or the same error, as playing them one by one."""
    rng = random.Random(size * 10 + k)
    for _ in range(2000):
        moves = [rng.randrange(-1, size * size + 1) for _ in range(rng.randrange(size * size + 3))]
        if rng.random() < 0.7:  # mostly legal games, played past their end
            moves = rng.sample(range(size * size), size * size)[: rng.randrange(size * size + 1)]
        try:
            built: Board | str = Board.from_moves(moves, size, k)
        except IllegalMoveError as exc:
            built = str(exc)
        assert built == _replayed(moves, size, k), moves
