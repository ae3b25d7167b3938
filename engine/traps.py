"""Which value-keeping move sets the best trap: the unbeatable level's choice among equals.

Every move `unbeatable` may play keeps the position's exact value. Among those it prefers the
one that wins most often against a fallible opponent, modelled as a player who picks uniformly
among the legal moves (the weakest, and the model whose best answer is known exactly), and,
among equal chances, the one that wins sooner on average.

On 3x3 the preference is exact: an expectimax over the solved table (`expectimax`), stored in the
table as a weight per optimal move (engine.small). On bigger boards no exact expectimax fits a
move's budget; there the engine tries the value-keeping moves in the order of `trap_order`, which
puts first the cell that builds and blocks the most lines, with a threat (a line one mark short)
counted as a trap the opponent must see.
"""

from __future__ import annotations

from fractions import Fraction

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from engine.rules import Rules

# The expected result of a line of play for the side to choose: (score, sooner), compared as a
# tuple. Score counts a win 1, a draw 1/2, a loss 0; sooner is the expected number of empty cells
# left when that side wins (0 unless it wins), so a quicker win ranks higher among equal scores.
Expect = tuple[Fraction, Fraction]

DRAW: Expect = (Fraction(1, 2), Fraction(0))
LOSS: Expect = (Fraction(0), Fraction(0))


def expectimax(
    key: tuple[int, int],
    moves: Callable[[tuple[int, int]], tuple[int, ...]],
    replies: Callable[[tuple[int, int], int], tuple[list[tuple[int, int]], list[Expect]]],
    memo: dict[tuple[int, int], tuple[Expect, tuple[int, ...]]],
) -> tuple[Expect, tuple[int, ...]]:
    """The best expectation at `key` for the side to move over the cells `moves(key)` allows, and
    the cells that reach it.

    `replies(key, cell)` splits the uniformly likely outcomes of `cell` (each reply of the
    opponent, or the game's end right after `cell`) in two: the positions where the side is to
    move again, and the results of those that end the game.
    """
    found = memo.get(key)
    if found is not None:
        return found
    best: Expect | None = None
    chosen: list[int] = []
    for cell in moves(key):
        going, ended = replies(key, cell)
        results = ended + [expectimax(after, moves, replies, memo)[0] for after in going]
        count = len(results)
        value = (
            sum((r[0] for r in results), Fraction(0)) / count,
            sum((r[1] for r in results), Fraction(0)) / count,
        )
        if best is None or value > best:
            best, chosen = value, [cell]
        elif value == best:
            chosen.append(cell)
    assert best is not None, "a running position has a move"
    memo[key] = best, tuple(chosen)
    return memo[key]


def trap_order(
    r: Rules, me: int, opp: int, cells: list[int], rng: random.Random | None = None
) -> list[int]:
    """`cells` with the likeliest trap first: lines built and blocked, threats made counted high.

    Equal cells keep their given order, or are shuffled with `rng` so a game varies.
    """
    scored = []
    for cell in cells:
        score = 0
        threats = 0
        for line in r.cell_lines[cell]:
            if not line & opp:
                mine = (line & me).bit_count()
                score += 1 << 2 * mine
                threats += mine == r.k - 2
            if not line & me:
                score += 1 << 2 * (line & opp).bit_count()
        # A threat the opponent must answer is a chance for a player who does not see it to lose.
        scored.append((threats, score, rng.random() if rng is not None else 0.0, cell))
    scored.sort(key=lambda t: (-t[0], -t[1], -t[2]))
    return [cell for *_, cell in scored]
