"""The shipped opening book: its moves are optimal, its values exact, its coverage complete."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine import Board, book
from engine.api import _absolute, _exact, _move_value, _relative, _sides
from engine.rules import rules
from engine.search import solver

SIZE, K = 5, 4


def _entries() -> dict[tuple[int, int, int, int], tuple[int, int]]:
    with open(book.DATA, encoding="ascii") as f:
        return book.parse(f.read())


def _complete_plies(what: str = "") -> list[int]:
    with open(book.DATA, encoding="ascii") as f:
        text = f.read()
    pattern = rf"^# {SIZE}x{SIZE} k={K}: {what}ply (\d+) complete"
    return sorted({int(p) for p in re.findall(pattern, text, re.M)})


ENTRIES = _entries()
BOOK = {
    Board(size, k, x, o): entry for (size, k, x, o), entry in ENTRIES.items() if (size, k) == (5, 4)
}


def _solver_value(board: Board) -> int:
    """The exact value from the solver alone (the book is not consulted)."""
    me, opp = _sides(board)
    return _relative(_exact(solver(board.size, board.k), me, opp), board.ply)


def _is_optimal(board: Board, cell: int) -> bool:
    me, opp = _sides(board)
    s = solver(board.size, board.k)
    best = _exact(s, me, opp)
    return _move_value(s, me, opp, cell, best - 1, best) >= best


def test_every_entry_is_canonical_and_running() -> None:
    """Each stored board is the least of its symmetric images and the game is still on."""
    assert BOOK
    for board in BOOK:
        assert book.canonical(board)[0] == board, board
        assert board.outcome() is None


def test_moves_optimal_and_values_exact_on_a_sample() -> None:
    """On a random sample of the engine's positions, the solver agrees with the book."""
    rng = random.Random(2)
    # Positions from ply 4 on solve in milliseconds; the earlier ones were proven by the builder.
    movers = sorted((b for b, (_, m) in BOOK.items() if m and b.ply >= 4), key=str)
    others = sorted((b for b, (_, m) in BOOK.items() if not m and b.ply >= 5), key=str)
    for board in rng.sample(movers, 40):
        value, moves = BOOK[board]
        assert _solver_value(board) == value, board
        assert all(_is_optimal(board, move) for move in moves), (board, moves)
    for board in rng.sample(others, 20):
        assert _solver_value(board) == BOOK[board][0], board


def test_values_follow_from_the_engine_move() -> None:
    """After the book's move, the position is stored with the value seen from the other side."""
    for board, (value, moves) in BOOK.items():
        for move in moves:
            after = book.canonical(board.play(move))[0]
            if after.outcome() is None:
                expected = -value - (value > 0) + (value < 0)
                assert BOOK[after][0] == expected, (board, move)


def test_covers_every_position_the_engine_can_face() -> None:
    """Up to the last complete ply, every position the unbeatable engine can face is in the book.

    The walk follows the book's own move where the engine is to move and every legal reply of
    the opponent, as X (from the empty board) and as O (from every first move).
    """
    plies = _complete_plies()
    assert plies == list(range(len(plies))) and len(plies) >= 6
    last = plies[-1]
    empty = Board.empty(SIZE, K)
    for start in ([empty], [empty.play(c) for c in range(SIZE * SIZE)]):
        level = {book.canonical(b)[0] for b in start}
        while level and next(iter(level)).ply <= last:
            following = set()
            for board in level:
                moves = BOOK[board][1]
                assert moves, board
                for move in moves:
                    after = board.play(move)
                    if after.outcome() is not None:
                        continue
                    for cell in after.legal_moves():
                        child = after.play(cell)
                        if child.outcome() is None:
                            following.add(book.canonical(child)[0])
            level = following


def test_public_api_reads_the_book() -> None:
    """best_move plays the book's move (mapped back from the canonical frame); values agree."""
    board = Board.from_moves([0], SIZE, K)  # not canonical as played
    canon, t = book.canonical(board)
    value, moves = BOOK[canon]
    expected = rules(SIZE, K).perms[t].index(moves[0])
    assert engine.best_move(board) == expected
    assert engine.evaluate(board) == value
    assert engine.classify(board) == (value > 0) - (value < 0)
    # Where the opponent is to move (a hint, a review), every reply's value is in the book.
    after = board.play(expected)
    values = engine.analyse(after)
    assert len(values) == len(after.legal_moves())
    assert max(values.values()) == engine.evaluate(after) == -value - (value > 0) + (value < 0)


