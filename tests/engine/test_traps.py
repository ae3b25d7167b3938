"""The unbeatable level's preference among value-keeping moves: the likeliest trap."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import engine
from engine import Board, small, trapsearch
from engine.api import _sides
from engine.rules import rules
from engine.search import solver
from engine.traps import trap_order


def _preferred(text: str) -> dict[int, int]:
    board = Board.from_string(text)
    _, _, _, optimal, weights = small.table()[board.x, board.o]
    return {cell: w for cell, w in zip(optimal, weights, strict=True) if w}


def test_every_preferred_3x3_move_keeps_the_exact_value() -> None:
    """In all 4,520 running positions each move unbeatable may play has the position's value."""
    for (x, o), (value, _, _, optimal, weights) in small.table().items():
        values = engine.analyse(Board(3, 3, x, o))
        assert value == max(values.values())
        assert any(weights)
        assert all(values[c] == value for c, w in zip(optimal, weights, strict=True) if w)


def test_known_3x3_preferences() -> None:
    """X opens in a corner. After X corner, O centre: against a uniform player the threat on an
    adjacent edge is best (it misses the block five times in six); against players who always
    block, the opposite corner, where the natural corner reply loses: that one is played three
    times in four. O answers an edge opening in the centre."""
    assert _preferred(".../.../...") == {0: 1, 2: 1, 6: 1, 8: 1}
    assert _preferred("X../.O./...") == {1: 1, 3: 1, 8: 6}
    assert _preferred(".X./.../...") == {4: 1}


def test_3x3_against_the_uniform_player_is_within_half_a_point_of_the_limit() -> None:
    """The most a never-losing player wins against the uniform player is 99.48% as X and 91.64%
    as O; unbeatable wins within half a point of each."""
    limit = small.wins_against("uniform", best=True)
    assert [round(100 * float(p), 2) for p in limit] == [99.48, 91.64]
    got = small.wins_against("uniform")
    assert all(lim - Fraction(1, 200) <= g <= lim for g, lim in zip(got, limit, strict=True))


def test_trap_order_puts_a_threat_first() -> None:
    """A cell that makes a line one mark short of a win ranks before the cells that only block."""
    board = Board.from_moves([0, 15, 1, 14], size=4, k=4)  # X to move: 0, 1 in row 0
    me, opp = _sides(board)
    order = trap_order(rules(4, 4), me, opp, board.legal_moves())
    assert order[:2] in ([2, 3], [3, 2])
    rng = random.Random(1)
    firsts = {trap_order(rules(4, 4), me, opp, board.legal_moves(), rng)[0] for _ in range(20)}
    assert firsts <= {2, 3}


def test_chance_counts_missed_blocks_and_the_natural_reply() -> None:
    """After a threat, every reply but the block loses; the natural reply is the block. The
    opponent who may miss a block goes wrong often; the one who always blocks only if the block
    itself loses."""
    board = Board.from_moves([0, 5, 1, 10, 2], size=4, k=4)  # X threatens at 3; O to move
    s = solver(4, 4)
    x, o = board.x, board.o
    replies = len(board.legal_moves())
    block_loses = engine.classify(board.play(3)) > 0
    expected = trapsearch.QUIRK * (replies - 1 + block_loses) / replies
    expected += (1 - trapsearch.QUIRK) * block_loses
    missing, blocking = trapsearch._chances(s, x, o, 1, 1)
    assert missing == pytest.approx(expected)
    assert blocking == pytest.approx(float(block_loses))


@pytest.mark.parametrize(("size", "k"), [(4, 3), (4, 4)])
def test_big_board_moves_keep_the_exact_value(size: int, k: int) -> None:
    """From random positions, unbeatable's move always has the position's exact value."""
    rng = random.Random(size * 10 + k)
    checked = 0
    while checked < 12:
        board = Board.empty(size, k)
        for _ in range(rng.randrange(1, 7)):
            if board.outcome() is not None:
                break
            board = board.play(rng.choice(board.legal_moves()))
        if board.outcome() is not None:
            continue
        values = engine.analyse(board)
        move = engine.best_move(board, rng=rng)
        assert values[move] == max(values.values()), board.to_string()
        checked += 1


def test_a_quiet_trap_beats_a_threat_that_a_blocker_answers() -> None:
    """X to move in a drawn 4x4 position. The threat at 5 loses for O unless O blocks at 7 (8 of
    9 replies lose), a trap only for a player who may miss a block; after 11, 6 of 9 replies lose
    with no threat to answer, so a player who always blocks can slip there too. The model that
    misses blocks alone prefers the threat; the mixture prefers the quiet trap."""
    board = Board.from_moves([3, 0, 4, 10, 6, 8], size=4, k=4)
    assert max(engine.analyse(board).values()) == 0
    losing = {}
    for move in (5, 11):
        after = board.play(move)
        losing[move] = sum(engine.classify(after.play(r)) > 0 for r in after.legal_moves())
    assert losing == {5: 8, 11: 6}
    s = solver(4, 4)
    threat = trapsearch._chances(s, board.x | 1 << 5, board.o, 1, 1)
    quiet = trapsearch._chances(s, board.x | 1 << 11, board.o, 1, 1)
    assert threat == pytest.approx((trapsearch.QUIRK * 8 / 9, 0.0))
    assert quiet == pytest.approx((trapsearch.QUIRK * 6 / 9, trapsearch.BLOCKER_QUIRK * 6 / 9))
    assert threat[0] > quiet[0]
    assert trapsearch._mixed(quiet) > trapsearch._mixed(threat)
