"""A game as an animated replay: the empty board, then one frame a move, the last frame (the
end, with the winning line) held longer. An animated GIF (see ``bot.pictures`` for why), one
palette for every frame so that each frame after the first stores only what changed.
"""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from bot.games import kinds
from bot.games.record import GameRecord, Status
from bot.pictures.board import EMPTY, FRAME, LABEL, LAST, PLAYABLE, WIN, WON_BOARD, draw
from bot.pictures.marks import resolve

SIDE = 512  # pixels a side of a replay's frames
FIRST = 800  # milliseconds the empty board is shown
MOVE = 700  # milliseconds each move is shown
HELD = 4000  # milliseconds the last frame is shown
COLOURS = (FRAME, EMPTY, LABEL, LAST, WIN, PLAYABLE, WON_BOARD)
LIMIT = 2 * 1024 * 1024  # bytes: a replay larger than this is drawn again smaller


def positions(game: GameRecord) -> list[GameRecord]:
    """The game before its first move, after each move while it went on, and as it ended."""
    going = replace(game, status=Status.ACTIVE, ending=None, winner=None)
    return [replace(going, moves=game.moves[:ply]) for ply in range(len(game.moves))] + [game]


def frames(game: GameRecord, *, side: int = SIDE) -> list[Image.Image]:
    """Each frame of the replay, as drawn (RGB)."""
    x, o = resolve(game.look.x, game.look.o)
    kind = kinds.of(game)
    return [draw(kind.sketch(shown), x, o, side=side) for shown in positions(game)]


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
    """Frames as a looping GIF, quantised to one palette: the board's own colours exactly, then
    the marks' colours taken from the first, middle and last frames."""
    picked = [images[0], images[len(images) // 2], images[-1]]
    sample = Image.new("RGB", (picked[0].width * len(picked), picked[0].height))
    for index, image in enumerate(picked):
        sample.paste(image, (index * image.width, 0))
    found = sample.quantize(256 - len(COLOURS), method=Image.Quantize.MEDIANCUT).getpalette()
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in COLOURS for v in colour] + (found or [])[: 3 * (256 -
                       len(COLOURS))])  # fmt: skip
    quantised = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    out = io.BytesIO()
    quantised[0].save(out, "GIF", save_all=True, append_images=quantised[1:], loop=0,
                      duration=durations(len(images)), optimize=True)  # fmt: skip
    return out.getvalue()
