"""Games to draw and a picture read back: the colour where each cell shows its background, its
mark's centre and its mark's ring, checked against what the game says each cell holds; the
picture a board or replay message carries in SimCord's Discord."""

from __future__ import annotations

import io
import os
import random
from dataclasses import replace

import pytest
from PIL import Image
from simcord import Env
from simcord.components import walk_components

from bot.games import kinds
from bot.games.look import Look
from bot.games.record import Ending, GameRecord
from bot.pictures import layout as board
from bot.pictures import marks
from bot.pictures.animation import LIMIT
from bot.pictures.layout import EMPTY, LAST, MARK, PLAYABLE, WIN, WON_BOARD
from devkit import random_game
from devkit.simcord_board import raw

MEDIA_GALLERY = 12

# Every kind and size: (kind, size, k).
SHAPES = [
    ("classic", 3, 3),
    ("classic", 4, 3),
    ("classic", 4, 4),
    ("classic", 5, 3),
    ("classic", 5, 4),
    ("classic", 5, 5),
    ("ultimate", 9, 3),
]


def needs_font() -> None:
    """The colour emoji font must be installed: under CI its absence fails, elsewhere skips."""
    if marks.font() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the colour emoji font is needed under CI (fonts-noto-color-emoji)")
        pytest.skip("no colour emoji font (apt-get install fonts-noto-color-emoji)")


def game(
    kind: str, size: int, k: int, moves: tuple[int, ...] = (), **changes: object
) -> GameRecord:
    """A game between two people with these moves, as the bot stores it."""
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        x_id=3,
        o_id=4,
        challenger_id=3,
        size=size,
        k=k,
        kind=kind,
        moves=moves,
    )
    return replace(record, **changes)  # type: ignore[arg-type]


def played(
    kind: str, size: int, k: int, seed: int, *, plies: int = 999, look: Look | None = None
) -> GameRecord:
    """A game of random legal moves (at most `plies`), finished as the bot finishes it when the
    moves end it; the players of `game`."""
    looks = {"look": look} if look else {}
    players = {"id": 7, "guild_id": 1, "channel_id": 2, "x_id": 3, "o_id": 4, "challenger_id": 3}
    return random_game.played(kind, size, k, random.Random(seed), plies, **players, **looks)


def won(kind: str, size: int, k: int, *, least: int = 0) -> GameRecord:
    """The first random game (by seed) that ends in a win, after at least `least` moves."""
    for seed in range(10_000):
        record = played(kind, size, k, seed)
        if record.ending is Ending.WIN and len(record.moves) >= least:
            return record
    raise AssertionError("no won game found")


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel: object, colour: tuple[int, int, int]) -> bool:
    """The same colour, give or take a GIF palette's rounding."""
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= 8 for a, b in zip(pixel, colour, strict=True))


def red(pixel: object) -> bool:
    """❌ and ⭕ are red in the font."""
    assert isinstance(pixel, tuple)
    return bool(pixel[0] > 180 and pixel[1] < 120 and pixel[2] < 120)


def check(image: Image.Image, record: GameRecord) -> int:
    """Every cell of the picture against the game: its background (empty, the winning line, the
    board to play, the last move's outline) and its mark (❌: red at its centre, not on the ring
    of a ⭕; ⭕: red on its ring, its centre the background). Returns the cells checked."""
    sketch = kinds.of(record).sketch(record)
    size, grid = sketch.size, board.layout(sketch.size, sketch.block, image.width)
    px = round(grid.cell * MARK)
    covered = set()
    for block, winner in enumerate(sketch.won):
        if winner is None:
            continue
        cells = board.block_cells(block, size, sketch.block)
        covered.update(cells)
        left, top = grid.box(cells[0], size)[:2]
        right, bottom = grid.box(cells[-1], size)[2:]
        fill = WIN if set(cells) <= set(sketch.line) else WON_BOARD
        big = round((right - left) * board.BIG_MARK)
        _mark(image, ((left + right) // 2, (top + bottom) // 2), big, winner, fill)
        edge = image.getpixel((left + 2, (top + bottom) // 2))
        assert near(edge, fill) or near(edge, LAST)
    target = (
        board.block_cells(sketch.target, size, sketch.block) if sketch.target is not None else []
    )
    for cell, mark in enumerate(sketch.marks):
        left, top, right, bottom = grid.box(cell, size)
        middle = (top + bottom) // 2
        if cell not in covered:
            fill = (
                WIN
                if cell in sketch.line
                else PLAYABLE
                if cell in target and mark is None
                else EMPTY
            )
            assert near(image.getpixel((left + grid.cell // 10, middle)), fill), (cell, mark)
            if mark is None:
                assert near(image.getpixel(grid.centre(cell, size)), fill), cell
            else:
                _mark(image, grid.centre(cell, size), px, mark, fill)
        outline = image.getpixel((left + max(1, grid.cell // 40), middle))
        assert near(outline, LAST) is (cell == sketch.last), cell
    return len(sketch.marks)


def _mark(
    image: Image.Image, centre: tuple[int, int], px: int, mark: str, fill: tuple[int, int, int]
) -> None:
    ring = image.getpixel((centre[0] - round(px * 0.4), centre[1]))
    middle = image.getpixel(centre)
    if mark == "X":
        assert red(middle) and near(ring, fill), (centre, middle, ring)
    else:
        assert near(middle, fill) and red(ring), (centre, middle, ring)


def picture_of(env: Env, message: object) -> tuple[bytes, str, str]:
    """The board message's one attachment (its bytes and description) and the description of
    the media gallery item that shows it."""
    stored = raw(env, message)
    assert len(stored.attachments) == 1, stored.attachments
    found = stored.attachments[0]
    assert found["filename"] == "board.png"
    galleries = [c for c in walk_components(stored.components) if c["type"] == MEDIA_GALLERY]
    assert len(galleries) == 1
    item = galleries[0]["items"][0]
    assert item["media"]["url"] in (found["url"], "attachment://board.png")
    data = env.backend.cdn.get(found["url"])
    assert data is not None
    return data, found["description"], item["description"]


async def stored_game(env: Env, game_id: int) -> GameRecord:
    return await env.bot.store.load_game(game_id)


def gif_of(env: Env, message: object) -> tuple[Image.Image, str]:
    """A replay message's one attachment, decoded, and its description."""
    stored = raw(env, message)
    assert [a["filename"] for a in stored.attachments] == ["replay.gif"]
    data = env.backend.cdn.get(stored.attachments[0]["url"])
    assert data is not None and len(data) <= LIMIT
    return Image.open(io.BytesIO(data)), stored.attachments[0]["description"]