def test_values_cover_every_position_to_their_ply() -> None:
    """Every position (up to symmetry) up to the last complete "values" ply has its value."""
    plies = _complete_plies("values at ")
    assert plies == list(range(len(plies))) and len(plies) >= 3
    level = {Board.empty(SIZE, K)}
    for _ in plies:
        assert all(b in BOOK for b in level)
        level = {
            book.canonical(b.play(c))[0]
            for b in level
            for c in b.legal_moves()
            if b.play(c).outcome() is None
        }


def test_values_agree_with_the_values_of_the_moves() -> None:
    """Wherever the book holds every move's result, its value is the best of them (negamax)."""
    checked = 0
    for board, (value, moves) in BOOK.items():
        values = book.move_values(board)
        if values is None:
            continue
        checked += 1
        assert max(values.values()) == value, board
        assert all(values[move] == value for move in moves), board
    assert checked > 100


def test_moves_where_the_book_holds_only_values() -> None:
    """Where the book has no move of its own but every move's result, the move comes from them.

    These are positions after the engine's reply as O (the centre) to a first move elsewhere, so
    the engine playing the other side there reads exact moves and values at once.
    """
    rng = random.Random(4)
    for moves in ([0, 12], [1, 12], [24, 12]):
        board = Board.from_moves(moves, SIZE, K)
        assert book.lookup(board) == []
        assert book.move_values(board) is not None
        values = engine.analyse(board)
        best = max(values.values())
        assert best == engine.evaluate(board)
        assert values[engine.best_move(board)] == best
        for _ in range(3):
            assert values[engine.best_move(board, rng=rng)] == best


def test_book_values_convert_back_to_solver_scores() -> None:
    """A book value read back as the solver's absolute score gives the same value again."""
    for filled in range(25):
        for plies in range(1, 26 - filled):  # a win or a loss `plies` away
            for value in (100 - plies, plies - 100):
                assert _relative(_absolute(value, filled), filled) == value
        assert _relative(_absolute(0, filled), filled) == 0


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("5 4 ...../...../..X../...../.....", "expected 5 fields"),
        ("5 4 ...../...../..Y../...../..... 0 -", "unknown character"),
        ("5 4 ...../...../..X../...../..... zero -", "invalid literal"),
        ("4 4 ...../...../..X../...../..... 0 -", "line says 4"),
        ("5 4 ...../...../..X../...../..... 0 12", "not a legal move"),
        ("5 4 ...../...../..X../...../..... 0 25", "not a legal move"),
        ("5 4 ...../...../..X../...../..... 140 -", "out of range"),
        ("5 4 XXXX./OOO../...../...../..... 0 -", "game is over"),
        ("5 4 XX.../...../...../...../..... 0 -", "impossible counts"),
        ("5 4 ...../...../..X../...../..... 0 6,6", "listed twice"),
        ("5 4 ...../...../..X../...../..... 0 6,12", "not a legal move"),
    ],
)
def test_malformed_book_lines_are_refused(line: str, fragment: str) -> None:
    """A bad line raises BookError naming its line number and the problem."""
    text = "# a comment\n5 4 ...../...../...../...../..... 0 12\n" + line + "\n"
    with pytest.raises(book.BookError, match="line 3") as info:
        book.parse(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_good_lines_parse() -> None:
    """Comments and blank lines are skipped; "-" reads as no move."""
    text = "# c\n\n5 4 ...../...../..X../...../..... 0 -\n"
    text += "5 4 ...../...../...../...../..... 0 12,6\n"
    entries = book.parse(text)
    assert entries == {(5, 4, 1 << 12, 0): (0, ()), (5, 4, 0, 0): (0, (12, 6))}


def test_first_moves_vary_with_rng_over_every_symmetric_cell() -> None:
    """The book's first moves, mapped through the board's symmetries, are what rng picks from.

    Without rng the first listed move is played every time.
    """
    empty = Board.empty(SIZE, K)
    stored = BOOK[empty][1]
    offered = book.lookup(empty)
    perms = rules(SIZE, K).perms
    assert offered[0] == stored[0]
    assert set(offered) == {perm.index(move) for move in stored for perm in perms}
    assert len({engine.best_move(empty) for _ in range(5)}) == 1
    rng = random.Random(8)
    picks = {engine.best_move(empty, rng=rng) for _ in range(200)}
    assert picks == set(offered)
