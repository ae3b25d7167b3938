"""The pieces a board's picture is composed of, drawn once and kept: the frame (the dark ground
with the column letters and row numbers), a cell of each kind (empty, on the winning line, on
the board to play; holding ❌, ⭕ or nothing), a won small board of each kind (on the winning line
or not; won by ❌ or by ⭕) and the last move's outline; each in palette mode, in one palette.

The palette's first entries are fixed: the board's own colours, exactly, and the shades of the
labels' edges over the frame (``FIXED``). The frame and the cells without a mark use those alone,
so they are drawn once per size and picture side whatever the marks. The rest of the palette is
the marks' (``Marks.palette``: the colours of ❌ and ⭕, or of a server's own marks, over every
cell colour, reduced once per pair of marks), and so are the cells that hold a mark. A position
is composed by pasting pieces into a copy of the frame (the pieces' pixels are palette indices,
copied as they are): no colour is reduced for it, and its PNG is written as it is.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import marks as glyphs
from bot.pictures.layout import (
    BIG_MARK,
    EMPTY,
    FRAME,
    LABEL,
    LAST,
    MARK,
    PLAYABLE,
    WIN,
    WON_BOARD,
    Layout,
    layout,
)

Colour = tuple[int, int, int]
K = TypeVar("K")
V = TypeVar("V")
SHADES = 32  # shades of the labels' edges, from the frame's colour to the labels'
BOARD_COLOURS = (FRAME, EMPTY, LABEL, LAST, WIN, PLAYABLE, WON_BOARD)


def _shade(step: int) -> Colour:
    """A shade between the frame's colour and the labels', `step` of `SHADES` + 1 along."""
    r, g, b = (
        round(f + (lab - f) * step / (SHADES + 1)) for f, lab in zip(FRAME, LABEL, strict=True)
    )
    return r, g, b


FIXED: tuple[Colour, ...] = (*BOARD_COLOURS, *(_shade(step) for step in range(1, SHADES + 1)))
CELL_FILLS = (EMPTY, WIN, PLAYABLE)
BLOCK_FILLS = (WIN, WON_BOARD)
SAMPLE = 128  # pixels a side of the marks drawn for the palette's sample
# The last index: no piece's pixel (its colour is the frame's, found first at index 0), so a
# replay's frame marks with it the pixels it leaves as they were (GIF's transparent index).
CLEAR = 255
OUTLINE = bytes([FIXED.index(LAST)]) * 1024  # the outline's pixels, as many as a row may need


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece's pixels as palette indices, row by row: pasted by copying its rows into a
    picture's bytes (one copy a row, all under the interpreter's lock: a paste by Pillow lets
    the lock go and waits to take it back, each time, behind a busy event loop)."""

    width: int
    height: int
    data: bytes

    @classmethod
    def of(cls, image: Image.Image) -> Piece:
        return cls(image.width, image.height, image.tobytes())

    def into(
        self, canvas: bytearray, stride: int, left: int, top: int, first: int = 0, rows: int = -1
    ) -> None:
        """Copy the piece's rows from `first` (`rows` of them; -1: all) into `canvas`, rows of
        `stride` bytes, the first of them at (`left`, `top`)."""
        data, w = memoryview(self.data), self.width
        end = len(self.data) if rows < 0 else (first + rows) * w
        at = top * stride + left
        for start in range(first * w, end, w):
            canvas[at : at + w] = data[start : start + w]
            at += stride


@dataclass(frozen=True, slots=True)
class Frame:
    """What does not depend on the marks, for one size and picture side: the frame with its
    labels, each empty cell, and the last move's outline (its runs of pixels, row by row)."""

    grid: Layout
    image: Piece  # the whole picture's ground, `FIXED` colours only
    png_rows: bytes  # the same, each row after its PNG filter byte (0: none)
    empty: dict[Colour, Piece]  # a cell's fill -> the cell
    ring: tuple[tuple[int, int, int], ...]  # (row, first, end) of the outline's pixels in a cell

    def outline(
        self, canvas: bytearray, stride: int, left: int, top: int, rows: int | None = None
    ) -> None:
        """Draw the last move's outline into `canvas` (rows of `stride` bytes, `rows` of them:
        those outside are left out) over the cell whose top left corner is (`left`, `top`)."""
        for row, first, end in self.ring:
            if rows is None or 0 <= top + row < rows:
                at = (top + row) * stride + left
                canvas[at + first : at + end] = OUTLINE[: end - first]


