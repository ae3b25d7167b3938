"""Draw the pictures the docs' playing page shows, with the bot's own code (``bot.pictures``):

- docs/images/board.png: a 3x3 game won by ❌, as a picture board shows it;
- docs/images/ultimate.png: an ultimate game in progress (won boards filled, the board to play);
- docs/images/replay.gif: the replay of a 4x4 game (k=3), one frame a move;
- docs/images/rating-chart.png: a player's Elo over 40 classic and 15 ultimate games against
  opponents of random ratings, each result drawn by the expected score, every rating moved as the
  bot moves it (``bot.games.rating``).

    python scripts/docs_pictures.py [--seed 3] [--out docs/images]

The same seed and the same fonts draw the same bytes; it prints each picture's alt text.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.games import rating  # noqa: E402
from bot.games.record import Ending, GameRecord, Status  # noqa: E402
from bot.history.chart import chart  # noqa: E402
from bot.pictures import alt_text, board_png, replay  # noqa: E402
from bot.pictures.words import replay_alt  # noqa: E402
from engine.ultimate import UltimateBoard  # noqa: E402

IMAGES = ROOT / "docs" / "images"
# 3x3: ❌ takes the centre, ⭕ a corner, and ❌ wins down the middle column.
BOARD = (4, 0, 1, 8, 7)


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


def game(kind: str, size: int, k: int, moves: tuple[int, ...]) -> GameRecord:
    """A game between two people with these moves, finished as the bot finishes it."""
    position: UltimateBoard | engine.Board = (
        UltimateBoard() if kind == "ultimate" else engine.Board.from_moves((), size=size, k=k)
    )
    for move in moves:
        position = position.play(move)
    record = GameRecord(
        id=1,
        guild_id=1,
        channel_id=1,
        x_id=1,
        o_id=2,
        challenger_id=1,
        size=size,
        k=k,
        kind=kind,
        moves=moves,
    )
    outcome = position.outcome()
    if outcome is None:
        return record
    ending = Ending.WIN if outcome.winner else Ending.DRAW
    return replace(record, status=Status.FINISHED, ending=ending, winner=outcome.winner)


def random_game(rng: random.Random, kind: str, size: int, k: int, plies: int) -> GameRecord:
    """A game of `plies` random legal moves (fewer if it ends first)."""
    position: UltimateBoard | engine.Board = (
        UltimateBoard() if kind == "ultimate" else engine.Board.from_moves((), size=size, k=k)
    )
    moves: list[int] = []
    while len(moves) < plies and position.outcome() is None:
        moves.append(rng.choice(sorted(position.legal_moves())))
        position = position.play(moves[-1])
    return game(kind, size, k, tuple(moves))


def write(out: Path, name: str, data: bytes, alt: str) -> None:
    (out / name).write_bytes(data)
    print(f"wrote {name} ({len(data):,} bytes): {alt}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=IMAGES, help="the folder (docs/images)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = datetime(2026, 10, 1, tzinfo=UTC)
    series = {"classic": games(rng, 40, start, 1640), "ultimate": games(rng, 15, start, 1450)}
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    write(out, "rating-chart.png", chart(series), "a rating chart")
    won = game("classic", 3, 3, BOARD)
    write(out, "board.png", board_png(won), alt_text(won, "en-US"))
    ultimate = random_game(rng, "ultimate", 9, 3, 40)
    write(out, "ultimate.png", board_png(ultimate), alt_text(ultimate, "en-US"))
    played = random_game(rng, "classic", 4, 3, 16)
    write(out, "replay.gif", replay(played), replay_alt(played, "en-US"))


if __name__ == "__main__":
    main()
