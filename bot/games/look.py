"""How a board looks and takes moves: the marks of X, O and the empty cell, whether players move by
buttons, reactions or both, and whether the board is drawn with emoji or as a picture. A server
chooses (``ServerSettings``); a game keeps the look it started with (``GameRecord.look``),
whatever the setting becomes later.

Pure values. A mark is the text of an emoji: a Unicode emoji as it is ("🐱"), a custom emoji as
Discord writes it in a message (``<:name:id>``, ``<a:name:id>`` when animated). Whether a custom
emoji can be shown is Discord's to say (``bot.discord_ui.emoji``); here only its form is checked.

With reactions, each cell has a key (``keys``): on 3x3 a keycap per cell, on 4x4 a letter per
cell, both in reading order (at most 20 reactions fit on a message); on 5x5 a column letter then
a row number, the board showing the column picked until the row comes.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import emoji

INPUTS = ("buttons", "reactions", "both")
STYLES = ("emoji", "picture")  # the board as emoji in its text, or as a picture above its buttons
MAX_MARK = 64  # characters: a custom emoji's text is at most about 60
CUSTOM = re.compile(r"<(?P<animated>a?):(?P<name>[A-Za-z0-9_]{2,32}):(?P<id>[0-9]{15,21})>")
KEYCAPS = [f"{digit}\ufe0f\u20e3" for digit in "123456789"]
LETTERS = [chr(0x1F1E6 + i) for i in range(26)]  # regional indicators A to Z


def custom_parts(mark: str) -> tuple[int, str, bool] | None:
    """(id, name, animated) of a custom emoji's text, None for anything else."""
    match = CUSTOM.fullmatch(mark)
    if match is None:
        return None
    return int(match["id"]), match["name"], bool(match["animated"])


def is_unicode_emoji(text: str) -> bool:
    """Whether `text` is one Unicode emoji (Unicode's own list: a pictograph with its variation
    selector or skin tone, a sequence joined by zero-width joiners, a flag, a keycap), written
    with or without its variation selectors."""
    return canonical(text) is not None


def canonical(text: str) -> str | None:
    """The form of a Unicode emoji that Discord knows, however many variation selectors `text`
    has: its fully qualified form where Unicode has one, else as Unicode lists it; None when
    `text` is no emoji."""
    plain = _plain(text)
    found = _qualified().get(plain)
    if found is not None:
        return found
    return next((form for form in (plain, text) if form in emoji.EMOJI_DATA), None)


@functools.cache
def _qualified() -> dict[str, str]:
    """Each fully qualified emoji by its text without variation selectors (built once)."""
    full = emoji.STATUS["fully_qualified"]
    return {_plain(text): text for text, data in emoji.EMOJI_DATA.items() if data["status"] == full}


def same_mark(mark: str) -> str:
    """What makes two marks the same emoji: a custom emoji's id (whatever name or animation
    its text says), a Unicode emoji without its variation selectors."""
    parts = custom_parts(mark)
    return f"<{parts[0]}>" if parts is not None else _plain(mark)


def is_mark(text: str) -> bool:
    """Whether `text` has the form of a mark: one Unicode emoji or one custom emoji."""
    return custom_parts(text) is not None or is_unicode_emoji(unicodedata.normalize("NFC", text))


@dataclass(frozen=True, slots=True)
class Look:
    """The marks and the input of one board, and whether its end offers a rematch (not a
    tournament game's: its thread is archived when it ends)."""

    x: str = "❌"
    o: str = "⭕"
    empty: str = "⬜"
    input: str = "buttons"
    style: str = "emoji"
    rematch: bool = True

    def mark(self, side: str) -> str:
        """The mark of "X" or "O"."""
        return self.x if side == "X" else self.o

    @property
    def buttons(self) -> bool:
        """Whether cells are buttons."""
        return self.input != "reactions"

    @property
    def reactions(self) -> bool:
        """Whether moves are made by reactions."""
        return self.input != "buttons"

    @property
    def picture(self) -> bool:
        """Whether the board is shown as a picture."""
        return self.style == "picture"

    def to_text(self) -> str:
        """As stored: empty for the default look, else a JSON object of what differs."""
        return _as_text(self)

    @classmethod
    def from_text(cls, text: str) -> Look:
        """`to_text` read back; anything malformed reads as the default."""
        if not text:
            return DEFAULT
        try:
            raw = json.loads(text)
        except ValueError:
            return DEFAULT
        if not isinstance(raw, dict):
            return DEFAULT
        # A stored look was checked when its server chose it: a mark read back is kept as the
        # board showed it (the checks may have grown stricter since); only junk is dropped.
        found = {
            k: v
            for k, v in raw.items()
            if k in ("x", "o", "empty") and isinstance(v, str) and 0 < len(v) <= MAX_MARK
        }
        if raw.get("input") in INPUTS:
            found["input"] = raw["input"]
        if raw.get("style") in STYLES:
            found["style"] = raw["style"]
        return cls(**found, rematch=raw.get("rematch") is not False)


