"""A game as an animated replay: the empty board, then one frame a move, the last frame (the
end, with the winning line) held longer. An animated GIF (see ``bot.pictures`` for why): every
frame composed from the board's pieces (``parts``), so all share their one palette and each
frame after the first differs from the one before only where the move changed the board (the
mark, the last move's outline, the board to play), which is all the GIF stores of it.
"""

from __future__ import annotations

import itertools
import struct
from dataclasses import replace

from PIL import GifImagePlugin, Image

from bot.games import kinds
from bot.games.record import GameRecord, Status
from bot.pictures import parts
from bot.pictures.board import changed, draw
from bot.pictures.marks import resolve

SIDE = 512  # pixels a side of a replay's frames
FIRST = 800  # milliseconds the empty board is shown
MOVE = 700  # milliseconds each move is shown
HELD = 4000  # milliseconds the last frame is shown
LIMIT = 2 * 1024 * 1024  # bytes: a replay larger than this is drawn again smaller


def positions(game: GameRecord) -> list[GameRecord]:
    """The game before its first move, after each move while it went on, and as it ended."""
    going = replace(game, status=Status.ACTIVE, ending=None, winner=None)
    return [replace(going, moves=game.moves[:ply]) for ply in range(len(game.moves))] + [game]


def frames(game: GameRecord, *, side: int = SIDE) -> list[Image.Image]:
    """Each frame of the replay: the first whole, each after it what changed since the one
    before (``board.changed``: its ``info["offset"]`` says where), palette images in one
    palette."""
    x, o = resolve(game.look.x, game.look.o)
    kind = kinds.of(game)
    sketches = [kind.sketch(shown) for shown in positions(game)]
    first = draw(sketches[0], x, o, side=side)
    first.info["offset"] = (0, 0)
    deltas = [changed(a, b, x, o, side=side) for a, b in itertools.pairwise(sketches)]
    return [first, *deltas]


def durations(count: int) -> list[int]:
    """Each frame's milliseconds: the first and last held longer than the moves between."""
    if count == 1:
        return [HELD]
    return [FIRST] + [MOVE] * (count - 2) + [HELD]


def replay(game: GameRecord, *, side: int = SIDE) -> bytes:
    """The game's replay as an animated GIF that loops, under `LIMIT` bytes (drawn again at
    three quarters of the size while it is larger)."""
    while True:
        data = encode(frames(game, side=side))
        if len(data) <= LIMIT or side <= 128:
            return data
        side = side * 3 // 4


def encode(images: list[Image.Image]) -> bytes:
    """Frames (``frames``) as a looping GIF: the first's palette for all, each frame kept over
    the one before (disposal 1), its transparent index (``parts.CLEAR``) showing that one."""
    first = images[0]
    palette = bytes(first.getpalette() or [])[: 3 * 256].ljust(3 * 256, b"\0")
    out = [
        b"GIF89a",
        struct.pack("<HHBBB", first.width, first.height, 0xF7, 0, 0),  # a 256-colour table
        palette,
        b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00",  # loop forever
    ]
    for image, duration in zip(images, durations(len(images)), strict=True):
        out += GifImagePlugin.getdata(
            image,
            image.info.get("offset", (0, 0)),
            duration=duration,
            disposal=1,
            transparency=parts.CLEAR,
        )
    out.append(b";")
    return b"".join(out)
