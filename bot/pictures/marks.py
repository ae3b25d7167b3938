"""The marks in a picture: a Unicode emoji drawn from the colour emoji font, at any size.

The font is Noto Color Emoji (Debian's ``fonts-noto-color-emoji``): its glyphs are colour
bitmaps at one size, so a glyph is drawn at that size (109, 136 x 128 pixels) with
``embedded_color`` and then scaled. A server's custom emoji is drawn from its image, once the
bot has fetched it from Discord and handed it over (``add_custom``). A mark that cannot be drawn
(a custom emoji whose image is not here; a sequence the font does not have; any mark when the
font is missing) falls back to its side's default, ❌ or ⭕, with one log line for each such
mark; without the font, ❌ and ⭕ are drawn as shapes of their colours.
"""

from __future__ import annotations

import functools
import io
import logging
import threading
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from bot.games.look import DEFAULT, custom_parts

log = logging.getLogger(__name__)

# Where Debian (and most Linux systems) install the font; the first found is used.
FONT_PATHS = (
    Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"),
    Path("/usr/share/fonts/noto/NotoColorEmoji.ttf"),
    Path("/usr/share/fonts/google-noto-color-emoji/NotoColorEmoji.ttf"),
)
STRIKE = 109  # the one size of the font's bitmaps
GLYPH = 136  # the advance of one glyph at that size: wider means the font drew several
RED = (244, 67, 54)  # ❌ and ⭕ as the font colours them, for the shapes drawn without it
CUSTOM_SIDE = 128  # pixels a side of a custom emoji's image, as kept
MAX_CUSTOM = 512  # custom emoji images kept, at most (the oldest dropped first)

_customs: dict[int, Image.Image] = {}  # custom emoji images by id, as handed over
_customs_lock = threading.Lock()
_generation = 0  # custom emoji images kept so far (``generation``)


def add_custom(emoji_id: int, data: bytes) -> bool:
    """Keep a custom emoji's image (PNG, GIF or WebP bytes, as Discord's CDN serves it), scaled
    to `CUSTOM_SIDE`; False (and nothing kept) when the bytes are no image."""
    try:
        with Image.open(io.BytesIO(data)) as opened:
            image = opened.convert("RGBA")
    except (OSError, ValueError, Image.DecompressionBombError):
        return False
    image.thumbnail((CUSTOM_SIDE, CUSTOM_SIDE), Image.Resampling.LANCZOS)
    box = image.getbbox()
    if box is None:
        return False
    with _customs_lock:
        while len(_customs) >= MAX_CUSTOM:
            _customs.pop(next(iter(_customs)))
        _customs[emoji_id] = image.crop(box)
    glyph.cache_clear()  # a mark drawn as its default before may be drawn as itself now
    global _generation
    _generation += 1
    return True


def generation() -> int:
    """How many custom emoji images have been kept so far: pieces drawn with the marks of an
    earlier generation may show a default where the mark can be drawn now."""
    return _generation


def has_custom(emoji_id: int) -> bool:
    """Whether a custom emoji's image is kept."""
    return emoji_id in _customs


@functools.cache
def font() -> ImageFont.FreeTypeFont | None:
    """The colour emoji font, loaded once; None (and one log line) when it is missing."""
    for path in FONT_PATHS:
        if path.is_file():
            # Raqm shapes a sequence (a flag, a skin tone, a family) into its one glyph.
            engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
            return ImageFont.truetype(str(path), STRIKE, layout_engine=engine)
    log.warning(
        "pictures: no colour emoji font (install fonts-noto-color-emoji): marks are "
        "drawn as ❌ and ⭕"
    )
    return None


def _drawn(mark: str) -> Image.Image | None:
    """The mark at the font's size (a custom emoji: its image), cropped to what it covers; None
    when it cannot be drawn."""
    parts = custom_parts(mark)
    if parts is not None:
        found = _customs.get(parts[0])
        if found is None:
            _unfetched(mark)
        return found
    return _unicode(mark)


@functools.lru_cache(maxsize=256)
def _unfetched(mark: str) -> None:
    """One log line for a custom emoji drawn without its image (each time it is seen again
    after 256 others)."""
    log.info(
        "pictures: the mark %s cannot be drawn (a custom emoji not fetched): drawn as "
        "its side's default",
        mark,
    )


@functools.lru_cache(maxsize=1024)
def _unicode(mark: str) -> Image.Image | None:
    """A Unicode emoji at the font's size; None when it cannot be drawn (one log line each time
    a mark is seen again after 1,024 others)."""
    emoji_font = font()
    if emoji_font is None:
        return None
    reason = None
    if emoji_font.getlength(mark) > GLYPH * 1.2:
        reason = "not one glyph of the font"
    else:
        canvas = Image.new("RGBA", (GLYPH * 2, GLYPH * 2), (0, 0, 0, 0))
        ImageDraw.Draw(canvas).text(
            (GLYPH // 2, GLYPH // 2), mark, font=emoji_font, embedded_color=True
        )
        box = canvas.getbbox()
        if box is not None:
            return canvas.crop(box)
        reason = "not in the font"
    log.info(
        "pictures: the mark %s cannot be drawn (%s): drawn as its side's default", mark, reason
    )
    return None


def drawable(mark: str) -> bool:
    """Whether a mark can be drawn from the font."""
    return _drawn(mark) is not None


def resolve(x: str, o: str) -> tuple[str, str]:
    """The marks a picture draws for X and O: each as chosen where it can be drawn, else its
    side's default; both defaults where that would make the two the same."""
    shown = (x if drawable(x) else DEFAULT.x, o if drawable(o) else DEFAULT.o)
    return shown if shown[0] != shown[1] else (DEFAULT.x, DEFAULT.o)


@functools.lru_cache(maxsize=256)
def glyph(mark: str, px: int) -> Image.Image:
    """The mark scaled to fit a `px` square (RGBA, centred), ❌ or ⭕ as shapes without the
    font. The caller must not change it: it is shared."""
    drawn = _drawn(mark)
    if drawn is None:
        return _shape("O" if mark == DEFAULT.o else "X", px)
    scale = px / max(drawn.size)
    size = (max(1, round(drawn.width * scale)), max(1, round(drawn.height * scale)))
    scaled = drawn.resize(size, Image.Resampling.LANCZOS)
    square = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    square.paste(scaled, ((px - size[0]) // 2, (px - size[1]) // 2))
    return square


def _shape(side: str, px: int) -> Image.Image:
    """❌ or ⭕ drawn as shapes where the font draws them, four times larger then scaled down
    (smooth edges)."""
    big = px * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if side == "X":
        ends = (big // 8, big - big // 8)
        draw.line((ends[0], ends[0], ends[1], ends[1]), fill=RED, width=big // 6)
        draw.line((ends[0], ends[1], ends[1], ends[0]), fill=RED, width=big // 6)
    else:  # the ring from 0.35 to 0.45 of the side from the centre, as the font's
        draw.ellipse(
            (big // 20, big // 20, big - big // 20, big - big // 20), outline=RED, width=big // 10
        )
    return image.resize((px, px), Image.Resampling.LANCZOS)
