"""A chart of a player's Elo over time: one line per kind of game, the ratings on the left, the
dates below, as a PNG.

The picture carries numbers and dates only (ISO 8601, read alike in every language), no words:
the bot's 17 languages need scripts no one font installed with it draws (Thai, Japanese, Korean,
Chinese), so the kinds are told apart by colour, and the message says which colour is which
(``SWATCHES``, the emoji squares of the same colours) and the alt text says the chart in words
(``words.chart_alt``). 960 x 540 pixels: 16:9, shown whole at Discord's 550 CSS pixels on a
desktop and the width of a phone.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import N_, NP_, Text
from bot.pictures.layout import FRAME, LABEL
from bot.pictures.words import fit

WIDTH, HEIGHT = 960, 540
PLOT = (96, 40, WIDTH - 40, HEIGHT - 64)  # the plot's left, top, right, bottom
INSET = 28  # pixels between the plot's sides and the first and last points
PANEL = (43, 45, 49)
GRID = (70, 73, 80)
# Each kind's line, as the emoji square the message names it by (their colours in Twemoji).
LINES: dict[str, tuple[int, int, int]] = {"classic": (85, 172, 238), "ultimate": (244, 144, 12)}
SWATCHES = {"classic": "🟦", "ultimate": "🟧"}
OTHERS = ((120, 177, 89), (170, 142, 214), (221, 46, 68))  # a kind added later: 🟩 🟪 🟥
OTHER_SWATCHES = ("🟩", "🟪", "🟥")
DOTS = 60  # points on a line drawn as dots too, at most

Series = Mapping[str, Sequence[tuple[datetime, float]]]


def colours(kinds: Sequence[str]) -> dict[str, tuple[tuple[int, int, int], str]]:
    """Each kind's colour and emoji square, in `kinds`' order."""
    found, spare = {}, 0
    for kind in kinds:
        if kind in LINES:
            found[kind] = (LINES[kind], SWATCHES[kind])
        else:
            found[kind] = (OTHERS[spare % len(OTHERS)], OTHER_SWATCHES[spare % len(OTHERS)])
            spare += 1
    return found


def step(span: float) -> int:
    """A round step between the rating axis' lines: 4 to 8 lines over `span` points."""
    for candidate in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / candidate <= 7:
            return candidate
    return 1000


def chart(series: Series) -> bytes:
    """The chart of each kind's (time, rating) points, oldest first, as PNG bytes (the same
    points, the same bytes). A kind with no points is left out; at least one must have some."""
    shown = {kind: list(points) for kind, points in series.items() if points}
    if not shown:
        raise ValueError("a chart needs at least one rating")
    values = [value for points in shown.values() for _, value in points]
    times = [at.timestamp() for points in shown.values() for at, _ in points]
    every = step(max(values) - min(values) + 20)
    low = math.floor((min(values) - 10) / every) * every
    high = math.ceil((max(values) + 10) / every) * every
    start, end = min(times), max(times)
    left, top, right, bottom = PLOT

    def x(at: datetime) -> float:
        return (
            (left + right) / 2
            if end == start
            else left
            + INSET
            + (at.timestamp() - start) / (end - start) * (right - left - 2 * INSET)
        )

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    image = Image.new("RGB", (WIDTH, HEIGHT), FRAME)
    pen = ImageDraw.Draw(image)
    pen.rectangle(PLOT, fill=PANEL)
    small = _font(22)
    for value in range(low, high + 1, every):
        pen.line((left, y(value), right, y(value)), fill=GRID, width=1)
        pen.text((left - 12, y(value)), str(value), fill=LABEL, font=small, anchor="rm")
    pen.text((left, top - 10), "Elo", fill=LABEL, font=small, anchor="ls")
    ticks = _ticks(start, end)
    for index, tick in enumerate(ticks):
        day = datetime.fromtimestamp(tick, tz=UTC)
        along = x(day)
        pen.line((along, top, along, bottom), fill=GRID, width=1)
        anchor = "la" if index == 0 and len(ticks) > 1 else "ra" if index == 3 else "ma"
        pen.text(
            (along, bottom + 14), day.strftime("%Y-%m-%d"), fill=LABEL, font=small, anchor=anchor
        )
    for kind, (colour, _) in colours(list(shown)).items():
        points = [(x(at), y(value)) for at, value in shown[kind]]
        if len(points) > 1:
            pen.line(points, fill=colour, width=4, joint="curve")
        if len(points) <= DOTS:
            for px, py in points:
                pen.ellipse((px - 6, py - 6, px + 6, py + 6), fill=colour)
    out = io.BytesIO()
    image.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(out, "PNG")
    return out.getvalue()


def _ticks(start: float, end: float) -> list[float]:
    """Up to four times along the date axis (UTC): the first and last, and evenly between."""
    if end - start < 1:
        return [start]
    return [start + (end - start) * i / 3 for i in range(4)]


@functools.lru_cache(maxsize=4)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(px)


def chart_alt(
    series: Mapping[str, Sequence[tuple[datetime, float]]],
    names: Mapping[str, Text | str],
    locale: str | None,
) -> str:
    """A rating chart's alt text: for each kind's line (`names`: each kind's name), how many
    games, the first and last rating with their dates, the highest and lowest."""
    said = [N_("A chart of the Elo rating over time, one line a kind of game.")]
    for kind, points in series.items():
        if not points:
            continue
        values = [round(value) for _, value in points]
        said.append(
            NP_(
                "{kind}: {n} rated game, from {first} on {start} to {last} on {end}; highest "
                "{high}, lowest {low}.",
                "{kind}: {n} rated games, from {first} on {start} to {last} on {end}; highest "
                "{high}, lowest {low}.",
                len(points),
                kind=names.get(kind, kind),
                first=values[0],
                last=values[-1],
                start=f"{points[0][0]:%Y-%m-%d}",
                end=f"{points[-1][0]:%Y-%m-%d}",
                high=max(values),
                low=min(values),
            )
        )
    return fit(" ".join(text.in_locale(locale) for text in said))
