"""Which value-keeping move sets the best trap: the unbeatable level's choice among equals.

Every move `unbeatable` may play keeps the position's exact value. Among those it prefers the
one that wins most often against a fallible opponent.

On 3x3 the preference is exact and computed once into the solved table (`weigh_3x3`, a weight
per optimal move, engine.small): an expectimax over the value-keeping moves against the uniform
player and against the gentler levels (`policy`), combined as described at MODEL. On bigger
boards no exact expectimax fits a move's budget: engine.trapsearch weighs the moves within a
time budget, trying them in the order of `trap_order`, which puts first a cell that makes a
threat (a line one mark short), then the cell that builds and blocks the most lines.
"""

from __future__ import annotations

from fractions import Fraction

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random

    from engine.rules import Rules

# The 3x3 preference. Against the uniform player the best value-keeping strategy is exact
# (expectimax); it is not the best against the gentler levels, which always block and often play
# perfectly. Where a move within SLACK of the uniform best (on the score scale: a win 1, a draw
# 1/2) does better against MODEL (the mean of those levels' moves), that move is played, mixed
# with the uniform best at UNIFORM_SHARE: the compromise that keeps the uniform player's losses
# within half a point of the limit and beats the gentler levels more often (README, Levels).
MODEL = ("medium", "hard")
SLACK = Fraction(1, 40)
UNIFORM_SHARE = Fraction(1, 4)

Key = tuple[int, int]  # (x, o)
Pair = tuple[Fraction, Fraction]  # expected score against the uniform player and against MODEL
Policy = dict[int, Fraction]  # cell -> chance
HALF = Fraction(1, 2)


def policy(
    entry: tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    empty: tuple[int, ...],
    mistake: float,
    block: float,
) -> Policy:
    """The chance of each move of a level that plays as engine.play's gentler levels do."""
    _, wins, blocks, optimal, _ = entry
    out: Policy = {}

    def add(cells: tuple[int, ...], chance: Fraction) -> None:
        for cell in cells:
            out[cell] = out.get(cell, Fraction(0)) + chance / len(cells)

    if wins:
        add(wins, Fraction(1))
        return out
    rest = Fraction(1)
    if blocks:
        blocked = Fraction(block).limit_denominator(100)
        add(blocks, blocked)
        rest -= blocked
    random_share = Fraction(mistake).limit_denominator(100)
    add(empty, rest * random_share)
    add(optimal, rest * (1 - random_share))
    return out


def weigh_3x3(
    table: dict[
        Key, tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    ],
    lines: tuple[int, ...],
    mistakes: dict[str, tuple[float, float]],
) -> dict[Key, tuple[int, ...]]:
    """A weight for each optimal move of every position of the solved 3x3 `table`: the chance
    (up to a factor) that `unbeatable` plays it; 0 for the moves it does not."""
    full = 511
    weights: dict[Key, tuple[int, ...]] = {}
    mine: dict[Key, Pair] = {}
    theirs: dict[Key, Pair] = {}

    def won(mask: int) -> bool:
        return any(line & mask == line for line in lines)

    def after(key: Key, cell: int) -> tuple[Key, int, int]:
        x, o = key
        if x.bit_count() == o.bit_count():
            return (x | 1 << cell, o), x | 1 << cell, o
        return (x, o | 1 << cell), o | 1 << cell, x

    def ours(key: Key) -> Pair:
        found = mine.get(key)
        if found is not None:
            return found
        optimal = table[key][3]
        values: dict[int, Pair] = {}
        for cell in optimal:
            child, me, opp = after(key, cell)
            if won(me):
                values[cell] = (Fraction(1), Fraction(1))
            elif me | opp == full:
                values[cell] = (HALF, HALF)
            else:
                values[cell] = reply(child)
        top = max(v[0] for v in values.values())
        best = [c for c in optimal if values[c][0] == top]
        near = [c for c in optimal if values[c][0] >= top - SLACK]
        lead = max((values[c][1], values[c][0]) for c in near)
        model = [c for c in near if (values[c][1], values[c][0]) == lead]
        if set(model) <= set(best):
            weights[key] = tuple(int(c in model) for c in optimal)
            found = values[model[0]]
        else:
            share = UNIFORM_SHARE
            w_best, w_model = (
                len(model) * share.numerator,
                len(best) * (share.denominator - share.numerator),
            )
            weights[key] = tuple(
                w_best if c in best else w_model if c in model else 0 for c in optimal
            )
            found = (
                share * values[best[0]][0] + (1 - share) * values[model[0]][0],
                share * values[best[0]][1] + (1 - share) * values[model[0]][1],
            )
        mine[key] = found
        return found

    def reply(key: Key) -> Pair:
        found = theirs.get(key)
        if found is not None:
            return found
        x, o = key
        empty = tuple(c for c in range(9) if not (x | o) >> c & 1)
        uniform = {c: Fraction(1, len(empty)) for c in empty}
        model: Policy = {}
        for level in MODEL:
            for cell, chance in policy(table[key], empty, *mistakes[level]).items():
                model[cell] = model.get(cell, Fraction(0)) + chance / len(MODEL)
        u = m = Fraction(0)
        for cell in empty:
            child, me, opp = after(key, cell)
            if won(me):
                continue
            value = (HALF, HALF) if me | opp == full else ours(child)
            u += uniform[cell] * value[0]
            m += model.get(cell, Fraction(0)) * value[1]
        theirs[key] = (u, m)
        return theirs[key]

    for key in table:
        ours(key)
    return weights


def trap_order(
    r: Rules, me: int, opp: int, cells: list[int], rng: random.Random | None = None
) -> list[int]:
    """`cells` with the likeliest trap first: lines built and blocked, threats made counted high.

    Equal cells keep their given order, or are shuffled with `rng` so a game varies.
    """
    scored = [
        (*trap_key(r, me, opp, cell), rng.random() if rng is not None else 0.0, cell)
        for cell in cells
    ]
    scored.sort(key=lambda t: (-t[0], -t[1], -t[2]))
    return [cell for *_, cell in scored]


def trap_key(r: Rules, me: int, opp: int, cell: int) -> tuple[int, int]:
    """How `trap_order` ranks `cell` (higher first): the threats it makes, then the lines it
    builds and blocks."""
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
    return threats, score
