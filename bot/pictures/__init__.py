"""Pictures of games: a board as a PNG, a game as an animated replay, and the words that say each
picture (its alt text). Pure and synchronous: no Discord, no asyncio; a game's kind says what its
board shows (``Kind.sketch``), so every kind and size is drawn by the same code.

Sizes. Discord shows a picture in a message at most about 550 CSS pixels wide on a desktop and
the width of the screen, less the margins, on a phone (some 330 to 400 CSS pixels); its
screens have 2 or 3 device pixels to a CSS pixel. A board is ``SIDE`` = 768 pixels square:
about 1.4 device pixels a displayed pixel at the desktop's largest, 2 on a phone, so the grid,
the labels and the marks stay sharp on both. The marks' bitmaps are 136 pixels (Noto Color
Emoji): a 3x3 board's marks (170 pixels) are scaled up a little, an ultimate board's (55) down.
A picture is a PNG of 256 colours (plenty for flat cells and emoji), 35 to 60 KB.

How a picture is made. Its pieces (the frame with its labels, each kind of cell, each kind of
won small board, the last move's outline) are drawn once, in one palette (``parts``); a position
is those pieces copied into place (``board``), and its PNG is written from strips of rows, each
compressed once and kept for the next picture that shows the same (``png``). So a new position
costs what changed since the pictures before: in a running bot 0.06 ms on 3x3, 0.7 ms on 5x5 and
1.2 ms on ultimate (the median; 2.6 to 3.7 ms with no strip kept), against 13 to 14 ms when every
picture was drawn and reduced to 256 colours whole (docs/figures.md, "Pictures").

Replays are animated GIFs of ``animation.SIDE`` = 512 pixels (moving pictures are looked at,
not studied): Discord plays a GIF attachment inline in every client. A frame after the first
stores only the rectangle its move changed, in the pieces' palette: a 60-move ultimate game's
replay is about 255 KB, written in some 55 ms; a lossless animated WebP of the same frames is
smaller but takes ten times as long to encode. Every replay is kept under ``animation.LIMIT``
(2 MiB, against the 10 MiB a bot may upload anywhere): a larger one is drawn again smaller.

The cache (``PictureCache``) keeps each board picture drawn, by kind, position, the game's state
and marks, least recently used first out past ``cache.BOUND`` = 32 MiB: some 900 pictures,
against 17 MiB for the pictures of 500 live games; the strips (``png.BOUND``) another 12 MiB.

Pictures are drawn off the event loop, in a ``concurrent.futures.ThreadPoolExecutor(max_workers=1)``
of the bot's own, apart from the engine's (``bot.compute.drawing``): the pieces, the strips and the
cache live once in the bot's process and nothing is copied between processes. A picture holds
the interpreter's lock for its copies of rows and lets it go a few times only (to compress a
strip missing), so that a busy event loop beside it does not keep it waiting at every step, as
it did a picture pasted piece by piece by Pillow (each paste lets the lock go, and waits for it
again up to the 5 ms switch interval).
"""

from __future__ import annotations

from bot.games import kinds
from bot.games.record import GameRecord
from bot.pictures import png
from bot.pictures.animation import replay
from bot.pictures.cache import PictureCache, key
from bot.pictures.layout import SIDE
from bot.pictures.marks import resolve
from bot.pictures.words import alt_text


def board_png(game: GameRecord, *, side: int = SIDE) -> bytes:
    """The picture of a game's board now, as PNG bytes (the same game, the same bytes)."""
    x, o = resolve(game.look.x, game.look.o)
    data = png.board(kinds.of(game).sketch(game), x, o, side)
    assert data is not None
    return data


def kept_png(game: GameRecord, *, side: int = SIDE) -> bytes | None:
    """The picture of a classic board from strips kept alone (None if one is missing, or the
    board is another kind's): cheap enough for the event loop, where a thread's hop costs more."""
    kind = kinds.of(game)
    if not kind.one_grid:
        return None
    x, o = resolve(game.look.x, game.look.o)
    return png.board(kind.sketch(game), x, o, side, kept=True)


def picture(game: GameRecord, cache: PictureCache, *, side: int = SIDE) -> bytes:
    """The picture of a game's board now, from the cache, drawn and kept when it is not there."""
    return cache.fetch(key(game, side), lambda: board_png(game, side=side))


__all__ = ["SIDE", "PictureCache", "alt_text", "board_png", "kept_png", "picture", "replay"]
