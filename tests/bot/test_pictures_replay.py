"""A game's animated replay, decoded: the empty board then one frame a move, each frame the
position after its move, the last held longest with the winning line, within its size limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import kinds
from bot.pictures import board, replay
from bot.pictures.animation import FIRST, HELD, LIMIT, MOVE, SIDE, positions
from bot.pictures.layout import layout
from bot.pictures.marks import resolve
from tests.bot.picture_support import check, game, needs_font, played, won


@pytest.fixture(autouse=True)
def font() -> None:
    needs_font()


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame as shown (RGB) and its milliseconds."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF" and image.info.get("loop") == 0
    out = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        out.append((image.convert("RGB"), image.info["duration"]))
    return out


@pytest.mark.parametrize(
    ("kind", "size", "k", "least"),
    [("classic", 3, 3, 5), ("classic", 5, 4, 9), ("ultimate", 9, 3, 55)],
)
def test_one_frame_a_move_each_the_position_after_it(
    kind: str, size: int, k: int, least: int
) -> None:
    """Frames: the empty board, then the position after each move (its marks, its last move,
    ultimate's board to play), the last one the end with its winning line, held longest."""
    record = won(kind, size, k, least=least)
    data = replay(record)
    shown = frames(data)
    assert len(shown) == len(record.moves) + 1
    assert [ms for _, ms in shown] == [FIRST] + [MOVE] * (len(record.moves) - 1) + [HELD]
    for (image, _), position in zip(shown, positions(record), strict=True):
        assert image.size == (SIDE, SIDE)
        check(image, position)
    assert positions(record)[-1] == record  # the end as it ended: the winning line marked
    assert len(data) <= LIMIT


def test_the_same_game_gives_the_same_bytes() -> None:
    """A replay drawn twice is byte for byte the same."""
    record = played("classic", 4, 3, 2)
    assert replay(record) == replay(record)


def test_a_replay_too_large_is_drawn_again_smaller(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its limit, a replay is drawn at three quarters of the size until it fits."""
    record = played("ultimate", 9, 3, 1, plies=20)
    full = replay(record)
    monkeypatch.setattr("bot.pictures.animation.LIMIT", len(full) - 1)
    smaller = frames(replay(record))
    assert smaller[0][0].size == (SIDE * 3 // 4, SIDE * 3 // 4)
    check(smaller[-1][0], record)


def test_a_game_with_no_moves_is_one_frame() -> None:
    """No moves: the empty board alone, held."""
    shown = frames(replay(game("classic", 3, 3)))
    assert len(shown) == 1 and shown[0][1] == HELD


@pytest.mark.parametrize(("kind", "size", "k"), [("classic", 3, 3), ("ultimate", 9, 3)])
def test_each_frame_stores_only_what_changed_and_shows_the_whole_position(
    kind: str, size: int, k: int
) -> None:
    """Every frame decoded is, pixel for pixel, the position's picture drawn whole at the
    replay's size; each after the first stores only the rectangle its move changed (on 3x3,
    the new mark's cell and the last move's outline it moves from)."""
    record = won(kind, size, k, least=5)
    image = Image.open(io.BytesIO(replay(record)))
    x, o = resolve(record.look.x, record.look.o)
    shown = positions(record)
    for index, position in enumerate(shown):
        image.seek(index)
        left, top, right, bottom = image.tile[0][1]  # the rectangle this frame stores
        whole = board.draw(kinds.of(position).sketch(position), x, o, side=SIDE)
        assert image.convert("RGB").tobytes() == whole.convert("RGB").tobytes(), index
        if 0 < index < len(shown) - 1 and kind == "classic":  # the last adds the winning line
            grid = layout(size, size, SIDE)
            boxes = [grid.box(cell, size) for cell in record.moves[max(0, index - 2) : index]]
            assert right - left <= max(b[2] for b in boxes) - min(b[0] for b in boxes) + 1
            assert bottom - top <= max(b[3] for b in boxes) - min(b[1] for b in boxes) + 1
