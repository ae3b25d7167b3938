"""Elo ratings for games between people (pure arithmetic, no I/O).

Every player starts at ``DEFAULT_RATING`` (1500, the customary Elo starting point) and each
rated game moves both ratings by at most ``K`` (32, the usual factor for a small, casual pool
where ratings should settle within a few dozen games). The update is zero-sum: what one player
gains the other loses. Ratings are kept as floats; rounding is for display only.
"""

from __future__ import annotations

DEFAULT_RATING = 1500.0
K = 32.0

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


def expected(ra: float, rb: float) -> float:
    """The score player A is expected to make against player B (0 to 1)."""
    return 1.0 / (1.0 + float(10.0 ** ((rb - ra) / 400.0)))


def update(ra: float, rb: float, score_a: float, *, k: float = K) -> tuple[float, float]:
    """Both ratings after one game in which A scored ``score_a`` (1 win, 0.5 draw, 0 loss)."""
    if not 0.0 <= score_a <= 1.0:
        raise ValueError(f"score must be between 0 and 1, not {score_a}")
    delta = k * (score_a - expected(ra, rb))
    return ra + delta, rb - delta
