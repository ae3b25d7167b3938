"""Ultimate's hints and reviews in words: where a player stands (winning, a little better,
even, ...), the balance's numbers only where the words alone would not show a change."""

from __future__ import annotations

import random

import pytest

from bot.games.kinds import ultimate_advice as advice
from bot.i18n import translation
from engine.ultimate import UltimateBoard

ENGLISH = translation("en-US")
FRENCH = translation("fr")


@pytest.mark.parametrize(
    ("balance", "words"),
    [
        (0, "even"),
        (9, "even"),
        (-9, "even"),
        (10, "better"),
        (39, "better"),
        (-10, "worse"),
        (-39, "worse"),
        (40, "winning"),
        (99, "winning"),
        (-40, "losing"),
        (-99, "losing"),
        (100, "won"),
        (-100, "lost"),
    ],
)
def test_a_balance_reads_as_a_standing(balance: int, words: str) -> None:
    """Each band of the balance has its word, the same on both sides of zero."""
    assert advice.standing(balance) == words


def test_the_bands_follow_the_balance_in_order() -> None:
    """Past each threshold the standing only gets better."""
    order = [advice.LOST, "losing", "worse", "even", "better", "winning", advice.WON]
    seen = [order.index(advice.standing(b)) for b in range(-100, 101)]
    assert seen == sorted(seen) and set(seen) == set(range(len(order)))


def test_a_hint_says_where_the_player_stands_in_words() -> None:
    """At the start: a legal cell, and a standing in words, never a number."""
    said = advice.hint([], 0.05).render(ENGLISH)
    assert said.startswith("Play ") and "balance" not in said
    assert not any(ch.isdigit() for ch in said.split(":", 1)[1]), said
    assert (
        said
        in {
            text.render(ENGLISH).format(cell=said.split()[1].rstrip(":"))
            for text in advice.HINTS.values()
        }
        or "force" in said
    )


def _random_game(seed: int, plies: int) -> list[int]:
    rng, board, moves = random.Random(seed), UltimateBoard.from_moves(()), []
    while board.outcome() is None and len(moves) < plies:
        cell = rng.choice(list(board.legal_moves()))
        moves.append(cell)
        board = board.play(cell)
    return moves


def test_a_review_says_how_x_stood_before_and_after_each_named_move() -> None:
    """A game of random moves has slips; each line says X's standing in words, before and
    after (with the numbers only when both are the same band), in English and French."""
    lines = advice.review(_random_game(3, 30), marks={"X": "❌", "O": "⭕"}, depth=3)
    named = [line for line in lines if line.msgid.startswith("Move {number}")]
    assert named
    words = {w.render(ENGLISH) for w in advice.WORDS.values()}
    for line in named:
        said = line.render(ENGLISH)
        assert "balance" not in said
        change = said.split("For ❌: ", 1)[1].rstrip(".")
        if "scale" in change:
            assert change.split(" (")[0] in words
        else:
            before, after = change.split(" → ")
            assert before in words and after in words and before != after
        assert "Pour ❌" in line.render(FRENCH)


def test_the_numbers_show_only_when_the_words_stay_the_same() -> None:
    """even → a little better needs no number; +45 → +80 (winning both) shows them."""
    assert advice._change(0, 20).render(ENGLISH) == "even → a little better"
    assert advice._change(45, 80).render(ENGLISH) == (
        "winning (+45 → +80 on a scale from −100 to +100)"
    )
    assert advice._change(-100, -60).render(ENGLISH) == "a forced loss → losing"
