"""A picture of a board: the grid, the marks, column letters and row numbers, the last move, the
winning line, small boards set apart, won small boards filled, the board to play highlighted.

It draws a game's ``Sketch`` (``bot.games.kinds``: the kind says what its board shows), so every
kind and size is drawn by the same code: composed from pieces drawn once in one palette
(``parts``), each pasted in its slot (a cell, or a won small board) where the layout puts it,
so that a position costs copies of pixels, never a drawing or a reduction of colours. A replay's
frame after the first is the slots that changed (``changed``).
"""

from __future__ import annotations

from PIL import Image

from bot.games.kinds import Sketch
from bot.pictures import parts
from bot.pictures.layout import EMPTY, PLAYABLE, SIDE, WIN, WON_BOARD, Layout, block_cells, layout

Slot = tuple[str, int]  # ("cell", its number) or ("block", its number)
Piece = tuple[tuple[int, int, int], str | None]  # a slot's fill and its mark (None: none)


def slots(sketch: Sketch) -> dict[Slot, Piece]:
    """What each slot of the picture shows, in the order they are pasted: the won small boards,
    then every cell outside them."""
    size, block = sketch.size, sketch.block
    line = set(sketch.line)
    shown: dict[Slot, Piece] = {}
    covered: set[int] = set()
    for board, winner in enumerate(sketch.won):
        if winner is not None:
            cells = block_cells(board, size, block)
            covered.update(cells)
            shown["block", board] = (WIN if set(cells) <= line else WON_BOARD, winner)
    target = set(block_cells(sketch.target, size, block)) if sketch.target is not None else set()
    for cell, mark in enumerate(sketch.marks):
        if cell not in covered:
            fill = WIN if cell in line else PLAYABLE if cell in target and mark is None else EMPTY
            shown["cell", cell] = (fill, mark)
    return shown


def draw(sketch: Sketch, x: str, o: str, *, side: int = SIDE) -> Image.Image:
    """The picture of a sketch with X's mark `x` and O's `o` (both drawable: see
    ``marks.resolve``), `side` pixels square, in palette mode (``parts.marks``' palette)."""
    ground = parts.frame(sketch.size, sketch.block, side, sketch.columns, sketch.rows)
    canvas = bytearray(ground.image.data)
    paint(canvas, side, (0, 0), sketch, slots(sketch), (x, o), side)
    return _image(canvas, side, side, parts.marks(x, o, sketch.size, sketch.block, side))


def changed(before: Sketch, after: Sketch, x: str, o: str, *, side: int = SIDE) -> Image.Image:
    """What a replay's frame of `after` adds to the one of `before`: the slots that differ (and
    the last move's, before and after), in the smallest rectangle holding them; every other
    pixel of it the palette's transparent index (``parts.CLEAR``), so the frame before shows
    there. Its place in the picture is its ``info["offset"]``."""
    was, now = slots(before), slots(after)
    redrawn = {slot for slot, piece in now.items() if was.get(slot) != piece}
    redrawn |= {slot_of(last, after) for last in (before.last, after.last) if last is not None}
    grid = layout(after.size, after.block, side)
    boxes = [box_of(slot, after, grid) for slot in redrawn] or [(0, 0, 0, 0)]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    width = max(b[2] for b in boxes) - left + 1
    height = max(b[3] for b in boxes) - top + 1
    canvas = bytearray([parts.CLEAR]) * (width * height)
    shown = {slot: piece for slot, piece in now.items() if slot in redrawn}  # blocks first
    paint(canvas, width, (left, top), after, shown, (x, o), side)
    image = _image(canvas, width, height, parts.marks(x, o, after.size, after.block, side))
    image.info["offset"] = (left, top)
    return image


def paint(
    canvas: bytearray,
    width: int,
    origin: tuple[int, int],
    sketch: Sketch,
    shown: dict[Slot, Piece],
    marks: tuple[str, str],
    side: int,
) -> None:
    """Copy the pieces of `shown` (slots of `sketch`, in order) into `canvas`, the pixels of a
    rectangle `width` wide whose top left corner is `origin` in the picture, then the last
    move's outline where its slot is one of them."""
    size, block = sketch.size, sketch.block
    ground = parts.frame(size, block, side, sketch.columns, sketch.rows)
    pieces = parts.marks(*marks, size, block, side)
    for slot, (fill, mark) in shown.items():
        left, top = box_of(slot, sketch, ground.grid)[:2]
        if slot[0] == "block":
            assert mark is not None
            piece = pieces.blocks[fill, mark]
        else:
            piece = ground.empty[fill] if mark is None else pieces.cells[fill, mark]
        piece.into(canvas, width, left - origin[0], top - origin[1])
    last = sketch.last
    if last is not None and slot_of(last, sketch) in shown:
        left, top = ground.grid.box(last, size)[:2]
        ground.outline(canvas, width, left - origin[0], top - origin[1])


def _image(canvas: bytearray, width: int, height: int, pieces: parts.Marks) -> Image.Image:
    image = Image.frombytes("P", (width, height), bytes(canvas))
    image.putpalette(pieces.palette)
    return image


def slot_of(cell: int, sketch: Sketch) -> Slot:
    """The slot a cell is shown in: its own, or its small board's once that is won."""
    if not sketch.won:
        return "cell", cell
    row, column = divmod(cell, sketch.size)
    board = (row // sketch.block) * (sketch.size // sketch.block) + column // sketch.block
    return ("block", board) if sketch.won[board] is not None else ("cell", cell)


def box_of(slot: Slot, sketch: Sketch, grid: Layout) -> tuple[int, int, int, int]:
    """A slot's rectangle in the picture (right and bottom inclusive)."""
    kind, number = slot
    if kind == "cell":
        return grid.box(number, sketch.size)
    cells = block_cells(number, sketch.size, sketch.block)
    first, last = grid.box(cells[0], sketch.size), grid.box(cells[-1], sketch.size)
    return first[0], first[1], last[2], last[3]
