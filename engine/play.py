"""Choosing a move: the levels, immediate wins and blocks, the opening book and the solver.

Levels, weakest first (every level takes a win in one whenever it has one):

- ``easy``: blocks the opponent's win in one only half the time; otherwise plays a random legal
  move 70% of the time and a good move the rest.
- ``medium``: always blocks a win in one; otherwise a random legal move 40% of the time, else a
  good move.
- ``hard``: always blocks; a random legal move 25% of the time, else a good move.
- ``unbeatable``: always a game-theoretically perfect move: the fastest forced win, never a spoiled
  draw, the longest resistance when lost. Among the moves that keep that value it plays the one
  likeliest to make a fallible opponent go wrong (engine.traps: exact on 3x3, a bounded look
  ahead on bigger boards, engine.trapsearch); remaining ties are broken at random with `rng`,
  deterministically without it.

A gentler level's good move is a perfect one where that costs no search: on 3x3 (a table) and on
the opening book's lines. Elsewhere on a big board it is the cell the solver would try first, the
one that builds and blocks the most lines: microseconds, where a search cut off at a budget played
worse (docs/engine.md, Levels). Only ``unbeatable`` searches, for up to MOVE_BUDGET, and past
that plays the best move found so far.
"""

from __future__ import annotations

import time

from engine import small
from engine.board import Board, IllegalMoveError
from engine.levels import LEVELS, MISTAKES
from engine.rules import rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random

# Without a deadline, an unbeatable move on a big board still returns within this many seconds:
# the book and the solver answer exactly well inside it on the engine's own lines; elsewhere (a
# position the book does not cover and the solver cannot finish in time) the best move found so far.
MOVE_BUDGET = 0.9


def _wins_in_one(board: Board, me: int, opp: int) -> list[int]:
    """Cells that complete a line for the side whose marks are `me`."""
    out = set()
    for line in rules(board.size, board.k).lines:
        if not line & opp and (line & me).bit_count() == board.k - 1:
            out.add((line & ~me).bit_length() - 1)
    return sorted(out)


def _pick(moves: list[int], rng: random.Random | None) -> int:
    return rng.choice(moves) if rng is not None else moves[0]


def best_move(
    board: Board,
    *,
    level: str = "unbeatable",
    rng: random.Random | None = None,
    deadline: float | None = None,
) -> int:
    """The engine's move at `level`; by `deadline` (a time.monotonic() value) when one is given."""
    found = _choose(board, level, rng, deadline, search=True)
    assert found is not None  # with search, there is always a move
    return found


def quick_move(
    board: Board, *, level: str = "unbeatable", rng: random.Random | None = None
) -> int | None:
    """The move `best_move` plays when finding it needs no search, else None.

    A 3x3 move (a table), a win in one, a forced block, a level's random mistake, the opening
    book, or any move of a gentler level: microseconds to a fraction of a millisecond. None means
    `best_move` would search, which only ``unbeatable`` does. With
    an `rng` seeded alike, `best_move` gives the same move wherever this one gives a move.
    """
    return _choose(board, level, rng, None, search=False)


def _choose(
    board: Board, level: str, rng: random.Random | None, deadline: float | None, *, search: bool
) -> int | None:
    if level not in MISTAKES:
        raise IllegalMoveError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if board.size == 3 and board.k == 3:
        entry = small.table().get((board.x, board.o))
        if entry is None:
            raise IllegalMoveError("the game is over")
        _, wins, blocks, optimal, weights = entry
        if level == "unbeatable":
            if rng is None:
                return optimal[weights.index(max(weights))]
            return rng.choices(optimal, weights)[0]
        return _with_mistakes(board, level, rng, list(wins), list(blocks), list(optimal))
    if board.outcome() is not None:
        raise IllegalMoveError("the game is over")
    me, opp = (board.x, board.o) if board.turn == "X" else (board.o, board.x)
    if search and deadline is None:
        deadline = time.monotonic() + MOVE_BUDGET
    return _with_mistakes(
        board,
        level,
        rng,
        _wins_in_one(board, me, opp),
        _wins_in_one(board, opp, me),
        None,
        deadline,
        search=search,
    )


def _with_mistakes(
    board: Board,
    level: str,
    rng: random.Random | None,
    wins: list[int],
    blocks: list[int],
    optimal: list[int] | None,
    deadline: float | None = None,
    *,
    search: bool = True,
) -> int | None:
    if wins:
        return _pick(wins, rng)
    mistake, block = MISTAKES[level]
    if rng is not None:
        chance = rng
    else:
        import random  # here, not at import: a deterministic unbeatable move never needs it

        chance = random.Random(board.x * 31 + board.o)
    if blocks and (block >= 1.0 or chance.random() < block):
        return _pick(blocks, rng)
    if mistake and chance.random() < mistake:
        return chance.choice(board.legal_moves())
    if optimal is not None:
        return _pick(optimal, rng)
    return _searched(board, rng, deadline, search=search, perfect=level == "unbeatable")


def _searched(
    board: Board,
    rng: random.Random | None,
    deadline: float | None,
    *,
    search: bool = True,
    perfect: bool = True,
) -> int | None:
    """An optimal move from the book; else, if `perfect`, from the solver (None without
    `search`), the best found so far if `deadline` passes; else the solver's first move in its
    order, with no search."""
    # Imported here, not at module import: a 3x3 game never needs the solver or the book.
    from engine import book
    from engine.search import SearchTimeout
    from engine.trapsearch import trap_move

    known = book.lookup(board) or (book.trap_moves(board) if perfect else [])
    if known:
        return _pick(known, rng)
    values = book.move_values(board)
    if values is not None:
        top = max(values.values())
        best = [cell for cell, v in values.items() if v == top]
        if not perfect:
            return _pick(best, rng)
        return _trap_first(board, best, rng)
    if not perfect:
        return _first_ranked(board)
    if not search:
        return None
    try:
        return trap_move(board, rng=rng, deadline=deadline)
    except SearchTimeout:
        return _fallback(board)


def _fallback(board: Board) -> int:
    """Out of time: the move the solver's table holds for the position, else its first in order."""
    from engine.api import _sides
    from engine.search import solver

    me, opp = _sides(board)
    found = solver(board.size, board.k).table_move(me, opp)
    return found if found >= 0 else _first_ranked(board)


def _trap_first(board: Board, cells: list[int], rng: random.Random | None) -> int:
    """Of `cells`, all equally good, the one that sets the likeliest trap (engine.traps)."""
    from engine.api import _sides
    from engine.traps import trap_order

    me, opp = _sides(board)
    return trap_order(rules(board.size, board.k), me, opp, cells, rng)[0]


def _first_ranked(board: Board) -> int:
    """The solver's first move in its order: the cell that builds and blocks the most lines."""
    from engine.api import _sides, ranked_moves
    from engine.search import solver

    me, opp = _sides(board)
    return ranked_moves(solver(board.size, board.k), me, opp)[0]
