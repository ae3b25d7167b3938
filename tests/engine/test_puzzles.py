"""Puzzles: the whole shipped set proven, the proof's refusals, attempts, serving and ratings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Board, IllegalMoveError
from engine.puzzles import (
    Attempt,
    Puzzle,
    PuzzleError,
    answers,
    daily,
    fastest,
    glicko,
    hint,
    judge,
    near,
    play,
    prove,
    puzzles,
    tree,
)
from engine.puzzles.collection import parse

REPROVE_EVERY = 4  # the stored answers of every fourth puzzle are searched again


def test_every_shipped_puzzle_is_proven() -> None:
    """At least 1,000 puzzles on 4x4 and 5x5 with 3 or 4 in a row; the solver proves each one:
    the side to move wins with exactly N moves, and only the stated first move is that fast."""
    shipped = puzzles()
    assert len(shipped) >= 1000
    assert {(p.board.size, p.board.k) for p in shipped} == {(4, 3), (4, 4), (5, 3), (5, 4)}
    failed = [p.id for p in shipped if not prove(p)]
    assert failed == []


def test_every_puzzle_carries_answers_and_a_quarter_of_them_are_reproven() -> None:
    """Every shipped puzzle carries its answers, and they are the solver's own: for every fourth
    puzzle of the file (each board and length among them), at every position an attempt can
    reach, every legal move judged again by search (its outcome, the defence's reply to a right
    move, the reason and refutation of a wrong one) and the hint found again. A change to the
    engine that moves any answer moves many; the whole set is checked by
    ``scripts/build_puzzles.py --check`` (about 2 minutes of one core; the tests take a quarter)."""
    shipped = puzzles()
    assert [p.id for p in shipped if not p.answers] == []
    sample = shipped[::REPROVE_EVERY]
    assert {(p.board.size, p.board.k) for p in sample} == {(4, 3), (4, 4), (5, 3), (5, 4)}
    wrong = [p.id for p in sample if tree.parse(p.answers) != _searched(p)]
    assert wrong == []


def _searched(puzzle: Puzzle) -> tree.Tree:
    return tree.parse(answers(puzzle))


def test_an_attempt_by_its_answers_is_the_searched_attempt() -> None:
    """Played through its stored answers or by search, an attempt ends the same, move by move;
    a puzzle without answers is searched."""
    from dataclasses import replace

    rng = random.Random(2)
    for puzzle in rng.sample(puzzles(), 20):
        bare = replace(puzzle, answers="")
        assert bare == puzzle and bare.to_line() != puzzle.to_line()
        attempt = Attempt(puzzle)
        while attempt.state == "playing":
            cell = rng.choice(attempt.board.legal_moves())
            looked_up = play(attempt, cell)
            assert looked_up == judge(attempt, cell) == play(Attempt(bare, attempt.moves), cell)
            assert hint(attempt) == hint(replace(attempt, puzzle=bare))
            attempt = looked_up


def test_answers_round_trip_and_a_malformed_tree_is_refused() -> None:
    """A line with answers reads back with them; stored answers that are not a tree raise
    TreeError."""
    puzzle = puzzles()[0]
    assert Puzzle.from_line(puzzle.to_line()).answers == puzzle.answers
    assert tree.encode(tree.parse(puzzle.answers)) == puzzle.answers
    for bad in ("/3/", "0.1/x/2p3", "/3/2q1", "/3/2p1;/4"):
        with pytest.raises(tree.TreeError):
            tree.parse(bad)


def test_a_proof_agrees_with_the_exact_values() -> None:
    """For a sample of the set, analyse gives the solution the puzzle's value, and no other."""
    rng = random.Random(4)
    for puzzle in rng.sample(puzzles(), 24):
        values = engine.analyse(puzzle.board)
        value = 100 - (2 * puzzle.moves - 1)  # a win whose last move is 2N - 1 plies away
        assert values[puzzle.solution] == value == max(values.values())
        assert Counter(values.values())[value] == 1


def _one(size: int, k: int, moves: int) -> Puzzle:
    return next(p for p in puzzles() if (p.board.size, p.board.k, p.moves) == (size, k, moves))


def test_a_wrong_claim_is_not_proven() -> None:
    """Another first move, a wrong N, a 3x3 board or a finished game: no proof."""
    puzzle = _one(5, 4, 3)
    other = next(c for c in puzzle.board.legal_moves() if c != puzzle.solution)
    for bad in (
        Puzzle("x", puzzle.board, puzzle.moves, other, 1000),
        Puzzle("x", puzzle.board, puzzle.moves - 1, puzzle.solution, 1000),
        Puzzle("x", puzzle.board, puzzle.moves + 1, puzzle.solution, 1000),
        Puzzle("x", Board.from_string("XX./OO./..."), 2, 2, 1000),
    ):
        assert not prove(bad)


def test_two_equally_fast_wins_are_not_a_puzzle() -> None:
    """X with two open threes on 5x5 k=4 wins in one two ways: fastest lists both."""
    board = Board.from_string("XXX../OO.../XXX../OOO../O....", 4)
    found = fastest(board)
    assert found is not None and found[0] == 1 and sorted(found[1]) == [3, 13]


