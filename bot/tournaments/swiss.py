"""Pairing a Swiss round (pure): near scores, no rematch, colours balanced, one bye a player.

The rules, in the order they give way when not all can hold:

1. Nobody meets the same opponent twice (given up only where no pairing without a rematch exists,
   as in a field of four in a fourth round).
2. Nobody plays the same side three times in a row, and nobody's ❌ and ⭕ counts differ by more
   than two (the colour rules FIDE calls absolute).
3. Players meet others of their own score, or the nearest score there is; within a score group
   the top half meets the bottom half in order (1 meets n/2+1), as in the Dutch system.
4. Each gets the side they are due (the one they played less, else the other side from last
   time), the higher ranked first where both are due the same.

An odd player out gets a bye: a point, to the lowest ranked who has not had one (and whose absence
leaves the rest a pairing); a second bye only once every player has had one (more rounds than
players: the store refuses it, so a tournament's rounds stay fewer than its players).

The search pairs the highest-ranked player left with the best opponent the rules allow and backs
up when the rest cannot be paired; a failed set of players is remembered, so a round of 256 pairs
in milliseconds (`benchmarks/tournaments.py`).

Not a FIDE Dutch engine: the FIDE engine on PyPI (caissify-pairings, Apache-2.0) paired a second
round of 256 players in over two minutes here, where a Discord round needs well under a second;
this keeps the rules a tournament of a server's members needs, each checked by the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.tournaments.record import CROSS, NOUGHT, Bye, Game, Tally, tally

# How hard a player wants a side: absolute (rule 2), strong (one side played more), mild (the
# other side from last time), none (no game yet).
ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
# The search's steps before it gives up a rule (a pathological round; never seen in the tests).
BUDGET = 200_000


@dataclass(frozen=True)
class Round:
    """A round's pairings (❌ first) in table order, the player with the bye, and how many rules
    had to give way (0: every rule held; 1: a colour rule; 2: a rematch)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    relaxed: int = 0


def due(colours: Sequence[str]) -> tuple[str | None, int]:
    """The side a player is due and how strongly."""
    balance = colours.count(CROSS) - colours.count(NOUGHT)
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return (NOUGHT if colours[-1] == CROSS else CROSS), ABSOLUTE
    if abs(balance) >= 2:
        return (NOUGHT if balance > 0 else CROSS), ABSOLUTE
    if balance:
        return (NOUGHT if balance > 0 else CROSS), STRONG
    if colours:
        return (NOUGHT if colours[-1] == CROSS else CROSS), MILD
    return None, NONE


def pair(entrants: Sequence[int], games: Iterable[Game], byes: Iterable[Bye] = ()) -> Round:
    """The next round for the players still in (``entrants``, strongest seed first)."""
    byes = list(byes)
    records = tally(games, byes)
    seed = {player: index for index, player in enumerate(entrants)}
    record = {player: records.get(player, Tally()) for player in entrants}
    order = sorted(entrants, key=lambda player: (-record[player].score, seed[player]))
    search = _Search(order, record)
    for relaxed in range(3):
        bye: int | None = None
        players = order
        if len(order) % 2:
            bye = search.bye(relaxed)
            if bye is None:
                continue
            players = [player for player in order if player != bye]
        found = search.run(players, relaxed)
        if found is not None:
            return Round(tuple(search.sides(found)), bye, relaxed)
    raise AssertionError("a pairing with rematches allowed always exists")


class _Search:
    def __init__(self, order: list[int], record: dict[int, Tally]) -> None:
        self.order = order
        self.rank = {player: index for index, player in enumerate(order)}
        self.record = record
        self.met = {player: set(record[player].opponents) for player in order}
        self.due = {player: due(record[player].colours) for player in order}
        # Each player's place in their score group and the group's size (the Dutch halves).
        groups: dict[float, list[int]] = {}
        for player in order:
            groups.setdefault(record[player].score, []).append(player)
        self.place = {p: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}

    def bye(self, relaxed: int) -> int | None:
        """The lowest ranked without a bye whose absence leaves a pairing (anyone, if all had)."""
        fresh = [player for player in reversed(self.order) if not self.record[player].byes]
        for player in fresh or list(reversed(self.order)):
            rest = [other for other in self.order if other != player]
            if self.run(rest, relaxed) is not None:
                return player
        return None

    def run(self, players: list[int], relaxed: int) -> list[tuple[int, int]] | None:
        self.failed: set[frozenset[int]] = set()
        self.steps = 0
        return self._pair(tuple(players), relaxed)

    def _pair(self, left: tuple[int, ...], relaxed: int) -> list[tuple[int, int]] | None:
        if not left:
            return []
        key = frozenset(left)
        if key in self.failed or self.steps > BUDGET:
            return None
        first, rest = left[0], left[1:]
        for other in sorted(rest, key=lambda other: self._cost(first, other)):
            self.steps += 1
            if not self._allowed(first, other, relaxed):
                continue
            paired = self._pair(tuple(p for p in rest if p != other), relaxed)
            if paired is not None:
                return [(first, other), *paired]
        self.failed.add(key)
        return None

    def _allowed(self, a: int, b: int, relaxed: int) -> bool:
        if relaxed < 2 and b in self.met[a]:
            return False
        return relaxed >= 1 or self._clash(a, b) < ABSOLUTE

    def _clash(self, a: int, b: int) -> int:
        """How hard two players want the same side (0 when they can both have theirs)."""
        (side_a, want_a), (side_b, want_b) = self.due[a], self.due[b]
        return min(want_a, want_b) if side_a is not None and side_a == side_b else 0

    def _cost(self, a: int, b: int) -> tuple[float, int, int, int]:
        gap = abs(self.record[a].score - self.record[b].score)
        (index_a, size), (index_b, _) = self.place[a], self.place[b]
        halves = abs(index_b - (index_a + size // 2)) if gap == 0 else index_b
        return gap, self._clash(a, b), halves, self.rank[b]

    def sides(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Each pair as (❌, ⭕), the tables in the order of their higher-ranked player."""
        out = []
        for table, (a, b) in enumerate(sorted(pairs, key=lambda pair: self.rank[pair[0]])):
            (side_a, want_a), (side_b, want_b) = self.due[a], self.due[b]
            if side_a is None and side_b is None:
                x_is_a = table % 2 == 0
            elif side_a is None or (side_a == side_b and want_b > want_a):
                x_is_a = side_b == NOUGHT
            else:
                x_is_a = side_a == CROSS
            out.append((a, b) if x_is_a else (b, a))
        return out
