"""Missed wins: the puzzles a finished game leaves behind, on games whose answer is known."""

from __future__ import annotations

import random
import time
from itertools import zip_longest

import pytest

from engine import Board
from engine.api import optimal_move
from engine.book import openings
from engine.puzzles import (
    MOST_MOVES,
    Attempt,
    Puzzle,
    hint,
    missed,
    missed_at,
    missed_wins,
    play,
    prove,
    puzzle_id,
    puzzles,
)
from engine.puzzles.proof import wins_within
from engine.search import SearchTimeout, solver


def _moves_to(board: Board) -> list[int]:
    """A game's moves reaching `board` (X's and O's cells alternating, X first)."""
    xs = [c for c in range(board.size**2) if board.cell(c) == "X"]
    os_ = [c for c in range(board.size**2) if board.cell(c) == "O"]
    out: list[int] = []
    for i, x in enumerate(xs):
        out.append(x)
        if i < len(os_):
            out.append(os_[i])
    return out


def _finish(board: Board, moves: list[int], rng: random.Random) -> list[int]:
    """`moves` played on to the end of the game at random from `board`."""
    while board.outcome() is None:
        cell = rng.choice(board.legal_moves())
        moves.append(cell)
        board = board.play(cell)
    return moves


def _sample(n: int) -> list[Puzzle]:
    rng = random.Random(7)
    chosen: list[Puzzle] = []
    for size, k in ((4, 3), (4, 4), (5, 3), (5, 4)):
        pool = [p for p in puzzles() if (p.board.size, p.board.k) == (size, k)]
        chosen += rng.sample(pool, n)
    return chosen


def _checked(found: list[Puzzle], game: list[int], size: int, k: int) -> None:
    """Every result is proven, and is a position of the game where the move played was slower."""
    boards = {}
    board = Board.empty(size, k)
    for cell in game:
        boards[board] = cell
        board = board.play(cell)
    for p in found:
        assert prove(p), p
        assert p.id == puzzle_id(p.board)
        assert not wins_within(p.board, boards[p.board], p.moves)


def test_a_missed_win_is_found_as_the_proven_puzzle() -> None:
    """A game that reaches a shipped puzzle's position and plays a move that does not win as
    fast: that position is among the game's missed wins, with the same N and solution."""
    rng = random.Random(1)
    for p in _sample(6):
        prefix = _moves_to(p.board)
        slower = [c for c in p.board.legal_moves() if not wins_within(p.board, c, p.moves)]
        wrong = rng.choice(slower)
        game = _finish(p.board.play(wrong), [*prefix, wrong], rng)
        found = missed_wins(p.board.size, p.board.k, game)
        _checked(found, game, p.board.size, p.board.k)
        mine = [f for f in found if f.board == p.board]
        assert [(f.moves, f.solution) for f in mine] == [(p.moves, p.solution)]
        assert missed_at(p.board, wrong) == mine[0]
        # Found with its answers: the same as the shipped puzzle's, for the same position.
        assert all(f.answers for f in found) and mine[0].answers == p.answers


def test_a_taken_win_gives_no_puzzle_from_there_on() -> None:
    """A game that reaches a puzzle's position, then wins it with the fastest moves against the
    longest defence: no missed win at that position or after it."""
    for p in _sample(4):
        attempt = Attempt(p)
        while attempt.state == "playing":
            attempt, cell = hint(attempt)
            attempt = play(attempt, cell)
        game = [*_moves_to(p.board), *attempt.moves]
        assert attempt.state == "solved"
        found = missed_wins(p.board.size, p.board.k, game)
        _checked(found, game, p.board.size, p.board.k)
        assert all(f.board.ply < p.board.ply for f in found)


def test_perfect_games_have_no_missed_win() -> None:
    """Both sides playing the exact solver's move (the fastest win, the longest defence): won
    games (4x4 and 5x5 with 3 in a row) and drawn ones (4 in a row) leave no puzzle."""
    for size, k in ((4, 3), (5, 3), (4, 4)):
        board = Board.empty(size, k)
        game: list[int] = []
        while board.outcome() is None:
            cell = optimal_move(board, rng=random.Random(len(game)))
            game.append(cell)
            board = board.play(cell)
        outcome = board.outcome()
        assert outcome is not None
        assert outcome.winner == ("X" if k == 3 else None)
        assert missed_wins(size, k, game) == []


