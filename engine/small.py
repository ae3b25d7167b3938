"""The whole 3x3 game solved into one table, built on first use (a few milliseconds)."""

from __future__ import annotations

from engine.rules import rules

# (x, o) of every running reachable position -> (exact value, wins in one, blocks, optimal moves,
# a weight per optimal move).
Entry = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_TABLE: dict[tuple[int, int], Entry] = {}


def table() -> dict[tuple[int, int], Entry]:
    """The solved 3x3 table (value on engine.evaluate's scale), built once per process."""
    if not _TABLE:
        _build()
    return _TABLE


def _build() -> None:
    r = rules(3, 3)
    lines = r.lines
    full = r.full

    # wins_at[m]: cells completing a line for a side holding m (precomputed per mask on demand).
    wins_at: dict[int, int] = {}

    def completing(mask: int) -> int:
        found = wins_at.get(mask)
        if found is None:
            found = 0
            for line in lines:
                rest = line & ~mask
                if rest and not rest & (rest - 1):
                    found |= rest
            wins_at[mask] = found
        return found

    def solve(me: int, opp: int, x_moves: bool) -> int:
        key = (me, opp) if x_moves else (opp, me)
        entry = _TABLE.get(key)
        if entry is not None:
            return entry[0]
        empty = full & ~(me | opp)
        mine = completing(me) & empty
        theirs = completing(opp) & empty
        best = -1000
        optimal: list[int] = []
        for cell in _cells(empty):
            after = me | 1 << cell
            if mine >> cell & 1:
                value = 99
            elif after | opp == full:
                value = 0
            else:
                child = solve(opp, after, not x_moves)
                value = -child + (child > 0) - (child < 0)
            if value > best:
                best, optimal = value, [cell]
            elif value == best:
                optimal.append(cell)
        # Among equally good moves, favour those that leave the opponent more ways to go wrong:
        # still a random choice with rng (weighted by 1 + the opponent's losing replies).
        weights = []
        for cell in optimal:
            after = me | 1 << cell
            reply = _TABLE.get((opp, after) if x_moves else (after, opp))
            replies = len(_cells(full & ~(after | opp)))
            weights.append(1 + (replies - len(reply[3]) if reply is not None else 0))
        _TABLE[key] = (best, _cells(mine), _cells(theirs), tuple(optimal), tuple(weights))
        return best

    solve(0, 0, True)


_CELLS = tuple(tuple(c for c in range(9) if mask >> c & 1) for mask in range(512))
_cells = _CELLS.__getitem__
