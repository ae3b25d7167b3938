"""The whole 3x3 game solved into one table, read on first use from engine/data/small3.bin.

The file (written by scripts/build_small_table.py) is the table as built by `build`, marshalled
and compressed; reading it is several times faster than solving the game again. If the file is
missing or unreadable by this Python (marshal's format belongs to the interpreter), the table is
built instead, which gives the same table in a few milliseconds more.
"""

from __future__ import annotations

import marshal
import os
import zlib

from engine.rules import rules

DATA = os.path.join(os.path.dirname(__file__), "data", "small3.bin")
_POSITIONS = 4520  # running reachable 3x3 positions

# (x, o) of every running reachable position -> (exact value, wins in one, blocks, optimal moves,
# a weight per optimal move).
Entry = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_TABLE: dict[tuple[int, int], Entry] = {}


def table() -> dict[tuple[int, int], Entry]:
    """The solved 3x3 table (value on engine.evaluate's scale), read or built once per process."""
    if not _TABLE:
        _TABLE.update(read(DATA) or build())
    return _TABLE


def read(path: str) -> dict[tuple[int, int], Entry] | None:
    """The table stored at `path`, or None if it is missing or not a table of the right size."""
    try:
        with open(path, "rb") as f:
            loaded = marshal.loads(zlib.decompress(f.read()))
    except (OSError, ValueError, EOFError, TypeError, zlib.error):
        return None
    if not isinstance(loaded, dict) or len(loaded) != _POSITIONS:
        return None
    return loaded


def dump(path: str) -> None:
    """Write the freshly built table to `path` (see scripts/build_small_table.py)."""
    with open(path, "wb") as f:
        f.write(zlib.compress(marshal.dumps(build()), 9))


def build() -> dict[tuple[int, int], Entry]:
    """Solve the whole game into a new table."""
    out: dict[tuple[int, int], Entry] = {}

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
        entry = out.get(key)
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
            reply = out.get((opp, after) if x_moves else (after, opp))
            replies = len(_cells(full & ~(after | opp)))
            weights.append(1 + (replies - len(reply[3]) if reply is not None else 0))
        out[key] = (best, _cells(mine), _cells(theirs), tuple(optimal), tuple(weights))
        return best

    solve(0, 0, True)
    return out


_CELLS = tuple(tuple(c for c in range(9) if mask >> c & 1) for mask in range(512))
_cells = _CELLS.__getitem__