def test_the_id_is_the_position() -> None:
    """The same position reached by two move orders is one puzzle; another position another."""
    p = next(p for p in puzzles() if p.board.size == 5 and p.board.k == 4)
    wrong = next(c for c in p.board.legal_moves() if not wins_within(p.board, c, p.moves))
    first = missed_at(p.board, wrong)
    assert first is not None
    moves = _moves_to(p.board)
    xs, os_ = moves[::2][::-1], moves[1::2][::-1]  # the same marks, played in another order
    reordered = [c for pair in zip_longest(xs, os_) for c in pair if c is not None]
    assert reordered != moves
    assert puzzle_id(Board.from_moves(reordered, p.board.size, p.board.k)) == first.id
    assert puzzle_id(Board.empty(5, 4).play(12)) != first.id
    assert not first.id.startswith(tuple({q.id[:3] for q in puzzles()}))


def test_only_the_chosen_sides_and_never_3x3() -> None:
    """A miss by X is not reported when only O is asked for; a 3x3 game gives nothing (no 3x3
    puzzles), even one where X let a win in two go."""
    p = next(p for p in puzzles() if p.board.turn == "X" and p.board.size == 4)
    wrong = next(c for c in p.board.legal_moves() if not wins_within(p.board, c, p.moves))
    game = _finish(p.board.play(wrong), [*_moves_to(p.board), wrong], random.Random(2))
    assert all(f.board.turn == "O" for f in missed_wins(4, p.board.k, game, sides=("O",)))
    assert any(f.board == p.board for f in missed_wins(4, p.board.k, game, sides=("X",)))
    # 3x3: X at 0 and 4, O at 1 and 8; X to move wins in two with 6 (forks 3 and 2) but plays 7.
    assert missed_wins(3, 3, [0, 1, 4, 8, 7, 6, 2, 3, 5]) == []


def test_a_deadline_leaves_the_rest_unjudged() -> None:
    """With a deadline already past, what is found is a proven part of the full answer."""
    p = next(p for p in puzzles() if p.board.size == 5 and p.board.k == 4 and p.moves == 4)
    wrong = next(c for c in p.board.legal_moves() if not wins_within(p.board, c, p.moves))
    game = _finish(p.board.play(wrong), [*_moves_to(p.board), wrong], random.Random(3))
    full = missed_wins(5, 4, game)
    cut = missed_wins(5, 4, game, deadline=time.monotonic() - 1)
    assert all(f in full for f in cut)
    assert full
    assert max(f.moves for f in full) <= MOST_MOVES


def test_the_shipped_verdicts_cover_the_opening_and_agree_with_the_search() -> None:
    """engine/data/missed.txt holds every 5x5 k=3 position to ply 3 up to symmetry and nothing
    else; each verdict (no puzzle, or the fastest win and its only first move) is the search's,
    for every position to ply 2 and a sample of ply 3's."""
    with open(missed.OPENINGS, encoding="ascii") as f:
        shipped = missed.read_openings(f.read())
    boards = openings(5, 3, 3)
    assert set(shipped) == {(5, 3, b.x, b.o) for b in boards}
    assert sum(v is not None for v in shipped.values()) > 100  # the file is no list of "-"
    rng = random.Random(5)
    early = [b for b in boards if b.ply <= 2]
    for board in early + rng.sample([b for b in boards if b.ply == 3], 150):
        assert shipped[5, 3, board.x, board.o] == missed.verdict(board), board


def test_a_shipped_verdict_gives_the_searched_puzzle_in_every_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Positions of the opening as they stand (any of the eight images) with any move played:
    `missed_at` from the shipped verdicts and from the search alone give the same puzzle (its
    solution in the board's own frame) or the same None."""
    rng = random.Random(9)
    cases = []
    for _ in range(300):
        board = Board.empty(5, 3)
        for _ in range(rng.randrange(4)):
            board = board.play(rng.choice(board.legal_moves()))
        cases.append((board, rng.choice(board.legal_moves())))
    shipped = [missed_at(board, played) for board, played in cases]
    monkeypatch.setattr(missed, "_OPENING_PLY", {})  # nothing shipped: every verdict searched
    searched = [missed_at(board, played) for board, played in cases]
    assert shipped == searched
    assert sum(p is not None for p in shipped) >= 10  # puzzles among them, not only None


def test_a_deadline_holds_through_every_search_made_inside_it() -> None:
    """A bound inside another never lifts the outer one (a puzzle's answers search with no
    deadline of their own inside a finished game's search for missed wins): an optimal move
    asked for inside an expired bound stops at once; the bound before is in force after."""
    s = solver(5, 4)
    board = Board.from_moves((12, 6, 7), size=5, k=4)
    s.table.clear()
    with s.bounded(10.0):
        with s.bounded(None):
            assert s.deadline == 10.0
        with s.bounded(20.0):
            assert s.deadline == 10.0
        with s.bounded(5.0):
            assert s.deadline == 5.0
        assert s.deadline == 10.0
    assert s.deadline is None
    with s.bounded(time.monotonic() - 1), pytest.raises(SearchTimeout):
        optimal_move(board)
    assert s.deadline is None
    assert optimal_move(board) in board.legal_moves()  # unbounded again
