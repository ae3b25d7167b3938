"""Choosing an ultimate move: the levels, the root of the search and its safety rules.

Levels, gentlest first:

- ``easy``: half its moves at random; otherwise the best move one ply deep.
- ``medium``: a fifth of its moves at random; otherwise two plies deep.
- ``hard``: four plies deep, with the safety rules below.
- ``expert``: the strongest. Searches deeper and deeper until its deadline (`MOVE_BUDGET`
  without one), with the safety rules. It is not unbeatable: ultimate is far too big to solve
  in a move's time.

The safety rules narrow the moves the search chooses from: win the game in one whenever possible,
and never leave the opponent a win of the game in one that some move stops. Small boards are
left to the search: made strict rules (take a small board in one whenever possible, never leave
one that some move stops), they cost most of the strength (docs/engine.md, Ultimate
tic-tac-toe). Every level takes a win of the game in one.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from engine.board import IllegalMoveError
from engine.play import MOVE_BUDGET
from engine.ultimate.board import UltimateBoard
from engine.ultimate.evaluation import DEFAULT, Weights
from engine.ultimate.geometry import TO_GLOBAL, WINNING_CELLS
from engine.ultimate.search import Search, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Literal

    Level = Literal["easy", "medium", "hard", "expert"]

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "expert")

# (chance of a random move, depth, safety rules); None searches to the deadline.
_LEVELS: dict[str, tuple[float, int | None, bool]] = {
    "easy": (0.5, 1, False),
    "medium": (0.2, 2, False),
    "hard": (0.0, 4, True),
    "expert": (0.0, None, True),
}
MAX_DEPTH = 60  # plies; past the end of any game


class Analysis(NamedTuple):
    """A search's result: the move (a global cell) and its value for the side to move, the
    deepest depth completed, the nodes searched, the seconds taken, and each root move's value
    at that depth (a bound, not exact, for the moves that were not best)."""

    move: int
    value: int
    depth: int
    nodes: int
    seconds: float
    values: dict[int, int]


def best_move(
    board: UltimateBoard,
    *,
    level: str = "expert",
    rng: random.Random | None = None,
    deadline: float | None = None,
) -> int:
    """The engine's move (a global cell) at `level`; by `deadline` (time.monotonic()) if given."""
    if level not in _LEVELS:
        raise IllegalMoveError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if board.outcome() is not None:
        raise IllegalMoveError("the game is over")
    mistake, depth, safe = _LEVELS[level]
    if mistake:
        import random as chance_module  # here: a deterministic expert move never needs it

        chance = rng or chance_module.Random(board.x * 31 + board.o)  # the same in every process
        if chance.random() < mistake:
            search = _search(board, DEFAULT)
            wins = [m for m in search.moves(search.target) if _wins_game(search, m)]
            return TO_GLOBAL[wins[0]] if wins else chance.choice(board.legal_moves())
    if depth is None and deadline is None:
        deadline = time.monotonic() + MOVE_BUDGET
    return analyse(board, deadline=deadline, depth=depth, rng=rng, safe=safe).move


def analyse(
    board: UltimateBoard,
    *,
    deadline: float | None = None,
    depth: int | None = None,
    rng: random.Random | None = None,
    safe: bool = True,
    weights: Weights = DEFAULT,
    native: bool = True,
) -> Analysis:
    """Search `board` to `depth` plies, or deeper and deeper until `deadline`; at least one ply
    is always completed. `safe` applies the safety rules; `rng` shuffles the first order, so
    moves of equal value are chosen at random."""
    if board.outcome() is not None:
        raise IllegalMoveError("the game is over")
    started = time.monotonic()
    search = _search(board, weights)
    moves = _candidates(search) if safe else search.moves(search.target)
    if rng is not None:
        rng.shuffle(moves)
    best, value, done, nodes, found = run(search, moves, depth or MAX_DEPTH, deadline, native)
    seconds = time.monotonic() - started
    values = {TO_GLOBAL[m]: v for m, v in zip(moves, found, strict=True)}
    return Analysis(TO_GLOBAL[best], value, done, nodes, seconds, values)


def _search(board: UltimateBoard, weights: Weights) -> Search:
    target = board.board_to_play()
    return Search(board.x, board.o, -1 if target is None else target, weights)


def _wins_game(search: Search, move: int) -> bool:
    saved = search.play(search.side, move)
    if saved is None:
        return True
    search.undo(search.side, move, saved)
    return False


def _loses_game(search: Search, side: int, move: int) -> bool:
    """After `side` plays `move`, can the opponent win the game at once?"""
    saved = search.play(side, move)
    assert saved is not None
    other = 1 - side
    mine = search.marks[other]
    found = False
    for reply in search.moves(search.target):
        b, c = divmod(reply, 9)
        if WINNING_CELLS[mine[b]] >> c & 1:  # only taking a small board can win the game
            inner = search.play(other, reply)
            if inner is None:
                found = True
                break
            search.undo(other, reply, inner)
    search.undo(side, move, saved)
    return found


def _candidates(search: Search) -> list[int]:
    """The moves the safety rules leave (see the module)."""
    moves = search.moves(search.target)
    wins = [m for m in moves if _wins_game(search, m)]
    if wins:
        return wins
    return [m for m in moves if not _loses_game(search, search.side, m)] or moves