DEFAULT = Look()


@functools.lru_cache(maxsize=256)
def _as_text(look: Look) -> str:
    # Every save of a game writes its look: its JSON is built once per look, not per save.
    changed: dict[str, str | bool] = {
        name: value
        for name, value in (("x", look.x), ("o", look.o), ("empty", look.empty))
        if value != getattr(DEFAULT, name)
    }
    if look.input != DEFAULT.input:
        changed["input"] = look.input
    if look.style != DEFAULT.style:
        changed["style"] = look.style
    if not look.rematch:
        changed["rematch"] = False
    return json.dumps(changed, ensure_ascii=False, sort_keys=True) if changed else ""


def valid(look: Look) -> bool:
    """Three different marks of the right form, and a known input."""
    marks = (look.x, look.o, look.empty)
    known = look.input in INPUTS and look.style in STYLES
    return known and all(map(is_mark, marks)) and _distinct(look)


def _distinct(look: Look) -> bool:
    return len({same_mark(mark) for mark in (look.x, look.o, look.empty)}) == 3


def without(look: Look, gone: set[int]) -> Look:
    """`look` with each mark that names a custom emoji in `gone` (deleted) back to its default;
    all three marks back to theirs if that would make two of them the same."""

    def mark(side: str) -> str:
        shown: str = getattr(look, side)
        return str(getattr(DEFAULT, side)) if _names(shown, gone) else shown

    kept = dataclasses.replace(look, x=mark("x"), o=mark("o"), empty=mark("empty"))
    if kept == look or _distinct(kept):
        return kept
    return dataclasses.replace(look, x=DEFAULT.x, o=DEFAULT.o, empty=DEFAULT.empty)


def custom_ids(look: Look) -> set[int]:
    """The ids of the custom emojis among a look's marks."""
    parts = (custom_parts(mark) for mark in (look.x, look.o, look.empty))
    return {found[0] for found in parts if found is not None}


def _names(mark: str, gone: set[int]) -> bool:
    parts = custom_parts(mark)
    return parts is not None and parts[0] in gone


def component_emoji(mark: str) -> dict[str, Any]:
    """A mark as a component's emoji: a Unicode emoji by name, a custom one by id."""
    custom = custom_parts(mark)
    if custom is None:
        return {"id": None, "name": mark}
    emoji_id, name, animated = custom
    return {"id": str(emoji_id), "name": name, "animated": animated}


def keys(size: int) -> list[str]:
    """The reactions a board of `size` carries, in the order they are added."""
    if size == 3:
        return KEYCAPS[:9]
    if size == 4:
        return LETTERS[:16]
    return LETTERS[:size] + [f"{digit}\ufe0f\u20e3" for digit in "12345"[:size]]


def picks_cell(size: int) -> bool:
    """Whether one reaction names a cell (3x3, 4x4); else a column, then a row (5x5)."""
    return size <= 4


def read_key(size: int, key: str) -> tuple[str, int] | None:
    """What a reaction means on a board of `size`: ("cell", n), ("column", n), ("row", n), or
    None when it is none of the board's keys."""
    key = _plain(key)
    board_keys = [_plain(k) for k in keys(size)]
    if key not in board_keys:
        return None
    index = board_keys.index(key)
    if picks_cell(size):
        return ("cell", index)
    return ("column", index) if index < size else ("row", index - size)


def _plain(key: str) -> str:
    """A key without variation selectors: clients send keycaps with or without one."""
    return key.replace("\ufe0f", "")
