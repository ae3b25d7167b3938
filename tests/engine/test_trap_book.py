"""The trap book and the weighing it stands for: the shipped moves agree with the search, keep
the exact value, cover every position unbeatable can face early, and are played by lookup.
The positions are as they stand, not up to symmetry (engine.book.trap_moves says why)."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine import Board, book, trapsearch
from engine.api import _sides
from engine.search import solver

with open(book.TRAPS, encoding="ascii") as _f:
    TEXT = _f.read()
ENTRIES = book.parse(TEXT)
BOARDS = [(4, 3), (4, 4), (5, 3), (5, 5)]


def _plies(size: int, k: int) -> int:
    """The highest ply the file's comment lines say is complete for the board."""
    found = re.findall(rf"^# {size}x{size} k={k} ply (\d+): every position", TEXT, re.M)
    return max(int(p) for p in found)


def _faced(size: int, k: int, ply: int) -> set[Board]:
    """Every position unbeatable can face at `ply`, following the book's own moves."""
    empty = Board.empty(size, k)
    level = {empty} if ply % 2 == 0 else {empty.play(c) for c in empty.legal_moves()}
    for _ in range(ply // 2):
        following = set()
        for board in level:
            for move in ENTRIES[size, k, board.x, board.o][1]:
                after = board.play(move)
                following |= {
                    child for c in after.legal_moves() if (child := after.play(c)).outcome() is None
                }
        level = following
    return level


def _sample(size: int, k: int, n: int, seed: int) -> list[tuple[Board, tuple[int, ...], int]]:
    entries = sorted((key, e) for key, e in ENTRIES.items() if key[:2] == (size, k))
    chosen = random.Random(seed).sample(entries, min(n, len(entries)))
    return [(Board(s, kk, x, o), moves, value) for (s, kk, x, o), (value, moves) in chosen]


@pytest.mark.parametrize(("size", "k"), BOARDS)
def test_every_board_is_covered_to_its_stated_ply(size: int, k: int) -> None:
    """Each board's entries hold every position unbeatable can face up to the ply its comment
    lines state, and each entry is a running position with legal moves."""
    last = _plies(size, k)
    assert last >= 2
    for ply in range(last + 1):
        assert all((size, k, b.x, b.o) in ENTRIES for b in _faced(size, k, ply)), ply
    for (s, kk, x, o), (_, moves) in ENTRIES.items():
        board = Board(s, kk, x, o)
        assert board.outcome() is None
        assert moves and all(m in board.legal_moves() for m in moves)


@pytest.mark.parametrize(("size", "k"), BOARDS)
def test_shipped_moves_keep_the_exact_value_on_a_sample(size: int, k: int) -> None:
    """The stored value is the solver's, and every stored move keeps it."""
    for board, moves, value in _sample(size, k, 12, seed=size * 10 + k):
        values = engine.analyse(board)
        assert max(values.values()) == value == engine.evaluate(board), board.to_string()
        assert all(values[m] == value for m in moves), board.to_string()


@pytest.mark.parametrize(("size", "k", "n"), [(4, 3, 8), (4, 4, 8), (5, 3, 6), (5, 5, 2)])
def test_shipped_moves_are_what_the_weighing_chooses_on_a_sample(size: int, k: int, n: int) -> None:
    """Weighed again without a budget (its memo emptied), each sampled position gets the same
    moves as the book holds."""
    for board, moves, value in _sample(size, k, n, seed=size + k):
        trapsearch._MEMO.clear()
        found, cells = trapsearch.trap_choices(board)
        assert (found, sorted(cells)) == (value, list(moves)), board.to_string()


def test_the_engine_plays_the_book_by_lookup() -> None:
    """On a book position, unbeatable's move (best_move and quick_move alike, seeded) is one of
    the stored moves, with no search."""
    rng = random.Random(3)
    for board, moves, _ in _sample(4, 4, 10, seed=1) + _sample(5, 5, 10, seed=1):
        assert book.trap_moves(board) == list(moves)
        seed = rng.randrange(1000)
        s = solver(board.size, board.k)
        before = s.nodes
        assert engine.quick_move(board, rng=random.Random(seed)) in moves
        assert engine.best_move(board, rng=random.Random(seed)) in moves
        assert s.nodes == before
        assert book.trap_moves(Board.empty(3)) == []


def test_a_weighing_stops_at_its_node_limit_with_a_value_keeping_move() -> None:
    """With a tiny node budget the weighing is cut short and the move still keeps the value."""
    board = Board.from_moves([12, 0, 6], size=5, k=5)  # off the book's plies
    old = trapsearch.WORK_NODES
    trapsearch.WORK_NODES = 1
    try:
        trapsearch._MEMO.clear()
        s = solver(5, 5)
        before = s.nodes
        move = engine.best_move(board.play(18), rng=random.Random(1))
        assert s.nodes - before < 20_000
    finally:
        trapsearch.WORK_NODES = old
    after = board.play(18)
    values = engine.analyse(after)
    assert values[move] == max(values.values())


def test_remembered_chances_are_the_fresh_ones() -> None:
    """The memo that outlives a move gives what a fresh weighing computes."""
    board = Board.from_moves([5, 0, 6, 15], size=4, k=4)
    me, opp = _sides(board)
    s = solver(4, 4)
    trapsearch._MEMO.clear()
    fresh = [trapsearch._chances(s, me | 1 << c, opp, 1, 3) for c in board.legal_moves()]
    again = [trapsearch._chances(s, me | 1 << c, opp, 1, 3) for c in board.legal_moves()]
    assert fresh == again and any(f != (0.0, 0.0) for f in fresh)


def test_the_engine_reads_the_book_as_parse_does() -> None:
    """`read_traps`, the engine's quick reading of the shipped file, gives the entries that
    `parse` gives with every line's board built and checked."""
    assert book.read_traps(TEXT) == ENTRIES
    with pytest.raises(book.BookError, match="trap book line 2"):
        book.read_traps("# a comment\n4 4 ..../..../..../.... 0 5,x\n")
