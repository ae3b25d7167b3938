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

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from fractions import Fraction

    from engine.traps import Expect

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
    _weigh(out, lines, full)
    return out


def _weigh(out: dict[tuple[int, int], Entry], lines: tuple[int, ...], full: int) -> None:
    """Weight 1 for each optimal move that sets the best trap (engine.traps), 0 for the others."""
    # Imported here: reading the shipped table needs neither.
    from fractions import Fraction

    from engine import traps

    def moves(key: Key) -> tuple[int, ...]:
        return out[key][3]

    def won(mask: int) -> bool:
        return any(line & mask == line for line in lines)

    def replies(key: Key, cell: int) -> tuple[list[Key], list[Expect]]:
        x, o = key
        x_moves = x.bit_count() == o.bit_count()
        me, opp = (x, o) if x_moves else (o, x)
        after = me | 1 << cell
        left = 9 - (after | opp).bit_count()
        if won(after):
            return [], [(Fraction(1), Fraction(left))]
        if not left:
            return [], [traps.DRAW]
        going: list[Key] = []
        ended: list[Expect] = []
        for reply in _cells(full & ~(after | opp)):
            theirs = opp | 1 << reply
            if won(theirs):
                ended.append(traps.LOSS)
            elif left == 1:
                ended.append(traps.DRAW)
            else:
                going.append((after, theirs) if x_moves else (theirs, after))
        return going, ended

    memo: dict[Key, tuple[Expect, tuple[int, ...]]] = {}
    for key, (value, wins, blocks, optimal, _) in out.items():
        chosen = traps.expectimax(key, moves, replies, memo)[1]
        weights = tuple(int(cell in chosen) for cell in optimal)
        out[key] = (value, wins, blocks, optimal, weights)


def uniform_wins(choose: str) -> tuple[Fraction, Fraction]:
    """The exact share of games won against a player who picks uniformly among the legal moves,
    as X and as O, by a player who keeps the exact value and, among such moves, plays the best
    for it ("best": the most any never-losing strategy wins) or uniformly among the moves
    `unbeatable` may play ("engine")."""
    from fractions import Fraction
    from functools import cache

    from engine.board import Board

    tab = table()

    @cache
    def win(x: int, o: int) -> Fraction:
        _, wins, _, optimal, weights = tab[x, o]
        if wins:
            return Fraction(1)
        board = Board(3, 3, x, o)
        if choose == "best":
            return max(uniform(board.play(c)) for c in optimal)
        chosen = [c for c, w in zip(optimal, weights, strict=True) if w]
        return sum((uniform(board.play(c)) for c in chosen), Fraction(0)) / len(chosen)

    def uniform(board: Board) -> Fraction:
        if board.outcome() is not None:
            return Fraction(0)
        moves = board.legal_moves()
        after = [board.play(c) for c in moves]
        return sum((win(a.x, a.o) for a in after if a.outcome() is None), Fraction(0)) / len(moves)

    return win(0, 0), uniform(Board.empty(3))


_CELLS = tuple(tuple(c for c in range(9) if mask >> c & 1) for mask in range(512))
_cells = _CELLS.__getitem__
