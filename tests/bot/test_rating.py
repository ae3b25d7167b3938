"""Elo arithmetic against worked numbers."""

from __future__ import annotations

import pytest

from bot.games.rating import DEFAULT_RATING, K, expected, update


def test_equal_ratings_expect_half() -> None:
    """Two equal players are each expected to score one half."""
    assert expected(1500, 1500) == 0.5


def test_four_hundred_points_is_ten_to_one() -> None:
    """A 400-point gap means odds of 10 to 1: expected score 10/11."""
    assert expected(1900, 1500) == pytest.approx(10 / 11)
    assert expected(1500, 1900) == pytest.approx(1 / 11)


def test_win_between_equals_moves_half_of_k() -> None:
    """A win between equals moves each rating by K/2 (16 points)."""
    assert K == 32 and DEFAULT_RATING == 1500
    assert update(1500, 1500, 1.0) == (1516.0, 1484.0)
    assert update(1500, 1500, 0.0) == (1484.0, 1516.0)
    assert update(1500, 1500, 0.5) == (1500.0, 1500.0)


def test_known_upset_and_expected_win() -> None:
    """1600 beats 1400: +7.68 (expected 0.7597); 1400 beats 1600: +24.31."""
    win_a, lose_b = update(1600, 1400, 1.0)
    assert win_a == pytest.approx(1607.688, abs=1e-3)
    assert lose_b == pytest.approx(1392.312, abs=1e-3)
    upset_a, upset_b = update(1600, 1400, 0.0)
    assert upset_a == pytest.approx(1575.688, abs=1e-3)
    assert upset_b == pytest.approx(1424.312, abs=1e-3)


def test_draw_moves_the_favourite_down() -> None:
    """A draw against a weaker player costs the favourite what the other gains."""
    a, b = update(1600, 1400, 0.5)
    assert a == pytest.approx(1600 - 32 * (0.7597469 - 0.5), abs=1e-4)
    assert a + b == pytest.approx(3000)


def test_score_outside_range_is_refused() -> None:
    """A score other than 0..1 is a programming error."""
    with pytest.raises(ValueError):
        update(1500, 1500, 2)
