"""The unbeatable move on a big board: exact value first, then the likeliest trap.

The move keeps the position's exact value (the solver's, or the book's). Where that is a forced
win, the fastest is played as it is. Otherwise every value-keeping move is weighed by the chance
that a fallible opponent goes wrong after it, looking a few moves ahead along the opponent's
natural line, within TRAP_BUDGET and never past the move's deadline; a deeper look replaces a
shallower one only once it is complete.

The opponent is modelled as a mixture of two players, as the gentler levels play: both make
natural moves (the block of a win in one, else the cell that builds and blocks the most lines)
but for a share of random ones. The first plays QUIRK of its moves at random, even facing a
threat, as the random player and `easy` do; the second always blocks and plays BLOCKER_QUIRK of
its other moves at random, as `medium` and `hard` do. A move's weight is the mean of the two
chances (BLOCKER_SHARE): a threat traps only the first, while a slip of the second, which only
its free moves can make, needs a quieter trap. Going wrong means a reply that gives us more than
best play would: a win where the position is a draw, a draw or a win where it is lost.
"""

from __future__ import annotations

import time

from engine.api import _move_value, exact_value, ranked_moves, solving
from engine.board import Board
from engine.search import SearchTimeout, Solver
from engine.traps import trap_order

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    import random

# The most time a move spends weighing traps, within its deadline.
TRAP_BUDGET = 0.1
# The modelled opponents' shares of random moves (the gentler levels play 25% to 70%): one who
# may miss a block, and one who always blocks (medium 40%, hard 25%); the weight of the second.
QUIRK = 0.5
BLOCKER_QUIRK = 1 / 3
BLOCKER_SHARE = 0.5
# How far ahead along the opponent's natural line the weighing looks, in moves of ours.
DEPTH = 3


def trap_move(board: Board, *, rng: random.Random | None = None, deadline: float | None) -> int:
    """An optimal move of a running big `board` that sets the likeliest trap (ties: `rng`).

    Raises SearchTimeout if `deadline` passes before any optimal move is found.
    """
    s, me, opp = solving(board, deadline)
    try:
        best = exact_value(s, board)
        moves = trap_order(s.r, me, opp, ranked_moves(s, me, opp), rng)
        keep = [next(c for c in moves if _move_value(s, me, opp, c, best - 1, best) >= best)]
        if best > 0:
            return keep[0]
        stop = time.monotonic() + TRAP_BUDGET
        s.deadline = stop if deadline is None else min(stop, deadline)
        return _weighed(s, me, opp, best, moves, keep)
    finally:
        s.deadline = None


def _weighed(s: Solver, me: int, opp: int, best: int, moves: list[int], keep: list[int]) -> int:
    """The move of `moves` the deepest complete weighing prefers (the first of `keep` if none).

    Of equally weighed moves, the first in trap order (`rng` has shuffled its ties): choosing at
    random among them all varied the games more but won much less often against a random player
    (README, Levels).
    """
    chosen = keep[0]
    bar = 1 if best == 0 else 0  # the least value that beats best play's result
    try:
        keep += [
            c
            for c in moves[moves.index(keep[0]) + 1 :]
            if _move_value(s, me, opp, c, best - 1, best) >= best
        ]
        if len(keep) == 1:
            return chosen
        for depth in range(1, DEPTH + 1):
            scores = [_mixed(_chances(s, me | 1 << c, opp, bar, depth)) for c in keep]
            chosen = keep[scores.index(max(scores))]
    except SearchTimeout:
        pass
    return chosen


def _mixed(chances: tuple[float, float]) -> float:
    """The chance that the mixture of the two modelled opponents goes wrong."""
    return (1 - BLOCKER_SHARE) * chances[0] + BLOCKER_SHARE * chances[1]


def _chances(s: Solver, me: int, opp: int, bar: int, depth: int) -> tuple[float, float]:
    """The chances that each modelled opponent (holding `opp`, to move; the one who may miss a
    block, then the one who always blocks) lets the side holding `me` reach a value of at least
    `bar` within `depth` more of that side's moves, along our moves best against the mixture."""
    r = s.r
    empty = r.full & ~(me | opp)
    if not empty:
        return 0.0, 0.0
    replies = _cells(empty)
    lost = set()
    for reply in replies:
        theirs = opp | 1 << reply
        if any(line & theirs == line for line in r.cell_lines[reply]):
            continue
        if (me | theirs) == r.full:
            if bar <= 0:
                lost.add(reply)
        elif s.search(me, theirs, bar - 1, bar) >= bar:
            lost.add(reply)
    threats = [c for c in replies if any(line & (me | 1 << c) == line for line in r.cell_lines[c])]
    natural = threats[0] if threats else ranked_moves(s, opp, me)[0]
    blocker = 0.0 if threats else BLOCKER_QUIRK  # facing a threat, the second one blocks
    share = len(lost) / len(replies)
    chances = (QUIRK * share, blocker * share)
    if natural in lost:
        return chances[0] + 1 - QUIRK, chances[1] + 1 - blocker
    theirs = opp | 1 << natural
    if depth <= 1 or (me | theirs) == r.full:
        return chances
    if any(line & theirs == line for line in r.cell_lines[natural]):
        return chances  # the natural move won for them: best play was a loss for us anyway
    ahead = (0.0, 0.0)
    for cell in ranked_moves(s, me, theirs):
        # Our moves that keep at least the result best play allows (bar - 1: a draw or a win).
        if _move_value(s, me, theirs, cell, bar - 2, bar - 1) >= bar - 1:
            found = _chances(s, me | 1 << cell, theirs, bar, depth - 1)
            if _mixed(found) > _mixed(ahead):
                ahead = found
    return chances[0] + (1 - QUIRK) * ahead[0], chances[1] + (1 - blocker) * ahead[1]


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
