"""Ultimate tic-tac-toe's rules: hand-built positions, and properties over random games checked
against a plain reference written here from the rules' text."""

from __future__ import annotations

import pickle
import random

import pytest

from engine.ultimate import IllegalMoveError, Outcome, UltimateBoard, cell_name, parse_cell
from engine.ultimate.geometry import board_cells

ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def cell(board: int, inner: int) -> int:
    """Global cell of cell `inner` of small board `board`."""
    return board_cells(board)[inner]


def test_x_moves_first_anywhere() -> None:
    """The empty board: X to move, any of the 81 cells, no board set."""
    board = UltimateBoard.empty()
    assert board.turn == "X"
    assert board.legal_moves() == tuple(range(81))
    assert board.board_to_play() is None
    assert board.outcome() is None


def test_a_move_sends_the_opponent_to_the_matching_board() -> None:
    """X in cell 2 (top right) of the centre board sends O to the top-right board."""
    board = UltimateBoard.empty().play(cell(4, 2))
    assert board.turn == "O"
    assert board.board_to_play() == 2
    assert board.legal_moves() == tuple(sorted(board_cells(2)))
    with pytest.raises(IllegalMoveError, match="not in the small board to play"):
        board.play(cell(5, 0))


def test_a_move_into_its_own_board_sends_back_there() -> None:
    """Centre cell of the centre board: the opponent plays in the centre board, its cell taken."""
    board = UltimateBoard.empty().play(40)
    assert board.board_to_play() == 4
    assert 40 not in board.legal_moves() and len(board.legal_moves()) == 8


def position(
    xs: list[tuple[int, int]], os: list[tuple[int, int]], last: int | None
) -> UltimateBoard:
    """A position from X's and O's marks as (small board, cell) pairs and the last move."""
    grid = ["."] * 81
    for mark, cells in (("X", xs), ("O", os)):
        for b, inner in cells:
            grid[cell(b, inner)] = mark
    rows = "/".join("".join(grid[9 * r : 9 * r + 9]) for r in range(9))
    return UltimateBoard.from_string(f"{rows} {'-' if last is None else cell_name(last)}")


def won_top_left() -> UltimateBoard:
    """X has just won the top-left board with its top row, ending in cell 2."""
    return position([(0, 0), (0, 1), (0, 2)], [(2, 4), (5, 5)], cell(0, 2))


def test_a_won_board_is_closed_even_its_empty_cells() -> None:
    """Once won, a small board takes no more moves; a player sent there chooses any open one."""
    board = won_top_left()
    assert board.small_winner(0) == "X"
    assert board.closed() & 1
    # X's winning move was cell 2, so O goes to board 2 (open).
    assert board.board_to_play() == 2
    board = board.play(cell(2, 0))  # sends X to the won board 0
    assert board.board_to_play() is None
    legal = set(board.legal_moves())
    assert not legal & set(board_cells(0))
    assert legal == {c for c in range(81) if board.cell(c) == "." and c not in board_cells(0)}
    with pytest.raises(IllegalMoveError, match="closed"):
        board.play(cell(0, 8))


def test_a_full_board_nobody_won_is_closed_and_belongs_to_nobody() -> None:
    """A drawn small board: closed, no winner, and it counts for neither side."""
    xs = [(0, 0), (0, 2), (0, 4), (0, 7), (1, 0), (2, 0)]
    os = [(0, 1), (0, 3), (0, 5), (0, 6), (0, 8)]
    board = position(xs, os, cell(2, 0))
    assert board.small_winner(0) is None
    assert board.closed() == 1
    assert board.outcome() is None
    assert board.board_to_play() is None  # sent to the full board: any open one
    assert not set(board.legal_moves()) & set(board_cells(0))