@pytest.mark.parametrize(("size", "k", "moves"), [(4, 4, 3), (5, 4, 4), (5, 3, 3)])
def test_following_hints_solves_with_the_defence_answering(size: int, k: int, moves: int) -> None:
    """Playing the hinted moves wins in exactly N moves; each hint is counted."""
    attempt = Attempt(_one(size, k, moves))
    taken = 0
    while attempt.state == "playing":
        attempt, cell = hint(attempt)
        taken += 1
        attempt = play(attempt, cell)
    assert attempt.state == "solved" and attempt.hints == taken == moves
    assert not attempt.clean
    assert len(attempt.moves) == 2 * moves - 1
    assert attempt.board.outcome() is not None


def test_a_clean_solve_counts() -> None:
    """The solution, then any move that wins in time, without a hint: solved cleanly."""
    attempt = Attempt(_one(4, 3, 2))
    attempt = play(attempt, attempt.puzzle.solution)
    board = attempt.board
    win = next(c for c in board.legal_moves() if board.play(c).outcome() is not None)
    attempt = play(attempt, win)
    assert attempt.state == "solved" and attempt.clean


def test_a_wrong_first_move_ends_with_the_reason_and_the_refutation() -> None:
    """A move other than the solution fails: a slower win, a draw, or a loss, as the values
    say, with the defender's best answer and the solution as the move that would have won;
    further moves are refused."""
    reasons = set()
    for puzzle in puzzles()[::60]:
        values = engine.analyse(puzzle.board)
        cell = min(values, key=lambda c: values[c])
        failed = play(Attempt(puzzle), cell)
        v = values[cell]
        assert failed.state == ("slower" if v > 0 else "draw" if v == 0 else "loses")
        assert failed.refutation in failed.board.legal_moves()
        assert failed.better == puzzle.solution  # what would have won
        reasons.add(failed.state)
        with pytest.raises(IllegalMoveError):
            play(failed, failed.refutation)  # type: ignore[arg-type]
    assert reasons >= {"draw", "loses"}


def test_an_illegal_move_is_refused() -> None:
    """A taken cell raises IllegalMoveError."""
    puzzle = puzzles()[0]
    taken = next(c for c in range(puzzle.board.size**2) if c not in puzzle.board.legal_moves())
    with pytest.raises(IllegalMoveError):
        play(Attempt(puzzle), taken)


def test_daily_is_the_same_for_a_place_and_day() -> None:
    """The daily puzzle depends only on the day and the place, and changes from day to day."""
    assert daily(739000, 42) == daily(739000, 42)
    assert len({daily(739000 + d, 42).id for d in range(30)}) > 20


def test_near_offers_puzzles_close_to_the_rating() -> None:
    """A player rated R gets puzzles rated within 100 of R where there are any, else the window
    doubles until it holds one; puzzles done are left out while others remain."""
    rng = random.Random(2)
    for rating in (1100.0, 1400.0):
        assert abs(near(rating, rng).difficulty - rating) <= 100
    least = min(abs(p.difficulty - 3000) for p in puzzles())
    assert abs(near(3000.0, rng).difficulty - 3000) <= 2 * least  # the window doubles
    pool = puzzles()[:2]
    done = {pool[0].id}
    assert near(pool[0].difficulty, rng, done=done, pool=pool) == pool[1]


def test_glicko2_matches_glickmans_example() -> None:
    """The worked example of Glickman's paper: 1500/200/0.06 after three games."""
    player = glicko.Rating(1500, 200, 0.06)
    games = [(glicko.Rating(1400, 30), 1.0), (glicko.Rating(1550, 100), 0.0)]
    games.append((glicko.Rating(1700, 300), 0.0))
    after = glicko.update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_an_attempt_moves_both_ratings_opposite_ways() -> None:
    """A solve raises the player and lowers the puzzle; a failure the reverse."""
    player, puzzle = glicko.Rating(), glicko.Rating(1300, 200)
    up, down = glicko.attempt(player, puzzle, solved=True)
    assert up.rating > player.rating and down.rating < puzzle.rating
    low, high = glicko.attempt(player, puzzle, solved=False)
    assert low.rating < player.rating and high.rating > puzzle.rating
    assert up.deviation < player.deviation
    with pytest.raises(ValueError):
        glicko.update(player, [(puzzle, 2.0)])


def test_a_malformed_line_names_its_number() -> None:
    """A bad line, or an id used twice, raises PuzzleError with the line number."""
    good = puzzles()[0].to_line()
    assert parse(f"# comment\n{good}\n") == [puzzles()[0]]
    with pytest.raises(PuzzleError, match="line 2"):
        parse(f"{good}\n{good}\n")
    with pytest.raises(PuzzleError, match="line 1"):
        parse("p 5 4 XX 2 1 1000\n")


def test_a_wrong_later_move_names_a_move_that_still_won_in_time() -> None:
    """After a right first move and the defence, a move that does not win in time fails, and
    `better` is a move that did: played instead, the attempt goes on or is solved."""
    found = 0
    for puzzle in [p for p in puzzles() if p.moves >= 2][::40]:
        right = play(Attempt(puzzle), puzzle.solution)
        board = right.board
        values = engine.analyse(board)
        cell = min(values, key=lambda c: values[c])
        failed = play(right, cell)
        if failed.state in ("playing", "solved"):
            continue
        found += 1
        assert failed.better is not None and failed.better != cell
        assert play(right, failed.better).state in ("playing", "solved")
    assert found
