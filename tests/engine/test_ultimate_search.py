"""Ultimate's search and levels: exact against plain minimax, incremental state kept right,
the safety rules of the strongest level, deadlines and the levels' contract."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from engine.ultimate import LEVELS, IllegalMoveError, UltimateBoard, analyse, best_move
from engine.ultimate.evaluation import DEFAULT
from engine.ultimate.geometry import TO_GLOBAL
from engine.ultimate.play import _search
from engine.ultimate.search import WIN, Search

STRONGEST = LEVELS[-1]


def random_positions(count: int, seed: int) -> list[UltimateBoard]:
    """Running positions from random games, one taken at a random ply of each."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board, stop = UltimateBoard.empty(), rng.randrange(4, 60)
        while board.outcome() is None and board.ply < stop:
            board = board.play(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            out.append(board)
    return out


def minimax(board: UltimateBoard, depth: int, ply: int) -> int:
    """Plain negamax over UltimateBoard, no pruning or table, the same leaf values."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else -(WIN - ply)
    if depth == 0:
        search = _search(board, DEFAULT)
        return search.evaluate(search.side, search.target)
    return max(-minimax(board.play(m), depth - 1, ply + 1) for m in board.legal_moves())


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_search_value_is_plain_minimax(depth: int) -> None:
    """Alpha-beta with its table and ordering gives the same value as plain minimax."""
    for board in random_positions(12 if depth < 3 else 5, seed=depth):
        found = analyse(board, depth=depth, safe=False)
        assert found.depth == depth or found.value > WIN - 200  # a win in one ends the search
        assert found.value == minimax(board, depth, 0)


def state(search: Search) -> tuple[object, ...]:
    return (
        [list(m) for m in search.marks],
        list(search.won),
        search.closed,
        search.target,
        [list(c) for c in search.chance],
        search.hash,
    )


def test_make_and_unmake_keep_the_state_as_built_from_scratch() -> None:
    """After each move the incremental state equals a fresh one; undo restores it exactly."""
    for board in random_positions(30, seed=11):
        search = _search(board, DEFAULT)
        before = state(search)
        for move in search.moves(search.target):
            saved = search.play(search.side, move)
            after = board.play(TO_GLOBAL[move])
            if saved is None:  # a win of the game: nothing made
                assert wins_game(board, TO_GLOBAL[move])
                assert state(search) == before
                continue
            fresh = _search(after, DEFAULT)
            assert state(search)[:5] == state(fresh)[:5]
            assert search.hash == fresh.hash
            search.undo(search.side, move, saved)
            assert state(search) == before


def wins_game(board: UltimateBoard, cell: int) -> bool:
    after = board.play(cell)
    outcome = after.outcome()
    return outcome is not None and outcome.winner == board.turn


def opponent_can(
    board: UltimateBoard, cell: int, test: Callable[[UltimateBoard, int], bool]
) -> bool:
    after = board.play(cell)
    return after.outcome() is None and any(test(after, r) for r in after.legal_moves())


def quick(board: UltimateBoard) -> int:
    return best_move(board, level=STRONGEST, deadline=time.monotonic() + 0.02)


def test_the_strongest_level_never_misses_a_win_of_the_game_in_one() -> None:
    """Wherever the side to move can win the game at once, the strongest level does."""
    seen = 0
    for board in random_positions(400, seed=5):
        if any(wins_game(board, m) for m in board.legal_moves()):
            seen += 1
            assert wins_game(board, quick(board))
    assert seen >= 10


def test_the_strongest_level_stops_a_loss_of_the_game_in_one() -> None:
    """It never leaves the opponent a win of the game in one that some move would stop."""
    seen = 0
    for board in random_positions(400, seed=6):
        moves = board.legal_moves()
        if any(wins_game(board, m) for m in moves):
            continue
        losing = [m for m in moves if opponent_can(board, m, wins_game)]
        if losing and len(losing) < len(moves):
            seen += 1
            assert not opponent_can(board, quick(board), wins_game)
    assert seen >= 10


def test_a_passed_deadline_still_gives_a_legal_move() -> None:
    """With its deadline already gone, the search completes one ply and returns a legal move."""
    for board in random_positions(20, seed=9):
        found = analyse(board, deadline=time.monotonic() - 1)
        assert found.move in board.legal_moves()
        assert found.depth >= 1
        assert best_move(board, deadline=time.monotonic() - 1) in board.legal_moves()


def test_a_longer_deadline_searches_deeper() -> None:
    """Iterative deepening goes on while time remains: more nodes, a deeper depth."""
    board = UltimateBoard.empty().play(40)
    short = analyse(board, depth=2)
    long = analyse(board, deadline=time.monotonic() + 0.3)
    assert long.depth > short.depth and long.nodes > short.nodes


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(level: str) -> None:
    """A game of each level against random moves ends, every move legal."""
    rng = random.Random(level)
    board = UltimateBoard.empty()
    while board.outcome() is None:
        if board.turn == "X":
            move = best_move(board, level=level, rng=rng, deadline=time.monotonic() + 0.02)
        else:
            move = rng.choice(board.legal_moves())
        assert move in board.legal_moves()
        board = board.play(move)


def test_levels_and_errors() -> None:
    """The levels run gentlest to strongest, which is not called unbeatable; bad calls raise."""
    assert LEVELS[0] == "easy" and "unbeatable" not in LEVELS
    with pytest.raises(IllegalMoveError, match="unknown level"):
        best_move(UltimateBoard.empty(), level="unbeatable")
    board = UltimateBoard.empty()
    assert best_move(board, level="hard") == best_move(board, level="hard")  # no rng: repeatable


def test_the_compiled_core_is_built_in_ci() -> None:
    """The compiled search builds from a fresh clone: under CI its absence is a failure."""
    from engine.ultimate import search

    if search._core is None:
        if os.environ.get("CI") == "true":
            pytest.fail("engine.ultimate._core was not built (a C compiler and Python's headers)")
        pytest.skip("engine.ultimate._core is not built here: the search runs in Python")


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_the_compiled_core_searches_as_the_python_reference(depth: int) -> None:
    """The compiled core gives the same best value and the same value bounds as the search in
    Python, move for move, at every depth."""
    from engine.ultimate import search

    if search._core is None:
        pytest.skip("engine.ultimate._core is not built")
    for board in random_positions(40, seed=100 + depth):
        python = analyse(board, depth=depth, safe=False, native=False)
        native = analyse(board, depth=depth, safe=False, native=True)
        assert native.value == python.value
        assert native.depth == python.depth
        assert native.values[native.move] == native.value


def test_searches_in_several_threads_at_once_answer_as_one_at_a_time() -> None:
    """The compiled core lets go of the GIL and each thread has a transposition table of its
    own: searches run at once in threads (as the bot runs them) give the values of the same
    searches run one after another."""
    from concurrent.futures import ThreadPoolExecutor

    from engine.ultimate import search

    if search._core is None:
        pytest.skip("engine.ultimate._core is not built")
    boards = random_positions(24, seed=7)

    def values(board: UltimateBoard) -> tuple[int, int, dict[int, int]]:
        found = analyse(board, depth=5, safe=False)
        return found.move, found.value, found.values

    alone = [values(board) for board in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(values, boards))
    assert together == alone


def test_without_rng_every_level_plays_the_same_in_every_process() -> None:
    """No rng: the same move for the same position, whatever the process's hash seed."""
    code = (
        "from engine.ultimate import UltimateBoard, best_move, LEVELS\n"
        "b = UltimateBoard.from_moves([40, 30, 0, 10])\n"
        "print([best_move(b, level=level, deadline=None) for level in LEVELS[:-1]])"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(seen) == 1
