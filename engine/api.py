"""Exact values of positions and moves, on the scale documented in `evaluate`."""

from __future__ import annotations

from engine import book
from engine.board import Board, IllegalMoveError
from engine.rules import WIN
from engine.search import SearchTimeout, Solver, solver, trim_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random


def _sides(board: Board) -> tuple[int, int]:
    return (board.x, board.o) if board.turn == "X" else (board.o, board.x)


def _relative(value: int, filled: int) -> int:
    """Absolute score (WIN - marks at the end) to the scale of a position holding `filled` marks."""
    if value > 0:
        return value + filled
    if value < 0:
        return value - filled
    return 0


def _absolute(value: int, filled: int) -> int:
    """The inverse of `_relative`: a value on the evaluate scale back to the absolute score."""
    if value > 0:
        return value - filled
    if value < 0:
        return value + filled
    return 0


def _running(board: Board) -> None:
    if board.outcome() is not None:
        raise IllegalMoveError("the game is over")


def evaluate(board: Board) -> int:
    """The exact value of `board` for the side to move (scale: WIN - n for a win in n plies).

    A forced win whose last move is n plies away (the winning move counted) is 100 - n; a forced
    loss n plies away is -(100 - n); a draw is 0. So a win next move is 99, a loss after the
    opponent's reply is -98, and larger is always better. Raises IllegalMoveError once the game is
    over.
    """
    _running(board)
    known = book.value(board)
    if known is not None:
        return known
    trim_tables()
    me, opp = _sides(board)
    s = solver(board.size, board.k)
    return _relative(_exact(s, me, opp), board.ply)


def classify(board: Board) -> int:
    """The sign of `evaluate(board)`: 1 for a forced win of the side to move, 0 a draw, -1 a loss.

    Cheaper than `evaluate` where the book does not hold the position: one win/draw/loss search,
    without the further searches that find the distance of a win or a loss. Raises
    IllegalMoveError once the game is over.
    """
    _running(board)
    known = book.value(board)
    if known is None:
        trim_tables()
        me, opp = _sides(board)
        known = solver(board.size, board.k).search(me, opp, -1, 1)
    return (known > 0) - (known < 0)


def _exact(s: Solver, me: int, opp: int) -> int:
    """The exact absolute value: first win, draw or loss with a null window, then the distance.

    The distance is found by null-window tests at growing depth (a win within 1, 3, 5... plies; a
    loss within 2, 4...): each test prunes everything beyond its horizon, so a short result is
    cheap, where one wide-window search would explore every longer line as well.
    """
    value = s.search(me, opp, -1, 1)
    if value == 0:
        return 0
    filled = (me | opp).bit_count()
    depth = 1 if value > 0 else 2
    while True:
        if value > 0:
            target = WIN - filled - depth
            if s.search(me, opp, target - 1, target) >= target:
                return target
        else:
            target = filled + depth - WIN
            if s.search(me, opp, target, target + 1) <= target:
                return target
        depth += 2


def exact_value(s: Solver, board: Board) -> int:
    """The exact absolute value of a running `board` for the side to move: the book's, or `s`'s."""
    known = book.value(board)
    if known is not None:
        return _absolute(known, board.ply)
    return _exact(s, *_sides(board))


def analyse(board: Board) -> dict[int, int]:
    """Every legal move with its exact value for the side to move (the `evaluate` scale)."""
    _running(board)
    trim_tables()
    me, opp = _sides(board)
    s = solver(board.size, board.k)
    filled = board.ply
    out = {}
    for cell in board.legal_moves():
        known = book.value(board.play(cell)) if board.size > 3 else None
        if known is not None:
            # The child's value for the opponent, one ply further: flip it and add the move.
            out[cell] = -known + (known > 0) - (known < 0)
        else:
            out[cell] = _relative(_move_value(s, me, opp, cell), filled)
    return out


def _move_value(s: Solver, me: int, opp: int, cell: int, alpha: int = -WIN, beta: int = WIN) -> int:
    """Absolute value for the mover of playing `cell` (exact when inside (alpha, beta))."""
    after = me | 1 << cell
    if any(line & after == line for line in s.r.cell_lines[cell]):
        return WIN - after.bit_count() - opp.bit_count()
    if (after | opp) == s.r.full:
        return 0
    if alpha == -WIN and beta == WIN:
        return -_exact(s, opp, after)
    return -s.search(opp, after, -beta, -alpha)


def solving(board: Board) -> tuple[Solver, int, int]:
    """The solver for `board`, its tables trimmed, and the marks of the side to move and of the
    other side (the caller bounds its searches: ``Solver.bounded``)."""
    me, opp = _sides(board)
    s = solver(board.size, board.k)
    trim_tables()
    return s, me, opp


def optimal_move(
    board: Board, *, rng: random.Random | None = None, deadline: float | None = None
) -> int:
    """One game-theoretically optimal move: uniform among them with `rng`, else the lowest cell.

    Raises SearchTimeout if `deadline` passes first (the table keeps the work done).
    """
    s, me, opp = solving(board)
    with s.bounded(deadline):
        best = exact_value(s, board)
        if rng is not None:
            # The first optimal move of a uniformly shuffled list is uniform among optimal moves.
            moves = list(board.legal_moves())
            rng.shuffle(moves)
        else:
            # The solver's own order: the likeliest move is tested first, and the choice is the
            # most active optimal move (centre and threats first), not merely the lowest cell.
            moves = ranked_moves(s, me, opp)
        for cell in moves:
            # Null-window test: is this move's value at least `best`?
            if _move_value(s, me, opp, cell, best - 1, best) >= best:
                return cell
        raise AssertionError("no move reaches the position's value")


def ranked_moves(s: Solver, me: int, opp: int) -> list[int]:
    """Empty cells in the solver's move order; of cells in no open line, only one stands for all.

    The cells left out have the same value as the one kept, so an optimal move is always among
    those returned.
    """
    occupied = me | opp
    live = 0
    for line in s.r.lines:
        if not line & opp or not line & me:
            live |= line
    return s.order(me, opp, s.r.full & ~occupied, live, -1)


__all__ = [
    "SearchTimeout",
    "analyse",
    "classify",
    "evaluate",
    "optimal_move",
    "ranked_moves",
]
