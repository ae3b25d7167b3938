"""The evaluation of a running position: how likely each side is to take each small board, and
how those chances combine along the lines of the grid of boards.

A small board's chance for a side is the probability that it holds three in a row once the empty
cells are filled at random, each by that side with probability `Weights.fill` (exact, over every
filling; a won board is 1 and a closed one 0). A line of boards is worth the product of its three
chances. The score adds the lines of the side to move, minus the opponent's, plus a smaller share
for each board alone (the centre and corners weigh more) and a bonus for the side that may choose
its board. The weights were set by self-play (docs/engine.md, Ultimate tic-tac-toe: "Tuning").
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from engine.ultimate.geometry import FULL, WON


class Weights(NamedTuple):
    """The evaluation's parameters; `DEFAULT` is what the levels play with."""

    lines: float = 1000.0  # a whole line of boards held, in points
    boards: float = 60.0  # one board held, times its share in `placement`
    choice: float = 25.0  # the side to move may choose any open small board
    fill: float = 0.4  # the chance a free cell goes to the side being measured


DEFAULT = Weights()


@cache
def chances(fill: float = DEFAULT.fill) -> tuple[float, ...]:
    """CHANCE[mine | theirs << 9]: the chance the side with marks `mine` takes the small board.

    Indexed by both masks (2^18 entries; only the 3^9 legal pairs are meaningful).
    """
    memo: dict[tuple[int, int], float] = {}

    def chance(mine: int, free: int) -> float:
        if WON[mine]:
            return 1.0
        if not free:
            return 0.0
        key = (mine, free)
        found = memo.get(key)
        if found is None:
            low = free & -free
            rest = free ^ low
            found = fill * chance(mine | low, rest) + (1 - fill) * chance(mine, rest)
            memo[key] = found
        return found

    table = [0.0] * (1 << 18)
    for mine in range(512):
        for theirs in range(512):
            if mine & theirs or WON[theirs]:
                continue
            table[mine | theirs << 9] = chance(mine, FULL & ~(mine | theirs))
    return tuple(table)


def score(px: list[float], po: list[float], weights: Weights = DEFAULT) -> float:
    """The position's value for X, from each board's chance for X (`px`) and for O (`po`)."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8 = px
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = po
    lines = (
        a0 * a1 * a2
        + a3 * a4 * a5
        + a6 * a7 * a8
        + a0 * a3 * a6
        + a1 * a4 * a7
        + a2 * a5 * a8
        + a0 * a4 * a8
        + a2 * a4 * a6
        - b0 * b1 * b2
        - b3 * b4 * b5
        - b6 * b7 * b8
        - b0 * b3 * b6
        - b1 * b4 * b7
        - b2 * b5 * b8
        - b0 * b4 * b8
        - b2 * b4 * b6
    )
    boards = (
        3 * (a0 + a2 + a6 + a8 - b0 - b2 - b6 - b8)
        + 2 * (a1 + a3 + a5 + a7 - b1 - b3 - b5 - b7)
        + 4 * (a4 - b4)
    )
    return weights.lines * lines + weights.boards * boards
