"""An arena (as Lichess runs them), pure: its points and pairing the players who are free.

Points: a win 2, a draw 1, a loss 0; after two wins in a row each further win counts double (4),
the streak shown as 🔥, until a game is not won (a draw then counts 1 and ends the streak).
Pairing: as soon as two players are free they are paired, the nearest scores first, never the two
who have just played each other while anyone else may come free; between equal scores the one
who has waited longer goes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.tournaments.record import CROSS, DRAW, NOUGHT, WIN, Tally

POINTS_WIN, POINTS_DRAW = 2, 1
STREAK = 2  # wins in a row after which a win counts double


@dataclass(frozen=True)
class Points:
    """A player's arena points and whether they are on a streak (🔥)."""

    points: int
    on_fire: bool
    wins: int


def points(results: Sequence[float]) -> Points:
    """The points of a player's finished games, in the order they were played."""
    total = row = wins = 0
    for result in results:
        if result == WIN:
            total += POINTS_WIN * (2 if row >= STREAK else 1)
            row += 1
            wins += 1
        else:
            total += POINTS_DRAW if result == DRAW else 0
            row = 0
    return Points(total, row >= STREAK, wins)


def pair_free(
    free: Sequence[int], records: Mapping[int, Tally], *, playing: int
) -> list[tuple[int, int]]:
    """Pairs (❌, ⭕) of the free players (``free`` in the order they became free), with
    ``playing`` games still going on; who is left waits for the next player to be free. A
    player with no game yet needs no record."""
    records = {player: records.get(player) or Tally() for player in free}
    score = {player: points(records[player].results).points for player in free}
    waiting = sorted(free, key=lambda player: -score[player])
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        options = [other for other in waiting if not _just_met(first, other, records)]
        if not options and playing == 0 and len(waiting) == 1:
            options = waiting  # nobody else will come free: a rematch beats waiting forever
        if not options:
            continue
        other = min(options, key=lambda other: abs(score[other] - score[first]))
        waiting.remove(other)
        pairs.append(_sides(first, other, records))
    return pairs


def _just_met(a: int, b: int, records: Mapping[int, Tally]) -> bool:
    last_a, last_b = records[a].opponents[-1:], records[b].opponents[-1:]
    return last_a == [b] or last_b == [a]


def _sides(a: int, b: int, records: Mapping[int, Tally]) -> tuple[int, int]:
    """❌ to the one who has played it less (else who did not play it last)."""
    colours = {p: records[p].colours for p in (a, b)}
    balance = {p: colours[p].count(CROSS) - colours[p].count(NOUGHT) for p in (a, b)}
    if balance[a] != balance[b]:
        return (a, b) if balance[a] < balance[b] else (b, a)
    return (b, a) if records[a].colours[-1:] == [CROSS] else (a, b)
