"""The shortest wins decided from the lines alone, without a search.

A win within two moves of the side to move is a fact of the lines: the move completes a line
(a win in one), or it leaves the opponent no line to complete and the mover two cells that
each complete one (the opponent blocks one, the mover completes the other: a win in two). The
puzzles' searches ask mostly such questions (a missed win in two, a wrong move that hands the
defender a line or a fork), and the solver answers each with a search over every reply; here
each is a pass over the lines. Everything here is exact: where the lines do not decide, the
answer is None and the caller searches.
"""

from __future__ import annotations

from functools import lru_cache

from engine.rules import Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


@lru_cache(maxsize=4096)
def completing(r: Rules, me: int, opp: int) -> int:
    """The empty cells (as bits) that complete a line of the side whose marks are `me` (kept
    for the positions asked about last: a puzzle's searches ask each position many times)."""
    k1 = r.k - 1
    cells = 0
    for line in r.lines:
        if not line & opp and (line & me).bit_count() == k1:
            cells |= line & ~me
    return cells


def wins_now(r: Rules, me: int, cell: int) -> bool:
    """Whether playing the empty `cell` completes a line of `me`."""
    after = me | 1 << cell
    return any(line & after == line for line in r.cell_lines[cell])


def after_move(r: Rules, me: int, opp: int, cell: int) -> int:
    """The cells that complete a line of `me` once it plays the empty `cell` (not `cell`)."""
    k2 = r.k - 2
    found = completing(r, me, opp)
    for line in r.cell_lines[cell]:
        if not line & opp and (line & me).bit_count() == k2:
            found |= line & ~me  # the lines the move brings to one cell short
    return found & ~(1 << cell)


def forks(r: Rules, me: int, opp: int, cell: int) -> bool:
    """Whether playing the empty `cell` (completing no line) wins on the mover's next move
    whatever the reply: the opponent then has no line to complete and the mover two cells."""
    if completing(r, opp, me) & ~(1 << cell):
        return False  # the move leaves the opponent a line to complete
    found = after_move(r, me, opp, cell)
    return found & (found - 1) != 0


def wins_within(r: Rules, me: int, opp: int, cell: int, moves: int) -> bool | None:
    """Whether playing the empty `cell` wins with at most `moves` moves of the mover (this one
    included); None where that takes more than the lines show. Besides a win in one or two, a
    move that leaves the opponent one cell to stop (the only reply that does not lose at once)
    wins in three if the mover wins in two after that reply."""
    if wins_now(r, me, cell):
        return True
    if moves == 1 or completing(r, opp, me) & ~(1 << cell):
        return False  # no time left, or the opponent completes a line at once
    found = after_move(r, me, opp, cell)
    if found & (found - 1):
        return True  # a fork
    if moves == 2:
        return False
    if found:  # the reply is forced, and it completes none of the opponent's lines
        if fastest(r, me | 1 << cell, opp | found) <= 2:
            return True
        if moves == 3:
            return False
    return None


def fastest(r: Rules, me: int, opp: int) -> int:
    """1 or 2, the fewest moves in which the side to move wins, where the lines show it; 3 (at
    least three moves) when they show there is no faster win; the position must be running."""
    if completing(r, me, opp):
        return 1
    empty = r.full & ~(me | opp)
    threats = completing(r, opp, me)
    if threats & (threats - 1):
        return 3  # two of the opponent's lines to stop: no win in two
    cells = threats or empty  # one of the opponent's lines: the move must stop it
    while cells:
        bit = cells & -cells
        cells ^= bit
        if forks(r, me, opp, bit.bit_length() - 1):
            return 2
    return 3


def outlook(r: Rules, me: int, opp: int) -> int | None:
    """The sign of the value of a running position for the side to move (1 a forced win, 0 a
    draw, -1 a loss) where the lines show it: a line to complete, two of the opponent's to stop,
    a fork, or one line of the opponent's to stop, whatever follows that forced move (a full
    board, or again one of these); None where they do not."""
    sign = 1
    while True:
        if completing(r, me, opp):
            return sign
        threats = completing(r, opp, me)
        if threats & (threats - 1):
            return -sign
        if not threats:
            return sign if fastest(r, me, opp) == 2 else None
        if forks(r, me, opp, threats.bit_length() - 1):
            return sign
        me |= threats  # the one move that does not lose at once
        if me | opp == r.full:
            return 0
        me, opp, sign = opp, me, -sign


def refutation(
    r: Rules, me: int, opp: int, ranking: Callable[[], list[int]]
) -> tuple[int | None, int] | None:
    """The sign of the value of a running position for the side to move and its first optimal
    move (as engine.api's `classify` and `optimal_move` find them), where the lines show them: a
    line to complete (a win in one), two of the opponent's to stop (a loss whatever the move:
    the first move), one to stop (the only move that does not lose at once; its sign as
    `outlook` shows it, else None), or a fork (a win in two); None where they do not. `ranking`
    gives the moves in the solver's order (engine.api.ranked_moves); it is asked only where
    needed."""
    mine = completing(r, me, opp)
    if mine & (mine - 1):
        return 1, next(cell for cell in ranking() if mine >> cell & 1)
    if mine:
        return 1, mine.bit_length() - 1
    threats = completing(r, opp, me)
    if threats & (threats - 1):
        return -1, ranking()[0]
    if threats:
        return outlook(r, me, opp), threats.bit_length() - 1
    for cell in ranking():
        if forks(r, me, opp, cell):
            return 1, cell
    return None
