"""A picture's alt text: every mark by its cell's name, the small boards won, the last move,
whose turn it is and where, or how the game ended; in every shipped language, within Discord's
length for an attachment's description."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.games import kinds
from bot.games.look import Look
from bot.games.record import Ending, Status
from bot.i18n import shipped
from bot.pictures import alt_text
from bot.pictures.words import LIMIT
from tests.bot.picture_support import SHAPES, game, played, won

LOCALES = [None, *(name.replace("_", "-") for name in shipped())]


def cells_said(text: str, size: int) -> set[str]:
    """Every cell name in a text (a board range such as A1–C3 names two)."""
    letters = "ABCDEFGHI"[:size]
    return set(re.findall(rf"(?<![A-Za-z])[{letters}][1-{size}](?![0-9])", text))


@pytest.mark.parametrize(("kind", "size", "k"), SHAPES)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_mark_is_said_by_its_cell_name(
    kind: str, size: int, k: int, locale: str | None
) -> None:
    """Each mark's cells are listed after its mark, in every language; no other cell is."""
    record = played(kind, size, k, 3, plies=11)
    text = alt_text(record, locale)
    sketch = kinds.of(record).sketch(record)
    for side, mark in (("X", "❌"), ("O", "⭕")):
        cells = [
            kinds.of(record).cell_name(record, c) for c, m in enumerate(sketch.marks) if m == side
        ]
        assert ", ".join(cells) in text and mark in text, (side, text)
    taken = {kinds.of(record).cell_name(record, c) for c in record.moves}
    target = sketch.block_names[sketch.target] if sketch.target is not None else ""
    said = cells_said(text, size) - cells_said(target, size)
    for board, winner in zip(sketch.block_names, sketch.won, strict=False):
        if winner is not None:
            said -= cells_said(board, size)
    assert said == taken


def test_whose_turn_where_and_the_last_move_in_english() -> None:
    record = game("classic", 3, 3, (4, 0))
    assert alt_text(record, "en-US") == (
        "Tic-tac-toe · 3×3, 3 in a row. ❌ on B2. ⭕ on A1. Last move: ⭕ on A1. ❌ to move."
    )
    assert alt_text(game("classic", 4, 4), None).endswith("No marks yet. ❌ to move.")
    ultimate = played("ultimate", 9, 3, 5, plies=20)
    sketch = kinds.of(ultimate).sketch(ultimate)
    assert sketch.target is not None
    board = sketch.block_names[sketch.target]
    assert alt_text(ultimate, None).endswith(f"to move, in the board {board}.")


def test_players_names_and_a_servers_marks() -> None:
    """With the players' names, each side is its player and mark; a custom emoji is said by its
    name, never as Discord's markup."""
    record = game("classic", 3, 3, (0, 4, 8), look=Look(x="<:cat:123456789012345678>", o="🐶"))
    text = alt_text(record, "de", names={"X": "Ann", "O": "Bob"})
    assert "Ann (:cat:) auf A1, C3." in text and "Bob (🐶) auf B2." in text
    assert text.endswith("Bob (🐶) ist am Zug.") and "<" not in text


def test_how_a_game_ended() -> None:
    """A win says its line (ultimate: its three boards), a draw says so, a resignation says who
    won; the small boards won are said in ultimate."""
    classic = won("classic", 3, 3)
    line = kinds.of(classic).line_names(classic)
    assert alt_text(classic, None).endswith(f"won with {line}.")
    ultimate = won("ultimate", 9, 3)
    text = alt_text(ultimate, "fr")
    assert "a gagné les petits plateaux" in text
    assert text.endswith(f"a gagné avec {kinds.of(ultimate).line_names(ultimate)}.")
    draw = replace(
        game("classic", 3, 3, (0, 1, 2, 4, 3, 5, 7, 6, 8)),
        status=Status.FINISHED,
        ending=Ending.DRAW,
    )
    assert alt_text(draw, "es").endswith("Tablas.")
    resigned = replace(
        game("classic", 3, 3, (0, 4)), status=Status.FINISHED, ending=Ending.RESIGN, winner="O"
    )
    assert alt_text(resigned, None).endswith("⭕ won.")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_longest_fits_an_attachments_description(locale: str | None) -> None:
    """A long ultimate game with long names, in every language, within Discord's limit."""
    record = won("ultimate", 9, 3, least=60)
    names = {"X": "x" * 32, "O": "o" * 32}
    assert len(alt_text(record, locale, names=names)) <= LIMIT
