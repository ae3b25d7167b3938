"""engine.puzzles.short: the wins read from the lines agree with the solver's searches."""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.api import _move_value, _sides, analyse, classify, optimal_move, ranked_moves
from engine.puzzles import short
from engine.puzzles.attempt import defence
from engine.rules import WIN
from engine.search import solver

# Boards and how many marks a position has before it is asked about (searches stay short).
BOARDS = ((4, 3, 2), (4, 4, 5), (5, 3, 3), (5, 4, 9))


def _positions(size: int, k: int, least: int, count: int, seed: int) -> list[Board]:
    """Running positions of random games with at least `least` marks, every side to move."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board.empty(size, k)
        while board.outcome() is None:
            if board.ply >= least:
                found.append(board)
            board = board.play(rng.choice(board.legal_moves()))
    return found[:count]


def _searched(board: Board, cell: int, moves: int) -> bool:
    """Whether playing `cell` wins within `moves` moves, by the solver's null-window search."""
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    target = WIN - board.ply - (2 * moves - 1)
    return _move_value(s, me, opp, cell, target - 1, target) >= target


@pytest.mark.parametrize(("size", "k", "least"), BOARDS)
def test_a_short_win_read_from_the_lines_is_the_searched_one(size: int, k: int, least: int) -> None:
    """On positions of random games: each move's win within one to four moves as the lines show
    it (always within one or two; beyond, a forced reply's) is the search's, and so is the
    position's fastest win."""
    s = solver(size, k)
    decided = {moves: 0 for moves in (1, 2, 3, 4)}
    for board in _positions(size, k, least, 60, seed=size * 10 + k):
        me, opp = _sides(board)
        for cell in board.legal_moves():
            for moves in (1, 2, 3, 4):
                known = short.wins_within(s.r, me, opp, cell, moves)
                assert known is not None or moves > 2
                if known is not None:
                    decided[moves] += 1
                    assert known == _searched(board, cell, moves), (board.to_string(), cell)
        quickest = next(
            (n for n in (1, 2) if any(_searched(board, c, n) for c in board.legal_moves())), 3
        )
        assert short.fastest(s.r, me, opp) == quickest, board.to_string()
    assert all(decided.values()), decided


@pytest.mark.parametrize(("size", "k", "least"), BOARDS)
def test_a_refutation_read_from_the_lines_is_the_searched_one(
    size: int, k: int, least: int
) -> None:
    """Where the lines show the best move, it is `optimal_move`'s, and the value's sign, where
    they show it too, `classify`'s; `outlook`'s sign is `classify`'s. Some positions are decided
    so, and some are left to the search."""
    s = solver(size, k)
    moves = {True: 0, False: 0}
    signs = {True: 0, False: 0}
    for board in _positions(size, k, least, 80, seed=size * 10 + k + 1):
        me, opp = _sides(board)
        known = short.refutation(s.r, me, opp, lambda: ranked_moves(s, me, opp))  # noqa: B023
        moves[known is not None] += 1
        if known is not None:
            sign, cell = known
            assert cell == optimal_move(board), board.to_string()
            assert sign in (None, classify(board)), board.to_string()
        sign = short.outlook(s.r, me, opp)
        signs[sign is not None] += 1
        assert sign in (None, classify(board)), board.to_string()
    assert all(moves.values()) and all(signs.values())


@pytest.mark.parametrize(("size", "k", "least"), BOARDS)
def test_the_longest_defence_read_from_the_lines_is_the_searched_one(
    size: int, k: int, least: int
) -> None:
    """`defence` (the reply that holds out longest, the lowest cell among equals) is the one
    the exact values of every reply give, where the lines decide it and where they do not."""
    for board in _positions(size, k, least, 60, seed=size * 10 + k + 2):
        values = analyse(board)
        best = max(values.values())
        assert defence(board) == min(c for c, v in values.items() if v == best), board.to_string()
