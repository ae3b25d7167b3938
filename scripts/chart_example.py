"""Draw the rating chart the docs show (docs/images/rating-chart.png) with the bot's own code:
a player's Elo over 40 classic and 15 ultimate games against opponents of random ratings, each
result drawn by the expected score, every rating moved as the bot moves it (``bot.games.rating``).

    python scripts/chart_example.py [--seed 3]

The same seed draws the same bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games import rating  # noqa: E402
from bot.pictures.chart import chart  # noqa: E402

OUT = ROOT / "docs" / "images" / "rating-chart.png"


def games(
    rng: random.Random, count: int, start: datetime, skill: float
) -> list[tuple[datetime, float]]:
    """A player of true strength `skill`: their rating after each of `count` games."""
    mine, points = rating.DEFAULT_RATING, []
    at = start
    for _ in range(count):
        theirs = rng.gauss(1500, 120)
        expected = 1 / (1 + 10 ** ((theirs - skill) / 400))
        score = 1.0 if rng.random() < expected else 0.0
        mine, _ = rating.update(mine, theirs, score)
        at += timedelta(hours=rng.uniform(6, 40))
        points.append((at, mine))
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = datetime(2026, 10, 1, tzinfo=UTC)
    series = {"classic": games(rng, 40, start, 1640), "ultimate": games(rng, 15, start, 1450)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(chart(series))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
