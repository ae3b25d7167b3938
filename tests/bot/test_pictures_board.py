"""A board's picture, decoded and checked against the game: every cell's background and mark,
the winning line, the last move, ultimate's won boards and board to play, the labels, the
server's marks and the fallbacks, the same bytes for the same position."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import cast

import pytest
from PIL import Image

from bot.games import kinds
from bot.games.look import Look
from bot.games.record import Ending, Status
from bot.pictures import SIDE, board_png, marks, png
from bot.pictures import layout as board
from bot.pictures.board import draw as board_draw
from bot.pictures.layout import FRAME
from engine.ultimate import UltimateBoard
from engine.ultimate.geometry import board_cells
from tests.bot.picture_support import SHAPES, check, decode, game, needs_font, played, red, won

CUSTOM = "<:cat:123456789012345678>"


@pytest.fixture(autouse=True)
def font() -> None:
    needs_font()


@pytest.mark.parametrize(("kind", "size", "k"), SHAPES)
def test_every_cell_shows_what_the_game_holds(kind: str, size: int, k: int) -> None:
    """Positions of every kind and size, going on and finished: each cell's colours match its
    mark, the winning line, the last move and (ultimate) the won boards and the board to play."""
    checked = 0
    for seed in range(4):
        record = played(kind, size, k, seed, plies=5 + seed * 6)
        for shown in (record, played(kind, size, k, seed), game(kind, size, k)):
            image = decode(board_png(shown))
            assert image.size == (SIDE, SIDE)
            checked += check(image, shown)
    assert checked >= 12 * size * size


@pytest.mark.parametrize(("kind", "size", "k"), SHAPES)
def test_a_won_game_shows_its_winning_line(kind: str, size: int, k: int) -> None:
    """The cells of the winning line (ultimate: of its three small boards) are green."""
    record = won(kind, size, k)
    sketch = kinds.of(record).sketch(record)
    assert len(sketch.line) == (27 if kind == "ultimate" else k)
    check(decode(board_png(record)), record)
    resigned = replace(record, ending=Ending.RESIGN)  # the same cells, no line: nothing green
    if kind == "classic":
        assert kinds.of(resigned).sketch(resigned).line == ()
        check(decode(board_png(resigned)), resigned)


def test_ultimate_shows_won_boards_filled_and_the_board_to_play() -> None:
    """A position with a small board won and a board to play: both are drawn as such."""
    for seed in range(40):
        record = played("ultimate", 9, 3, seed, plies=30)
        sketch = kinds.of(record).sketch(record)
        if sketch.target is not None and any(sketch.won):
            break
    else:
        raise AssertionError("no position with a won board and a board to play")
    assert check(decode(board_png(record)), record) == 81


def test_the_same_position_gives_the_same_bytes() -> None:
    """Drawn twice, from nothing each time, a picture is byte for byte the same."""
    record = played("ultimate", 9, 3, 3, plies=40)
    first = board_png(record)
    marks.glyph.cache_clear()
    board.layout.cache_clear()
    assert board_png(record) == first
    assert board_png(replace(record, moves=record.moves[:-1])) != first


def test_labels_name_every_column_and_row() -> None:
    """Each column has its letter above it and each row its number beside it (light on the
    frame), nothing drawn between them."""
    for kind, size, k in (("classic", 3, 3), ("classic", 5, 4), ("ultimate", 9, 3)):
        record = game(kind, size, k)
        image = decode(board_png(record))
        sketch = kinds.of(record).sketch(record)
        grid = board.layout(size, sketch.block)
        assert sketch.columns[0] == "A" and sketch.rows[-1] == str(size)
        for start in grid.starts:
            middle = start + grid.cell // 2
            assert _lit(image, (middle - 12, 4, middle + 12, grid.labels - 4))
            assert _lit(image, (4, middle - 12, grid.labels - 4, middle + 12))
            # between two labels: the bare frame
            assert not _lit(image, (start - 3, 4, start - 1, grid.labels - 4))


def _lit(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    extrema = image.crop(box).getextrema()
    return any(high > max(FRAME) + 60 for _, high in extrema)  # type: ignore[misc]


def test_the_servers_marks_are_drawn_from_the_font() -> None:
    """A server's Unicode marks: 🟦 blue and 🟩 green at their cells' centres."""
    record = played("classic", 4, 3, 2, plies=8, look=Look(x="🟦", o="🟩"))
    image = decode(board_png(record))
    sketch = kinds.of(record).sketch(record)
    grid = board.layout(4, 4)
    for cell, mark in enumerate(sketch.marks):
        r, g, b = image.getpixel(grid.centre(cell, 4))  # type: ignore[misc]
        if mark == "X":
            assert b > 180 and r < 120, (cell, (r, g, b))
        elif mark == "O":
            assert g > 150 and r < 150 and b < 150, (cell, (r, g, b))


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.INFO, logger="bot.pictures")
    for cached in (marks._unicode, marks._unfetched):
        cached.cache_clear()
    yield caplog
    for cached in (marks._unicode, marks._unfetched):
        cached.cache_clear()


def test_a_mark_that_cannot_be_drawn_falls_back_with_one_log_line(
    logged: pytest.LogCaptureFixture,
) -> None:
    """A custom emoji (not fetched yet) and a sequence the font lacks are drawn as ❌ ⭕, each
    said once in the log however many pictures are drawn."""
    record = played("classic", 3, 3, 1, plies=6, look=Look(x=CUSTOM, o="🐱"))
    assert marks.resolve(CUSTOM, "🐱") == ("❌", "🐱")
    assert marks.resolve(CUSTOM, "❌") == ("❌", "⭕")  # both defaults: never the same twice
    assert marks.resolve("🐱🐶", "⭕") == ("❌", "⭕")  # two emoji, not one glyph
    for moves in (record.moves, record.moves[:-1]):
        image = decode(board_png(replace(record, moves=moves)))
        x_cell = moves[0]
        assert red(image.getpixel(board.layout(3, 3).centre(x_cell, 3)))
    lines = [r.getMessage() for r in logged.records if CUSTOM in r.getMessage()]
    assert len(lines) == 1 and "custom emoji" in lines[0] and not logged.records[0].exc_info


def test_without_the_font_the_default_marks_are_drawn_as_shapes(
    logged: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No emoji font: every mark is drawn as ❌ ⭕ shapes, which read as the font's do; one
    warning says so."""
    monkeypatch.setattr(marks, "FONT_PATHS", ())
    for cached in (marks.font, marks.glyph):
        cached.cache_clear()
    try:
        record = played("classic", 5, 4, 4, plies=12, look=Look(x="🐱", o="🐶"))
        for _ in range(2):
            check(decode(board_png(record)), record)
        check(decode(board_png(won("ultimate", 9, 3))), won("ultimate", 9, 3))
    finally:
        for cached in (marks.font, marks.glyph):
            cached.cache_clear()
    warnings = [r for r in logged.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "fonts-noto-color-emoji" in warnings[0].getMessage()


def test_a_finished_game_has_no_board_to_play() -> None:
    """Resigned mid-game, an ultimate board shows no board to play."""
    record = played("ultimate", 9, 3, 5, plies=20)
    assert kinds.of(record).sketch(record).target is not None
    over = replace(record, status=Status.FINISHED, ending=Ending.RESIGN, winner="O")
    assert kinds.of(over).sketch(over).target is None
    check(decode(board_png(over)), over)


@pytest.mark.parametrize(("kind", "size", "k"), SHAPES)
def test_each_kinds_sketch_is_the_engines_position(kind: str, size: int, k: int) -> None:
    """What a picture is drawn from agrees with the engine: each cell's mark, the winning line,
    the small boards won and the board to play, the last move, the labels (the cells' names)."""
    for seed in range(6):
        record = played(kind, size, k, seed, plies=4 + 9 * seed)
        sketch = kinds.of(record).sketch(record)
        position = kinds.of(record).position(record)
        assert [position.cell(c) for c in range(size * size)] == [  # type: ignore[attr-defined]
            mark or "." for mark in sketch.marks
        ]
        assert sketch.last == (record.moves[-1] if record.moves else None)
        outcome = position.outcome()
        won_line = tuple(outcome.line) if outcome and outcome.winner else ()
        if kind == "ultimate":
            ultimate = cast("UltimateBoard", position)
            assert sketch.won == tuple(ultimate.small_winner(b) for b in range(9))
            assert sketch.line == tuple(c for b in won_line for c in board_cells(b))
            playing = record.status is Status.ACTIVE
            assert sketch.target == (ultimate.board_to_play() if playing else None)
        else:
            assert sketch.won == () and sketch.target is None and sketch.line == won_line
        names = [kinds.of(record).cell_name(record, c) for c in range(size * size)]
        assert names == [column + row for row in sketch.rows for column in sketch.columns]


@pytest.mark.parametrize(("kind", "size", "k"), SHAPES)
def test_a_png_written_from_kept_strips_is_the_picture_drawn_whole(
    kind: str, size: int, k: int
) -> None:
    """A board's PNG, written from strips compressed apart and kept from picture to picture,
    decodes to the picture composed whole, pixel for pixel and with its palette, for positions
    whose strips are new and positions whose strips were kept (the same games again)."""
    cache = png.Strips()
    records = [played(kind, size, k, seed) for seed in range(6)]
    for record in records + records:  # the second time from the strips kept
        x, o = marks.resolve(record.look.x, record.look.o)
        sketch = kinds.of(record).sketch(record)
        decoded = Image.open(io.BytesIO(png.board(sketch, x, o, SIDE, cache=cache)))
        whole = board_draw(sketch, x, o, side=SIDE)
        assert decoded.mode == "P" and decoded.tobytes() == whole.tobytes()
        assert decoded.getpalette() == whole.getpalette()
    assert cache.hits >= cache.misses
