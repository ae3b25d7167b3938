"""A board's look as pure values (``bot.games.look``): which marks are emojis and in what form
they are kept, when two marks are the same, reading a stored look back, and marks whose custom
emoji is gone."""

from __future__ import annotations

import emoji
import pytest

from bot.games import look as looks
from bot.games.look import Look

STAR = "<:star:123456789012345678>"
STAR_AGAIN = "<a:shiny:123456789012345678>"  # the same emoji under another name
DOT = "<:dot:223456789012345678>"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("⭕", "⭕"),
        ("⭕\ufe0f", "⭕"),  # a selector Unicode does not list for it
        ("🐱\ufe0f\ufe0f", "🐱"),
        ("1\u20e3", "1\ufe0f\u20e3"),  # a keycap without its selector: the qualified form
        ("©", "©\ufe0f"),
        ("🇯🇵", "🇯🇵"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("👍🏽", "👍🏽"),
        ("🏋\u200d♂", "🏋\ufe0f\u200d♂\ufe0f"),  # selectors missing after the first character too
        ("🏳\u200d🌈", "🏳\ufe0f\u200d🌈"),
    ],
)
def test_a_unicode_emoji_is_kept_in_the_form_discord_knows(typed: str, kept: str) -> None:
    """However many variation selectors were typed, the mark is kept in Unicode's own form."""
    assert looks.is_mark(typed)
    assert looks.canonical(typed) == kept


def test_every_emoji_typed_without_its_selectors_is_kept_fully_qualified() -> None:
    full = emoji.STATUS["fully_qualified"]
    qualified = [text for text, data in emoji.EMOJI_DATA.items() if data["status"] == full]
    assert len(qualified) > 3000
    for text in qualified:
        assert looks.canonical(text.replace("\ufe0f", "")) == text, text
        assert looks.canonical(text + "\ufe0f") == text, text


@pytest.mark.parametrize("text", ["→", "■", "℃", "x", "🇦", "🐱🐶", "", ":cat:"])
def test_symbols_letters_and_two_emojis_are_no_mark(text: str) -> None:
    assert not looks.is_mark(text) and looks.canonical(text) is None


def test_the_same_mark_whatever_its_selectors_or_its_name() -> None:
    assert not looks.valid(Look(x="⭕\ufe0f"))
    assert not looks.valid(Look(x=STAR, o=STAR_AGAIN))
    assert looks.valid(Look(x=STAR, o=DOT))


def test_a_stored_look_reads_back_as_it_was_shown() -> None:
    """A mark stored before the checks grew stricter is read back as the board showed it, and
    so is the input; only junk goes back to the default."""
    stored = Look(x="→", input="reactions")
    assert Look.from_text(stored.to_text()) == stored
    assert Look.from_text('{"x": 5, "o": "", "input": "bogus"}') == Look()
    assert Look.from_text("not json") == Look()
    assert Look.from_text("") == looks.DEFAULT


def test_marks_of_a_deleted_emoji_go_back_to_their_defaults() -> None:
    """Only the marks naming a deleted emoji change; if that would make two marks the same,
    all three go back."""
    gone = {123456789012345678}
    assert looks.without(Look(x="🐱", o=STAR, input="both"), gone) == Look(x="🐱", input="both")
    assert looks.without(Look(x="⭕", o=STAR), gone) == Look()
    assert looks.without(Look(x=DOT), gone) == Look(x=DOT)
    # A stored mark that the settings' checks refuse (an arrow, no emoji) does not count against
    # the others.
    assert looks.without(Look(x="→", o=STAR), gone) == Look(x="→")
    assert looks.custom_ids(Look(x=STAR, o=DOT)) == {123456789012345678, 223456789012345678}


def test_a_board_without_rematch_keeps_none_through_the_store_and_a_lost_emoji() -> None:
    """A tournament game's look offers no rematch: stored as such (older looks, without the
    key, offer one), and kept when a deleted emoji's marks go back to their defaults."""
    board = Look(x=STAR, style="picture", rematch=False)
    assert Look.from_text(board.to_text()) == board
    assert Look.from_text('{"x": "🐱"}').rematch and Look().to_text() == ""
    assert looks.without(board, {123456789012345678}) == Look(style="picture", rematch=False)
