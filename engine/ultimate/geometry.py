"""The geometry of ultimate tic-tac-toe: nine small 3x3 boards in a 3x3 grid.

Two numberings of the 81 cells:

- global, the public one: reading order of the 9x9 grid, row r and column c is ``9 * r + c``;
- board-major, the engine's own: small board ``b`` (0-8, reading order of the grid of boards)
  and cell ``c`` inside it (0-8, reading order), ``9 * b + c``.

`TO_GLOBAL` and `TO_LOCAL` convert between them. A small board's marks are a 9-bit mask, and
`WON[mask]` says whether they hold three in a row; the same table serves the grid of boards.
"""

from __future__ import annotations

# The eight lines of a 3x3 board, as 9-bit masks.
LINES: tuple[int, ...] = tuple(
    sum(1 << i for i in cells)
    for cells in (
        (0, 1, 2),
        (3, 4, 5),
        (6, 7, 8),
        (0, 3, 6),
        (1, 4, 7),
        (2, 5, 8),
        (0, 4, 8),
        (2, 4, 6),
    )
)
LINE_CELLS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(i for i in range(9) if line >> i & 1)  # type: ignore[misc]
    for line in LINES
)
FULL = 0x1FF  # all nine cells of a small board

# WON[mask]: three in a row among the cells of the 9-bit mask.
WON: tuple[bool, ...] = tuple(any(m & line == line for line in LINES) for m in range(512))

# WINNING_CELLS[mask]: the empty cells (a mask) that would complete a line for `mask` alone,
# before the opponent's marks are taken into account.
WINNING_CELLS: tuple[int, ...] = tuple(
    sum(1 << i for i in range(9) if not m >> i & 1 and WON[m | 1 << i]) for m in range(512)
)


def _local(cell: int) -> int:
    row, column = divmod(cell, 9)
    return 9 * (3 * (row // 3) + column // 3) + 3 * (row % 3) + column % 3


TO_LOCAL: tuple[int, ...] = tuple(_local(cell) for cell in range(81))
TO_GLOBAL: tuple[int, ...] = tuple(sorted(range(81), key=TO_LOCAL.__getitem__))

COLUMNS = "ABCDEFGHI"


def cell_name(cell: int) -> str:
    """A global cell's name, column letter then row number: 0 is A1, 80 is I9."""
    if not isinstance(cell, int) or not 0 <= cell < 81:
        raise ValueError(f"cell {cell!r} is not on the 9x9 board (0 to 80)")
    row, column = divmod(cell, 9)
    return f"{COLUMNS[column]}{row + 1}"


def parse_cell(name: str) -> int:
    """The global cell a name such as "e5" or "E5" stands for; ValueError if not on the board."""
    text = name.strip().upper()
    if len(text) == 2 and text[0] in COLUMNS and text[1] in "123456789":
        return 9 * (int(text[1]) - 1) + COLUMNS.index(text[0])
    raise ValueError(f"{name!r} is not a cell name from A1 to I9")


BOARD_NAMES = (
    "top left",
    "top",
    "top right",
    "left",
    "centre",
    "right",
    "bottom left",
    "bottom",
    "bottom right",
)


def board_cells(board: int) -> tuple[int, ...]:
    """The nine global cells of small board `board`, in its reading order."""
    return tuple(TO_GLOBAL[9 * board + c] for c in range(9))
