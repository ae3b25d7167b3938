"""A picture of a board: the grid, the marks, column letters and row numbers, the last move, the
winning line, small boards set apart, won small boards filled, the board to play highlighted.

It draws a game's ``Sketch`` (``bot.games.kinds``: the kind says what its board shows), so every
kind and size is drawn by the same code. Colours: light cells on a dark frame, which reads on
Discord's dark and light themes alike; the winning line green (as its buttons), the last move
outlined in amber, the empty cells of the board to play yellow (as the emoji grid's 🟨).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.games.kinds import Sketch
from bot.pictures.marks import glyph

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


def draw(sketch: Sketch, x: str, o: str, *, side: int = SIDE) -> Image.Image:
    """The picture of a sketch with X's mark `x` and O's `o` (both drawable: see
    ``marks.resolve``), `side` pixels square."""
    size, block = sketch.size, sketch.block
    grid = layout(size, block, side)
    image = Image.new("RGB", (side, side), FRAME)
    pen = ImageDraw.Draw(image)
    shown = {"X": x, "O": o}
    line = set(sketch.line)
    radius = max(2, grid.cell // 8)
    covered: set[int] = set()
    for board, winner in enumerate(sketch.won):
        if winner is None:
            continue
        cells = block_cells(board, size, block)
        covered.update(cells)
        left, top = grid.box(cells[0], size)[:2]
        right, bottom = grid.box(cells[-1], size)[2:]
        fill = WIN if set(cells) <= line else WON_BOARD
        pen.rounded_rectangle((left, top, right, bottom), radius, fill=fill)
        px = round((right - left) * BIG_MARK)
        _paste(image, glyph(shown[winner], px), ((left + right) // 2, (top + bottom) // 2))
    target = set(block_cells(sketch.target, size, block)) if sketch.target is not None else set()
    for cell, mark in enumerate(sketch.marks):
        if cell in covered:
            continue
        fill = WIN if cell in line else PLAYABLE if cell in target and mark is None else EMPTY
        pen.rounded_rectangle(grid.box(cell, size), radius, fill=fill)
        if mark is not None:
            _paste(image, glyph(shown[mark], round(grid.cell * MARK)), grid.centre(cell, size))
    if sketch.last is not None:
        width = max(3, grid.cell // 14)
        pen.rounded_rectangle(grid.box(sketch.last, size), radius, outline=LAST, width=width)
    _labels(pen, sketch, grid)
    return image


def block_cells(board: int, size: int, block: int) -> list[int]:
    """The cells of small board `board`, in reading order."""
    per_row = size // block
    top, left = divmod(board, per_row)
    return [(top * block + r) * size + left * block + c for r in range(block)
            for c in range(block)]  # fmt: skip


def _paste(image: Image.Image, mark: Image.Image, centre: tuple[int, int]) -> None:
    image.paste(mark, (centre[0] - mark.width // 2, centre[1] - mark.height // 2), mark)


@functools.lru_cache(maxsize=8)
def _label_font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(px)


def _labels(pen: ImageDraw.ImageDraw, sketch: Sketch, grid: Layout) -> None:
    """Column letters above the grid, row numbers left of it."""
    label_font = _label_font(round(grid.labels * 0.62))
    middle = grid.labels // 2
    for index, (column, row) in enumerate(zip(sketch.columns, sketch.rows, strict=True)):
        along = grid.starts[index] + grid.cell // 2
        pen.text((along, middle), column, fill=LABEL, font=label_font, anchor="mm")
        pen.text((middle, along), row, fill=LABEL, font=label_font, anchor="mm")
