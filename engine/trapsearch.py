"""The unbeatable move on a big board: exact value first, then the likeliest trap.

The move keeps the position's exact value (the solver's, or the book's). Where that is a forced
win, the fastest is played as it is. Otherwise every value-keeping move is weighed by the chance
that a fallible opponent goes wrong after it, looking a few moves ahead along the opponent's
natural line, within TRAP_BUDGET and never past the move's deadline; a deeper look replaces a
shallower one only once it is complete, and is begun only if it can finish within WORK_NODES of
the solver's nodes. What a weighing finds is exact whatever the solver's table holds, so it is
kept (a table that outlives the move) for the moves and games after. Early in a game the engine
does not weigh at all: it plays the trap book (engine.book.trap_moves), written from
`trap_choices`, the complete weighing.

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

from engine.api import _move_value, _relative, exact_value, ranked_moves, solving
from engine.board import Board
from engine.search import NO_LIMIT, SearchTimeout, Solver
from engine.traps import trap_key, trap_order

TYPE_CHECKING = False
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
# The most work a move's weighing does, in the solver's nodes (a few microseconds each), within
# TRAP_BUDGET: a deeper weighing that would pass it is not begun, and one that does is cut.
WORK_NODES = 3000
# What the weighings found, by position (facts, chances by depth, our moves that keep the value):
# exact whatever the solver's table holds, so kept from move to move and game to game; emptied
# once it holds MEMO_LIMIT entries (about 300 bytes each).
MEMO_LIMIT = 100_000
_MEMO: dict[tuple[int, ...], object] = {}


def trap_move(board: Board, *, rng: random.Random | None = None, deadline: float | None) -> int:
    """An optimal move of a running big `board` that sets the likeliest trap (ties: `rng`).

    Raises SearchTimeout if `deadline` passes before any optimal move is found.
    """
    s, me, opp = solving(board)
    with s.bounded(deadline):
        best = exact_value(s, board)
        moves = trap_order(s.r, me, opp, ranked_moves(s, me, opp), rng)
        keep = [next(c for c in moves if _move_value(s, me, opp, c, best - 1, best) >= best)]
        if best > 0:
            return keep[0]
        with s.bounded(time.monotonic() + TRAP_BUDGET):
            s.node_limit = s.nodes + WORK_NODES
            try:
                return _weighed(s, me, opp, best, moves, keep)
            finally:
                s.node_limit = NO_LIMIT


def trap_choices(board: Board) -> tuple[int, list[int]]:
    """The exact value of a running big `board` (engine.evaluate's scale) and the moves that
    `trap_move` without a budget plays there: the complete weighing at DEPTH (a forced win:
    the first value-keeping move in trap order) and the moves equal to it in weight and in trap
    order, among which `rng` would choose. Slow (up to seconds): for building shipped data."""
    s, me, opp = solving(board)
    best = exact_value(s, board)
    moves = trap_order(s.r, me, opp, ranked_moves(s, me, opp))
    keep = [c for c in moves if _move_value(s, me, opp, c, best - 1, best) >= best]
    if best > 0 or len(keep) == 1:
        scores = [0.0] * len(keep)
    else:
        bar = 1 if best == 0 else 0
        scores = [_mixed(_chances(s, me | 1 << c, opp, bar, DEPTH)) for c in keep]
    first = keep[scores.index(max(scores))]
    key = trap_key(s.r, me, opp, first)
    tied = [
        c
        for c, w in zip(keep, scores, strict=True)
        if w == max(scores) and trap_key(s.r, me, opp, c) == key
    ]
    return _relative(best, board.ply), tied


def _weighed(s: Solver, me: int, opp: int, best: int, moves: list[int], keep: list[int]) -> int:
    """The move of `moves` the deepest complete weighing prefers (the first of `keep` if none).

    Of equally weighed moves, the first in trap order (`rng` has shuffled its ties): choosing at
    random among them all varied the games more but won much less often against a random player
    (README, Levels). A deeper weighing is begun only if it can finish within the node limit.
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
            start = s.nodes
            scores = [_mixed(_chances(s, me | 1 << c, opp, bar, depth)) for c in keep]
            chosen = keep[scores.index(max(scores))]
            # A deeper weighing costs about this one's work for each of our moves.
            if s.nodes + (s.nodes - start) * len(keep) > s.node_limit:
                break
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
    key = (s.r.size, s.r.k, me, opp, bar, depth)
    found = _MEMO.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    share, threatened, natural, status = _facts(s, me, opp, bar)
    blocker = 0.0 if threatened else BLOCKER_QUIRK  # facing a threat, the second one blocks
    chances = (QUIRK * share, blocker * share)
    if status == _LOST:
        chances = (chances[0] + 1 - QUIRK, chances[1] + 1 - blocker)
    elif depth > 1 and status == _GOES_ON:
        theirs = opp | 1 << natural
        ahead = (0.0, 0.0)
        for cell in _ours(s, me, theirs, bar):
            deeper = _chances(s, me | 1 << cell, theirs, bar, depth - 1)
            if _mixed(deeper) > _mixed(ahead):
                ahead = deeper
        chances = (chances[0] + (1 - QUIRK) * ahead[0], chances[1] + (1 - blocker) * ahead[1])
    _remember(key, chances)
    return chances


# What the natural reply leads to: the line goes on, the reply itself goes wrong, or it ends
# the line (the board is full, or it won for them: best play was a loss for us anyway).
_GOES_ON, _LOST, _ENDS = 0, 1, 2


def _facts(s: Solver, me: int, opp: int, bar: int) -> tuple[float, bool, int, int]:
    """For the opponent (holding `opp`) to move: the share of its replies that let us (holding
    `me`) reach `bar`, whether it faces a threat, its natural reply and what that leads to."""
    key = (s.r.size, s.r.k, me, opp, bar)
    found = _MEMO.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    r = s.r
    empty = r.full & ~(me | opp)
    if not empty:
        facts: tuple[float, bool, int, int] = (0.0, False, -1, _ENDS)
        _remember(key, facts)
        return facts
    # The cells that complete a line for them (their reply wins) and for us (a threat).
    theirs_win = ours_win = 0
    k1 = r.k - 1
    for line in r.lines:
        if not line & me:
            if (line & opp).bit_count() == k1:
                theirs_win |= line
        elif not line & opp and (line & me).bit_count() == k1:
            ours_win |= line
    theirs_win &= empty
    ours_win &= empty
    replies = _cells(empty)
    lost = 0  # the replies that let us reach `bar`, as bits
    for reply in replies:
        bit = 1 << reply
        if theirs_win & bit:
            continue
        theirs = opp | bit
        if (me | theirs) == r.full:
            if bar <= 0:
                lost |= bit
        elif s.search(me, theirs, bar - 1, bar) >= bar:
            lost |= bit
    # Facing a threat, the natural reply is the block (of the lowest threatened cell).
    natural = (ours_win & -ours_win).bit_length() - 1 if ours_win else ranked_moves(s, opp, me)[0]
    theirs = opp | 1 << natural
    if lost >> natural & 1:
        status = _LOST
    elif (me | theirs) == r.full or theirs_win >> natural & 1:
        status = _ENDS
    else:
        status = _GOES_ON
    facts = (lost.bit_count() / len(replies), bool(ours_win), natural, status)
    _remember(key, facts)
    return facts


def _ours(s: Solver, me: int, theirs: int, bar: int) -> tuple[int, ...]:
    """Our moves (holding `me`, to move) that keep at least the result best play allows (bar -
    1: a draw or a win), in the solver's order."""
    key = (s.r.size, s.r.k, me, theirs, bar, -1)
    found = _MEMO.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    moves = tuple(
        cell
        for cell in ranked_moves(s, me, theirs)
        if _move_value(s, me, theirs, cell, bar - 2, bar - 1) >= bar - 1
    )
    _remember(key, moves)
    return moves


def _remember(key: tuple[int, ...], value: object) -> None:
    """Keep what a weighing found, for the deeper weighings of the move and for later moves and
    games (a table that outlives the move, emptied once it holds MEMO_LIMIT entries)."""
    if len(_MEMO) >= MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = value


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
