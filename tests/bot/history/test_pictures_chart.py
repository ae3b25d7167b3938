"""The rating chart alone: the same points give the same bytes; each kind's line in its colour,
a higher rating drawn higher, a later game further right; one point alone is a dot; no points
is an error; the alt text says each line in words, in the reader's language."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from bot.history import chart
from bot.history.board import KIND_NAMES
from bot.history.chart import chart_alt

START = datetime(2026, 11, 1, tzinfo=UTC)


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (chart.WIDTH, chart.HEIGHT)
    return image.convert("RGB")


def found(image: Image.Image, colour: tuple[int, int, int]) -> list[tuple[int, int]]:
    """Every pixel of the plot in this colour."""
    left, top, right, bottom = chart.PLOT
    return [
        (x, y)
        for x in range(left, right)
        for y in range(top, bottom)
        if image.getpixel((x, y)) == colour
    ]


def test_lines_in_their_colours_higher_up_and_later_right() -> None:
    """Classic climbs, ultimate falls: classic's rightmost pixel is above its leftmost and
    above ultimate's; the same points draw the same bytes."""
    series = {
        "classic": [(START + timedelta(days=i), 1500.0 + 10 * i) for i in range(10)],
        "ultimate": [(START + timedelta(days=i), 1500.0 - 8 * i) for i in range(6)],
    }
    data = chart.chart(series)
    assert chart.chart(series) == data
    image = decoded(data)
    classic, ultimate = found(image, chart.LINES["classic"]), found(image, chart.LINES["ultimate"])
    assert classic and ultimate
    first, last = min(classic), max(classic)  # by x
    assert last[1] < first[1]  # climbs: drawn higher at the right
    assert max(ultimate)[1] > min(ultimate)[1]  # falls
    assert max(ultimate)[0] < last[0]  # its last game was earlier


def test_one_point_is_a_dot_and_none_is_an_error() -> None:
    image = decoded(chart.chart({"classic": [(START, 1516.0)]}))
    dot = found(image, chart.LINES["classic"])
    assert 50 < len(dot) < 200  # a dot of 12 pixels, no line
    with pytest.raises(ValueError):
        chart.chart({"classic": []})


def test_the_alt_text_in_words() -> None:
    series = {
        "classic": [(START, 1516.0), (START + timedelta(days=2), 1531.6)],
        "ultimate": [(START, 1484.0)],
    }
    said = chart_alt(series, KIND_NAMES, None)
    assert said == (
        "A chart of the Elo rating over time, one line a kind of game. Classic: 2 rated games, "
        "from 1516 on 2026-11-01 to 1532 on 2026-11-03; highest 1532, lowest 1516. Ultimate: "
        "1 rated game, from 1484 on 2026-11-01 to 1484 on 2026-11-01; highest 1484, lowest 1484."
    )
    assert chart_alt(series, KIND_NAMES, "de").startswith("Ein Diagramm der Elo-Wertung")
    assert "1 gewertete Partie" in chart_alt(series, KIND_NAMES, "de")
