"""Cell names: the one way the bot, the review, the hints and the terminal game name a cell.

Cells are numbered row-major from the top-left (cell = row * size + column). A cell's name is
its column letter then its row number: the top-left cell is A1, the one to its right B1, the
one below it A2; on 5x5 the bottom-right cell is E5.
"""

from __future__ import annotations

from engine.rules import SIZES

COLUMNS = "ABCDE"  # one letter per column of the largest board
assert len(COLUMNS) == max(SIZES)


def column_label(column: int) -> str:
    """The letter of a column (0 -> "A")."""
    return COLUMNS[column]


def row_label(row: int) -> str:
    """The number of a row (0 -> "1")."""
    return str(row + 1)


def cell_name(cell: int, size: int) -> str:
    """The name of a cell, column letter then row number (0 -> "A1", 4 on 3x3 -> "B2")."""
    if not 0 <= cell < size * size or size > len(COLUMNS):
        raise ValueError(f"cell {cell} is not on a {size}x{size} board")
    row, column = divmod(cell, size)
    return column_label(column) + row_label(row)


def parse_cell(name: str, size: int) -> int:
    """The cell a name such as "b2" or "B2" stands for; ValueError if it is not on the board."""
    text = name.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS[:size] or not text[1:].isdigit():
        raise ValueError(f"{name!r} is not a cell name like A1 on a {size}x{size} board")
    row = int(text[1:]) - 1
    if not 0 <= row < size:
        raise ValueError(f"{name!r} is not a cell name like A1 on a {size}x{size} board")
    return row * size + COLUMNS.index(text[0])
