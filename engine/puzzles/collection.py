"""The shipped puzzle set: read once from engine/data/puzzles.txt, and served by rating or by day.

The file is written by scripts/build_puzzles.py: one puzzle a line (engine.puzzles.Puzzle's
text form), comment lines starting with ``#`` stating how it was built. A malformed line raises
PuzzleError naming the line.
"""

from __future__ import annotations

import hashlib
import os

from engine.puzzles.proof import Puzzle, PuzzleError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from collections.abc import Collection, Sequence

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "puzzles.txt")
_SET: list[Puzzle] = []

# A player is offered puzzles rated within this of their own rating, widened until one is found.
NEAR = 100


def parse(text: str) -> list[Puzzle]:
    """The puzzles of a data file's text, in file order; ids must be unique."""
    out: list[Puzzle] = []
    ids: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw or raw.startswith("#"):
            continue
        try:
            puzzle = Puzzle.from_line(raw)
        except PuzzleError as exc:
            raise PuzzleError(f"puzzle line {number}: {exc}: {raw!r}") from None
        if puzzle.id in ids:
            raise PuzzleError(f"puzzle line {number}: the id {puzzle.id} is used twice")
        ids.add(puzzle.id)
        out.append(puzzle)
    return out


def puzzles() -> list[Puzzle]:
    """The shipped set, read once per process."""
    if not _SET:
        with open(DATA, encoding="ascii") as f:
            _SET.extend(parse(f.read()))
    return _SET


def by_id(pid: str) -> Puzzle | None:
    """The shipped puzzle with id `pid`, if any."""
    return next((p for p in puzzles() if p.id == pid), None)


def near(
    rating: float,
    rng: random.Random,
    *,
    done: Collection[str] = (),
    ratings: dict[str, float] | None = None,
    pool: Sequence[Puzzle] | None = None,
) -> Puzzle:
    """A puzzle of `pool` (the shipped set) not in `done`, rated near `rating`, at random.

    A puzzle's rating is `ratings[id]` where known (as play has moved it), else its difficulty.
    Once every puzzle is done, done ones are offered again.
    """
    pool = puzzles() if pool is None else pool
    fresh = [p for p in pool if p.id not in done] or list(pool)

    def rated(p: Puzzle) -> float:
        return ratings.get(p.id, p.difficulty) if ratings else p.difficulty

    width = NEAR
    while True:
        close = [p for p in fresh if abs(rated(p) - rating) <= width]
        if close:
            return rng.choice(close)
        width *= 2


def daily(day: int, place: int, *, pool: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of day number `day` (date.toordinal()) for the place `place` (a server id):
    the same for everyone there that day, and another the next day."""
    pool = puzzles() if pool is None else pool
    digest = hashlib.sha256(f"{place}:{day}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]
