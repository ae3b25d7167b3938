"""Glicko-2 ratings for puzzle attempts (pure arithmetic, no I/O).

Each attempt is a game between a player and a puzzle: the player scores 1 for a clean solve (no
hint), 0 otherwise, and both ratings move, by less the surer each rating is. A rating is a
rating, its deviation (how unsure it is: 350 for a newcomer, shrinking with play) and its
volatility. The algorithm is Glickman's ("Example of the Glicko-2 system", 2013), one game a
rating period for an attempt; TAU = 0.5, within his suggested range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's factor between its internal scale and the rating scale
TAU = 0.5
EPSILON = 0.000001
FLOOR = 30.0  # a deviation never drops below this, so ratings keep moving a little


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the usual scale (1500 for a newcomer)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(a: Rating, b: Rating) -> float:
    """The score `a` is expected to make against `b` (0 to 1)."""
    mu, mu_b, phi_b = (a.rating - 1500) / SCALE, (b.rating - 1500) / SCALE, b.deviation / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi_b) * (mu - mu_b)))


def update(a: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """`a`'s rating after one rating period of `games` (each an opponent and `a`'s score: 1,
    0.5 or 0)."""
    mu, phi, sigma = (a.rating - 1500) / SCALE, a.deviation / SCALE, a.volatility
    if not games:
        return Rating(a.rating, min(350.0, SCALE * math.sqrt(phi * phi + sigma * sigma)), sigma)
    inv_v = 0.0
    total = 0.0
    for b, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be between 0 and 1, not {score}")
        g = _g(b.deviation / SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - (b.rating - 1500) / SCALE)))
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    sigma = _volatility(v * total, phi, v, sigma)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(1500 + SCALE * mu_new, max(FLOOR, SCALE * phi_new), sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (his step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        step = 1
        while f(a - step * TAU) < 0:
            step += 1
        big_b = a - step * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (`solved`: cleanly, no hint)."""
    score = 1.0 if solved else 0.0
    return update(player, [(puzzle, score)]), update(puzzle, [(player, 1.0 - score)])