def test_three_won_boards_in_a_row_win_the_game() -> None:
    """X holds the diagonal of boards: the outcome names X and the boards 0, 4, 8."""
    grid = [["."] * 9 for _ in range(9)]
    for b in (0, 4, 8):
        for inner in (0, 1, 2):
            c = cell(b, inner)
            grid[c // 9][c % 9] = "X"
    for b in (1, 2, 3):
        for inner in (0, 4):
            c = cell(b, inner)
            grid[c // 9][c % 9] = "O"
    # 9 X, 6 O: give O two more marks so the counts fit (X moved last).
    for b, inner in ((5, 0), (6, 0)):
        c = cell(b, inner)
        grid[c // 9][c % 9] = "O"
    text = "/".join("".join(row) for row in grid) + " " + cell_name(cell(8, 2))
    board = UltimateBoard.from_string(text)
    assert board.outcome() == Outcome("X", (0, 4, 8))
    assert board.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="over"):
        board.play(cell(7, 0))


def test_no_open_board_and_no_line_of_boards_is_a_draw() -> None:
    """Every small board closed and no three in a row of boards: a draw."""
    # X wins boards 0, 1, 5, 6, 8; O wins 2, 3, 4, 7: no line for either side.
    owners = "XXOOOXXOX"
    grid = [["."] * 9 for _ in range(9)]
    for b, owner in enumerate(owners):
        for inner in (0, 1, 2):
            c = cell(b, inner)
            grid[c // 9][c % 9] = owner
    # Counts: X 15, O 12; add O marks in X's boards (cells 3, 4) to even them up: 15 X, 15 O.
    extra = [(0, 3), (1, 3), (5, 3)]
    for b, inner in extra:
        c = cell(b, inner)
        grid[c // 9][c % 9] = "O"
    text = "/".join("".join(row) for row in grid) + " -"
    board = UltimateBoard.from_string(text)
    assert board.outcome() == Outcome(None, ())
    assert board.legal_moves() == ()


def test_text_round_trip_and_errors() -> None:
    """to_string reads back; a bad text says what is wrong."""
    board = won_top_left().play(cell(2, 0))
    assert UltimateBoard.from_string(board.to_string()) == board
    assert board.to_string().endswith(" " + cell_name(cell(2, 0)))
    assert repr(board) == f"UltimateBoard.from_string({board.to_string()!r})"
    rows = board.to_string().split()[0]
    with pytest.raises(IllegalMoveError, match="9 rows"):
        UltimateBoard.from_string("X../...")
    with pytest.raises(IllegalMoveError, match="unknown character"):
        UltimateBoard.from_string(rows.replace(".", "?", 1))
    with pytest.raises(IllegalMoveError, match="last move"):
        UltimateBoard.from_string(rows + " I9")
    with pytest.raises(IllegalMoveError, match="impossible counts"):
        UltimateBoard.from_string("XX......." + "/........." * 8)


def test_cell_names() -> None:
    """A1 is the top-left cell, I9 the bottom-right; names read back in any case."""
    assert cell_name(0) == "A1" and cell_name(80) == "I9" and cell_name(40) == "E5"
    assert all(parse_cell(cell_name(c).lower()) == c for c in range(81))
    with pytest.raises(ValueError):
        parse_cell("J1")


# A reference, written plainly from the rules: a 9x9 grid of marks and the last move.


def ref_owner(grid: list[str], b: int) -> str | None:
    cells = [grid[c] for c in board_cells(b)]
    for line in ROWS:
        marks = {cells[i] for i in line}
        if len(marks) == 1 and "." not in marks:
            return cells[line[0]]
    return None


def ref_state(grid: list[str], last: int | None) -> tuple[list[int], str | None, bool]:
    owners = [ref_owner(grid, b) for b in range(9)]
    closed = [
        owners[b] is not None or "." not in {grid[c] for c in board_cells(b)} for b in range(9)
    ]
    winner = next(
        (
            owners[line[0]]
            for line in ROWS
            if owners[line[0]] and len({owners[i] for i in line}) == 1
        ),
        None,
    )
    over = winner is not None or all(closed)
    if over:
        return [], winner, True
    boards = list(range(9))
    if last is not None:
        target = board_cells(last // 9 // 3 * 3 + last % 9 // 3).index(last)
        if not closed[target]:
            boards = [target]
    legal = sorted(c for b in boards if not closed[b] for c in board_cells(b) if grid[c] == ".")
    return legal, winner, over


def test_random_games_agree_with_the_reference() -> None:
    """Over 300 random games: legal moves, outcome, turn, text, pickling and illegal moves."""
    rng = random.Random(7)
    lengths = []
    for _ in range(300):
        board, grid, last = UltimateBoard.empty(), ["."] * 81, None
        played: list[int] = []
        while True:
            legal, winner, over = ref_state(grid, last)
            assert list(board.legal_moves()) == legal
            outcome = board.outcome()
            assert (outcome is not None) == over
            if over:
                assert outcome is not None and outcome.winner == winner
                break
            assert board.turn == ("X" if len(played) % 2 == 0 else "O")
            assert UltimateBoard.from_string(board.to_string()) == board
            assert pickle.loads(pickle.dumps(board)) == board
            others = [c for c in range(81) if c not in legal]
            if others:
                with pytest.raises(IllegalMoveError):
                    board.play(rng.choice(others))
            move = rng.choice(legal)
            grid[move] = board.turn
            board, last = board.play(move), move
            played.append(move)
        assert UltimateBoard.from_moves(played) == board
        lengths.append(len(played))
    assert max(lengths) <= 81 and min(lengths) >= 17
