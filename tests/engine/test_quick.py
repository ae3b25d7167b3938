"""quick_move: best_move's own move wherever that move needs no search, None elsewhere."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Board


def engine_lines(size: int, k: int, seed: int, plies: int) -> list[Board]:
    """Positions of a game between the unbeatable engine and a random player (each side in
    turn), the kind a bot game goes through."""
    rng = random.Random(seed)
    board, out = Board.empty(size, k), []
    engine_side = "XO"[seed % 2]
    while board.outcome() is None and len(out) < plies:
        out.append(board)
        if board.turn == engine_side:
            cell = engine.best_move(board, rng=random.Random(seed))
        else:
            cell = rng.choice(board.legal_moves())
        board = board.play(cell)
    return out


@pytest.mark.parametrize(("size", "k"), [(4, 3), (4, 4), (5, 3), (5, 4)])
def test_a_quick_move_is_the_move_best_move_plays(size: int, k: int) -> None:
    """With the same seed, at every level, best_move plays what quick_move gives; where
    quick_move gives None the side to move has no win in one (that would need no search)."""
    answered = asked = 0
    for game in range(6):
        for board in engine_lines(size, k, game, plies=8):
            for level in engine.LEVELS:
                seed = hash((game, board.x, board.o, level)) & 0xFFFF
                quick = engine.quick_move(board, level=level, rng=random.Random(seed))
                asked += 1
                if quick is None:
                    wins = [c for c in board.legal_moves() if board.play(c).outcome()]
                    assert not wins, (board, level)
                    continue
                answered += 1
                best = engine.best_move(board, level=level, rng=random.Random(seed))
                assert quick == best, (board, level, seed)
    assert 0 < answered <= asked


def test_on_3x3_every_move_is_quick() -> None:
    """3x3 is a table: quick_move always answers, with best_move's move."""
    board = Board.empty(3).play(4)
    for level in engine.LEVELS:
        quick = engine.quick_move(board, level=level, rng=random.Random(7))
        assert quick == engine.best_move(board, level=level, rng=random.Random(7))


def test_a_finished_game_or_an_unknown_level_is_refused_alike() -> None:
    """The same errors as best_move."""
    won = Board.from_string("XXX/OO./...")
    with pytest.raises(engine.IllegalMoveError):
        engine.quick_move(won)
    with pytest.raises(engine.IllegalMoveError):
        engine.quick_move(Board.empty(4), level="godlike")


@pytest.mark.parametrize(("size", "k"), [(4, 4), (5, 4)])
def test_the_gentler_levels_never_search(size: int, k: int) -> None:
    """Off the book, easy, medium and hard play the solver's first move in its order: quick_move
    always answers, and the solver visits no node for them."""
    from engine.api import _sides, ranked_moves
    from engine.search import solver

    s = solver(size, k)
    ranked_first = 0
    for game in range(4):
        rng = random.Random(game)
        board = Board.empty(size, k)
        while board.outcome() is None:
            for level in ("easy", "medium", "hard"):
                nodes = s.nodes
                quick = engine.quick_move(board, level=level, rng=random.Random(game))
                assert quick is not None and quick in board.legal_moves(), (board, level)
                assert s.nodes == nodes, (board, level)
                me, opp = _sides(board)
                ranked_first += quick == ranked_moves(s, me, opp)[0]
            board = board.play(rng.choice(board.legal_moves()))
    assert ranked_first > 0  # the heuristic move is played, not only random moves and the book