@dataclass(frozen=True, slots=True)
class Marks:
    """What depends on the marks too: the palette, and the cells and won boards that hold one."""

    palette: list[int]  # 768 values: `FIXED`, then the marks' colours
    cells: dict[tuple[Colour, str], Piece]  # (fill, "X" or "O") -> the cell
    blocks: dict[tuple[Colour, str], Piece]  # a won small board, likewise


def _palette_image(palette: list[int]) -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(palette)
    return image


def _reduced(image: Image.Image, palette: list[int]) -> Image.Image:
    """An RGB piece in the palette: every colour of it to the nearest there, none dithered."""
    return image.quantize(palette=_palette_image(palette), dither=Image.Dither.NONE)


def _fixed_palette() -> list[int]:
    flat = [value for colour in FIXED for value in colour]
    return flat + flat[:3] * (256 - len(FIXED))  # the rest unused: the frame's colour again


class Shelf(Generic[K, V]):
    """Pieces drawn, by key, the oldest dropped past `most`; safe from several threads.
    `peek` never draws (the event loop may look; only the drawing thread draws)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, key: K) -> V | None:
        with self._lock:
            return self._items.get(key)

    def get(self, key: K, make: Callable[[], V]) -> V:
        found = self.peek(key)
        if found is None:
            found = make()
            with self._lock:
                self._items[key] = found
                while len(self._items) > self.most:
                    self._items.popitem(last=False)
        return found


FrameKey = tuple[int, int, int, tuple[str, ...], tuple[str, ...]]
MarksKey = tuple[str, str, int, int, int, int]
FRAMES: Shelf[FrameKey, Frame] = Shelf(32)
MARKS: Shelf[MarksKey, Marks] = Shelf(64)


def frame(
    size: int, block: int, side: int, columns: tuple[str, ...], rows: tuple[str, ...]
) -> Frame:
    """The pieces of a board of `size` cells a side in small boards of `block`, `side` pixels
    square, labelled `columns` and `rows` (drawn the first time)."""
    key = (size, block, side, columns, rows)
    return FRAMES.get(key, lambda: _frame(*key))


def _frame(
    size: int, block: int, side: int, columns: tuple[str, ...], rows: tuple[str, ...]
) -> Frame:
    grid = layout(size, block, side)
    palette = _fixed_palette()
    ground = Image.new("RGB", (side, side), FRAME)
    _labels(ImageDraw.Draw(ground), columns, rows, grid)
    empty = {fill: Piece.of(_reduced(_cell(grid, fill), palette)) for fill in CELL_FILLS}
    ring = Image.new("L", (grid.cell, grid.cell), 0)
    width = max(3, grid.cell // 14)
    ImageDraw.Draw(ring).rounded_rectangle(
        (0, 0, grid.cell - 1, grid.cell - 1), _radius(grid), outline=255, width=width
    )
    image = Piece.of(_reduced(ground, palette))
    png_rows = b"".join(
        b"\0" + image.data[at : at + side] for at in range(0, len(image.data), side)
    )
    return Frame(grid, image, png_rows, empty, _runs(ring))


def _runs(mask: Image.Image) -> tuple[tuple[int, int, int], ...]:
    """The runs of set pixels of a mask, row by row: (row, first, end)."""
    data, width = mask.tobytes(), mask.width
    runs = []
    for row in range(mask.height):
        line = data[row * width : (row + 1) * width]
        column = 0
        while (first := line.find(b"\xff", column)) != -1:
            end = line.find(b"\x00", first)
            end = width if end == -1 else end
            runs.append((row, first, end))
            column = end
    return tuple(runs)


def marks(x: str, o: str, size: int, block: int, side: int, generation: int | None = None) -> Marks:
    """The palette of marks `x` and `o` (drawable: ``marks.resolve``) and the pieces holding
    them, for a board of `size` in small boards of `block`, `side` pixels square, as the
    custom emoji images of `generation` draw them (None: those kept now; drawn again once a
    custom emoji's image has come: it may be one of them)."""
    key = (x, o, size, block, side, glyphs.generation() if generation is None else generation)
    return MARKS.get(key, lambda: _marks(*key))


def _marks(x: str, o: str, size: int, block: int, side: int, generation: int) -> Marks:
    palette = _marks_palette(x, o, generation)
    grid = layout(size, block, side)
    shown = {"X": x, "O": o}
    px = round(grid.cell * MARK)
    cells = {}
    for fill in CELL_FILLS:
        for side_name, mark in shown.items():
            cell = _cell(grid, fill)
            _paste(cell, glyphs.glyph(mark, px), ((grid.cell - 1) // 2, (grid.cell - 1) // 2))
            cells[fill, side_name] = Piece.of(_reduced(cell, palette))
    blocks = {}
    if block < size:
        left, top = grid.box(0, size)[:2]
        right, bottom = grid.box((block - 1) * size + block - 1, size)[2:]
        width, height = right - left + 1, bottom - top + 1
        big = round((right - left) * BIG_MARK)
        for fill in BLOCK_FILLS:
            for side_name, mark in shown.items():
                piece = Image.new("RGB", (width, height), FRAME)
                ImageDraw.Draw(piece).rounded_rectangle(
                    (0, 0, width - 1, height - 1), _radius(grid), fill=fill
                )
                _paste(piece, glyphs.glyph(mark, big), ((right - left) // 2, (bottom - top) // 2))
                blocks[fill, side_name] = Piece.of(_reduced(piece, palette))
    return Marks(palette, cells, blocks)


@functools.lru_cache(maxsize=64)
def _marks_palette(x: str, o: str, generation: int) -> list[int]:
    """`FIXED`, then the colours of both marks over each colour a mark is drawn on."""
    fills = (*CELL_FILLS, WON_BOARD)
    sample = Image.new("RGB", (SAMPLE * 2, SAMPLE * len(fills)), FRAME)
    for row, fill in enumerate(fills):
        for column, mark in enumerate((x, o)):
            box = (column * SAMPLE, row * SAMPLE, (column + 1) * SAMPLE, (row + 1) * SAMPLE)
            sample.paste(fill, box)
            centre = (box[0] + SAMPLE // 2, box[1] + SAMPLE // 2)
            _paste(sample, glyphs.glyph(mark, SAMPLE - 8), centre)
    room = CLEAR - len(FIXED)
    found = sample.quantize(room, method=Image.Quantize.MEDIANCUT).getpalette() or []
    fixed = [value for colour in FIXED for value in colour]
    own = found[: 3 * room]
    return fixed + own + fixed[:3] * (256 - len(FIXED) - len(own) // 3)


def _radius(grid: Layout) -> int:
    return max(2, grid.cell // 8)


def _cell(grid: Layout, fill: Colour) -> Image.Image:
    """A cell of `fill` (RGB), its rounded corners on the frame's colour."""
    cell = Image.new("RGB", (grid.cell, grid.cell), FRAME)
    ImageDraw.Draw(cell).rounded_rectangle(
        (0, 0, grid.cell - 1, grid.cell - 1), _radius(grid), fill=fill
    )
    return cell


def _paste(image: Image.Image, mark: Image.Image, centre: tuple[int, int]) -> None:
    image.paste(mark, (centre[0] - mark.width // 2, centre[1] - mark.height // 2), mark)


@functools.lru_cache(maxsize=8)
def _label_font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(px)


def _labels(
    pen: ImageDraw.ImageDraw, columns: tuple[str, ...], rows: tuple[str, ...], grid: Layout
) -> None:
    """Column letters above the grid, row numbers left of it."""
    label_font = _label_font(round(grid.labels * 0.62))
    middle = grid.labels // 2
    for index, (column, row) in enumerate(zip(columns, rows, strict=True)):
        along = grid.starts[index] + grid.cell // 2
        pen.text((along, middle), column, fill=LABEL, font=label_font, anchor="mm")
        pen.text((middle, along), row, fill=LABEL, font=label_font, anchor="mm")
