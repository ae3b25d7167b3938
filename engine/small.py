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

from engine.levels import MISTAKES
from engine.rules import rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

DATA = os.path.join(os.path.dirname(__file__), "data", "small3.bin")
_POSITIONS = 4520  # running reachable 3x3 positions

# (x, o) of every running reachable position -> (exact value, wins in one, blocks, optimal moves,
# a weight per optimal move).
Entry = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
Key = tuple[int, int]  # (x, o)
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
        out[key] = (best, _cells(mine), _cells(theirs), tuple(optimal), ())
        return best

    solve(0, 0, True)
    _weigh(out, lines)
    return out


def _weigh(out: dict[tuple[int, int], Entry], lines: tuple[int, ...]) -> None:
    """Fill in the weight of each optimal move: how `unbeatable` chooses (engine.traps)."""
    # Imported here: reading the shipped table does not need it.
    from engine.traps import weigh_3x3

    for key, weights in weigh_3x3(out, lines, MISTAKES).items():
        value, wins, blocks, optimal, _ = out[key]
        out[key] = (value, wins, blocks, optimal, weights)


def wins_against(opponent: str, *, best: bool = False) -> tuple[Fraction, Fraction]:
    """The exact share of games `unbeatable` wins as X and as O against `opponent`: "uniform"
    (a player who picks uniformly among the legal moves) or a gentler level, played as
    engine.play plays it. With `best`, instead the most any player who keeps the exact value can
    win against it (choosing, among such moves, the best one for that opponent)."""
    from fractions import Fraction
    from functools import cache

    from engine.board import Board
    from engine.traps import policy

    tab = table()

    @cache
    def win(x: int, o: int) -> Fraction:
        _, wins, _, optimal, weights = tab[x, o]
        if wins:
            return Fraction(1)
        board = Board(3, 3, x, o)
        if best:
            return max(reply(board.play(c)) for c in optimal)
        total = sum(weights)
        return (
            sum(
                (w * reply(board.play(c)) for c, w in zip(optimal, weights, strict=True) if w),
                Fraction(0),
            )
            / total
        )

    def reply(board: Board) -> Fraction:
        if board.outcome() is not None:
            return Fraction(0)  # a full board: a win in one was taken before this
        empty = board.legal_moves()
        if opponent == "uniform":
            chances = {c: Fraction(1, len(empty)) for c in empty}
        else:
            chances = policy(tab[board.x, board.o], empty, *MISTAKES[opponent])
        out = Fraction(0)
        for cell, chance in chances.items():
            after = board.play(cell)
            if after.outcome() is None:
                out += chance * win(after.x, after.o)
        return out

    return win(0, 0), reply(Board.empty(3))


_CELLS = tuple(tuple(c for c in range(9) if mask >> c & 1) for mask in range(512))
_cells = _CELLS.__getitem__
