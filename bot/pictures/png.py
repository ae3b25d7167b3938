"""A board's picture as a PNG, written from compressed strips kept from picture to picture.

Compressing is most of a picture's cost (zlib takes some 2 ms for a 768 px board's 590,000
pixels, against a few tenths for composing them), and most of a picture is what the last one
had: the frame and its labels, and whole rows of cells as they were. So the picture is cut
across into strips (the rows of each row of cells, and the rows between), each strip compressed
on its own (a deflate stream may be a run of independent pieces, each ending on a full flush) and
kept, by what it shows (the pieces that cross it, where, and from which of their rows), in a
cache bounded by bytes (``BOUND``). A picture is its strips found or compressed, then joined,
with the zlib stream's checksum combined from theirs (``_combine``, zlib's ``adler32_combine``).
The pixels are those of ``board.draw``, byte for byte (a test decodes both).
"""

from __future__ import annotations

import itertools
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator

from bot.games.kinds import Sketch
from bot.pictures import marks as glyphs
from bot.pictures import parts
from bot.pictures.board import Piece, Slot, box_of, slot_of, slots
from bot.pictures.layout import Layout

LEVEL = 3  # zlib's level for a strip: half the time of 6 for a tenth more bytes (figures.md)
BOUND = 12 * 1024 * 1024  # bytes of compressed strips kept, at most
ADLER = 65521  # the modulus of zlib's Adler-32
SIGNATURE = b"\x89PNG\r\n\x1a\n"
HEADER = b"\x78\x01"  # a zlib stream: deflate, a 32 KiB window, no preset dictionary
END = b"\x03\x00"  # the stream's last block: empty (fixed codes, end of block)
IEND = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))

Item = tuple[int, str, tuple[int, int, int], str | None, int]  # x, slot's kind, fill, mark, row
Strip = tuple[bytes, int, int]  # compressed, the Adler-32 of its rows, their length


class Strips:
    """Compressed strips by what they show, the least recently used dropped first past
    `bound` bytes; one lock, so the drawing thread and a measurement may share it."""

    def __init__(self, bound: int = BOUND) -> None:
        self.bound = bound
        self.held = 0
        self._entries: OrderedDict[tuple[object, ...], Strip] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: tuple[object, ...]) -> Strip | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._entries.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], strip: Strip) -> None:
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = strip
            self.held += len(strip[0])
            while self.held > self.bound and self._entries:
                self.held -= len(self._entries.popitem(last=False)[1][0])


STRIPS = Strips()


def board(
    sketch: Sketch, x: str, o: str, side: int, *, cache: Strips = STRIPS, kept: bool = False
) -> bytes | None:
    """The PNG of a sketch with X's mark `x` and O's `o` (both drawable: ``marks.resolve``),
    `side` pixels square: the pixels of ``board.draw``. `kept`: only from strips kept (None
    if one is missing): a few tens of microseconds, nothing compressed."""
    size, block = sketch.size, sketch.block
    generation = glyphs.generation()  # read once: the pieces' and the strips' alike
    if kept:  # nothing drawn: on the event loop, only what is there already
        found = parts.FRAMES.peek((size, block, side, sketch.columns, sketch.rows))
        held = parts.MARKS.peek((x, o, size, block, side, generation))
        if found is None or held is None:
            return None
        ground, pieces = found, held
    else:
        ground = parts.frame(size, block, side, sketch.columns, sketch.rows)
        pieces = parts.marks(x, o, size, block, side, generation)
    grid = ground.grid
    shown = slots(sketch)
    boxes = {slot: box_of(slot, sketch, grid) for slot in shown}
    outline = None
    if sketch.last is not None and slot_of(sketch.last, sketch) in shown:
        outline = grid.box(sketch.last, size)[:2]
    whose = (x, o, generation, size, block, side, sketch.columns, sketch.rows)
    stream = [HEADER]
    adler = 1  # the Adler-32 of nothing
    for top, bottom in _strips(grid, size, side):
        items = tuple(_crossing(shown, boxes, top, bottom))
        outlined = outline if outline and top - grid.cell < outline[1] < bottom else None
        key = (whose, top, items, outlined)
        strip = cache.get(key)
        if strip is None and kept:
            return None
        if strip is None:
            strip = _compressed(ground, pieces, top, bottom, items, outlined)
            cache.put(key, strip)
        stream.append(strip[0])
        adler = _combine(adler, strip[1], strip[2])
    stream += [END, struct.pack(">I", adler)]
    head = struct.pack(">IIBBBBB", side, side, 8, 3, 0, 0, 0)  # 8 bits a pixel, a palette
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", head),
            _chunk(b"PLTE", bytes(pieces.palette[: 3 * 256])),
            _chunk(b"IDAT", b"".join(stream)),
            IEND,
        )
    )


def _strips(grid: Layout, size: int, side: int) -> Iterator[tuple[int, int]]:
    """The picture's strips, top to bottom: the rows of each row of cells and those between."""
    starts = grid.starts[:size]
    breaks = sorted({0, side, *starts, *(start + grid.cell for start in starts)})
    yield from itertools.pairwise(breaks)


def _crossing(
    shown: dict[Slot, Piece],
    boxes: dict[Slot, tuple[int, int, int, int]],
    top: int,
    bottom: int,
) -> Iterator[Item]:
    """The pieces that cross the rows `top` to `bottom`: where, which, from which of its rows
    (a strip ends where a cell does, so a piece crossing it covers all its rows)."""
    for slot, (fill, mark) in shown.items():
        left, first, _, last = boxes[slot]
        if first < bottom and last >= top:
            yield left, slot[0], fill, mark, top - first


def _compressed(
    ground: parts.Frame,
    pieces: parts.Marks,
    top: int,
    bottom: int,
    items: tuple[Item, ...],
    outlined: tuple[int, int] | None,
) -> Strip:
    """The strip's rows, each after its filter byte (0: none), compressed on their own."""
    stride = ground.image.width + 1
    canvas = bytearray(ground.png_rows[top * stride : bottom * stride])
    rows = bottom - top
    for left, kind, fill, mark, first in items:
        if kind == "block":
            assert mark is not None
            piece = pieces.blocks[fill, mark]
        else:
            piece = ground.empty[fill] if mark is None else pieces.cells[fill, mark]
        piece.into(canvas, stride, left + 1, 0, first, rows)
    if outlined is not None:
        ground.outline(canvas, stride, outlined[0] + 1, outlined[1] - top, rows)
    squeeze = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    data = squeeze.compress(canvas) + squeeze.flush(zlib.Z_FULL_FLUSH)
    return data, zlib.adler32(canvas), len(canvas)


def _combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two runs of bytes from each one's and the second's length (zlib's
    ``adler32_combine``)."""
    remainder = length % ADLER
    low = first & 0xFFFF
    high = (remainder * low) % ADLER
    low = (low + (second & 0xFFFF) + ADLER - 1) % ADLER
    high = (high + (first >> 16) + (second >> 16) + ADLER - remainder) % ADLER
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
