"""Pictures of games: a board as a PNG, a game as an animated replay, and the words that say each
picture (its alt text). Pure and synchronous: no Discord, no asyncio; a game's kind says what its
board shows (``Kind.sketch``), so every kind and size is drawn by the same code.

Sizes. Discord shows a picture in a message at most about 550 CSS pixels wide on a desktop and
the width of the screen, less the margins, on a phone (some 330 to 400 CSS pixels); its
screens have 2 or 3 device pixels to a CSS pixel. A board is ``SIDE`` = 768 pixels square:
about 1.4 device pixels a displayed pixel at the desktop's largest, 2 on a phone, so the grid,
the labels and the marks stay sharp on both. The marks' bitmaps are 136 pixels (Noto Color
Emoji): a 3x3 board's marks (170 pixels) are scaled up a little, an ultimate board's (55) down.
A picture is a PNG of 256 colours (plenty for flat cells and emoji), about 26 KB.

Replays are animated GIFs of ``animation.SIDE`` = 512 pixels (moving pictures are looked at,
not studied): Discord plays a GIF attachment inline in every client. Measured on 60-move
ultimate games (``benchmarks/pictures.py``) the GIF, one palette for every frame and only what
changed stored, is about 235 KB and encoded in some 0.15 s; a lossless animated WebP of the
same frames is about a fifth smaller but takes a second more of CPU to encode. Every replay
is kept under ``animation.LIMIT`` (2 MiB, against the 10 MiB a bot may upload anywhere): a
larger one is drawn again smaller.

The cache (``PictureCache``) keeps each board picture drawn, by kind, position, the game's state
and marks, least recently used first out past ``cache.BOUND`` = 32 MiB: some 1,400 pictures,
against 11 MiB for the pictures of 500 live games (docs/figures.md, "Pictures").

Drawing a board takes 13 to 14 ms of CPU, a replay of 60 moves about 0.3 s: never on the event
loop. The bot should look a picture up in the cache on the loop (microseconds) and draw a miss
in a ``concurrent.futures.ThreadPoolExecutor(max_workers=1)`` of its own, apart from the
engine's: reducing the colours and compressing, three quarters of the work, run in Pillow's C
code with the GIL let go, the rest takes turns with the loop like any Python thread (stalls of
a switch interval, 5 ms, measured up to 14 ms on 2 busy cores), the cache and the emoji font
live once in the bot's process, and nothing is copied between processes. Should the loop's lag
under load say otherwise, the same pure functions run in a process pool as the engine's do.
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

PNG_LEVEL = (
    3  # zlib's level for a board's PNG: half the time of 6 for a tenth more bytes (docs/figures.md)
)


def board_png(game: GameRecord, *, side: int = SIDE) -> bytes:
    """The picture of a game's board now, as PNG bytes (the same game, the same bytes)."""
    x, o = resolve(game.look.x, game.look.o)
    return png.board(kinds.of(game).sketch(game), x, o, side)


def picture(game: GameRecord, cache: PictureCache, *, side: int = SIDE) -> bytes:
    """The picture of a game's board now, from the cache, drawn and kept when it is not there."""
    return cache.fetch(key(game, side), lambda: board_png(game, side=side))


__all__ = ["SIDE", "PictureCache", "alt_text", "board_png", "picture", "replay"]
