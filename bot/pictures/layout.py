"""Where a board picture's pieces go and their colours: the grid of cells (small boards set apart
by wider gaps), the band of labels, and the colours every piece is drawn in.

Colours: light cells on a dark frame, which reads on Discord's dark and light themes alike; the
winning line green (as its buttons), the last move outlined in amber, the empty cells of the board
to play yellow (as the emoji grid's 🟨).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

SIDE = 768  # pixels a side of a board picture (see bot.pictures)
FRAME = (30, 31, 34)
EMPTY = (235, 237, 240)
LABEL = (181, 186, 193)
LAST = (250, 166, 26)
WIN = (124, 212, 148)
PLAYABLE = (255, 226, 122)
WON_BOARD = (196, 200, 207)  # a small board won, not in the winning line
MARK = 0.74  # a mark's share of its cell's side
BIG_MARK = 0.8  # a won small board's mark, of the board's side


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each column (and row: the grid is square) starts, and the cells' side, in pixels."""

    starts: tuple[int, ...]
    cell: int
    labels: int  # the band of column letters (top) and row numbers (left)

    def box(self, cell: int, size: int) -> tuple[int, int, int, int]:
        """A cell's rectangle (left, top, right, bottom; right and bottom inclusive)."""
        row, column = divmod(cell, size)
        x, y = self.starts[column], self.starts[row]
        return x, y, x + self.cell - 1, y + self.cell - 1

    def centre(self, cell: int, size: int) -> tuple[int, int]:
        """A cell's centre."""
        left, top, right, bottom = self.box(cell, size)
        return (left + right) // 2, (top + bottom) // 2


@functools.lru_cache(maxsize=32)
def layout(size: int, block: int, side: int = SIDE) -> Layout:
    """The grid of a board of `size` cells a side in small boards of `block`, in `side` pixels."""
    unit = side / SIDE
    labels, pad = round(52 * unit), round(12 * unit)
    small = max(2, round(24 / size * unit))
    large = round(14 * unit) if block < size else small
    gaps = [large if i % block == 0 else small for i in range(1, size)]
    room = side - labels - pad
    cell = (room - sum(gaps)) // size
    start = labels + (room - sum(gaps) - cell * size) // 2
    starts = [start]
    for gap in gaps:
        starts.append(starts[-1] + cell + gap)
    return Layout(tuple(starts), cell, labels)


def block_cells(board: int, size: int, block: int) -> list[int]:
    """The cells of small board `board`, in reading order."""
    per_row = size // block
    top, left = divmod(board, per_row)
    return [(top * block + r) * size + left * block + c for r in range(block) for c in range(block)]
