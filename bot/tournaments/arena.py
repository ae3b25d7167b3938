"""An arena (as Lichess runs them), pure: its points and pairing the players who are free.

Points: a win 2, a draw 1, a loss 0; after two wins in a row each further win counts double (4),
the streak shown as 🔥, until a game is not won (a draw then counts 1 and ends the streak).
Pairing: as soon as two players are free they are paired, the nearest scores first, never the two
who have just played each other while anyone else may come free (as many pairs as can be made
without: a maximum matching); between equal scores the one who has waited longer goes first.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.record import CROSS, DRAW, NOUGHT, WIN, Tally

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
    player with no game yet needs no record.

    As many pairs as can be made with no immediate rematch (a maximum matching of the free
    players over the pairs who have not just met: the nearest scores paired first, then
    ``_augmented`` where that left two or more unpaired who could all have had a game). A
    rematch only where nobody is playing and no other pair can be made: it beats waiting
    forever."""
    records = {player: records.get(player) or Tally() for player in free}
    score = {player: points(records[player].results).points for player in free}
    last = {player: records[player].opponents[-1] for player in free if records[player].opponents}
    waiting = sorted(free, key=lambda player: -score[player])
    mate: dict[int, int] = {}
    for index, first in enumerate(waiting):
        if first in mate:
            continue
        options = [o for o in waiting[index + 1 :] if o not in mate and not _met(first, o, last)]
        if options:
            other = min(options, key=lambda other: abs(score[other] - score[first]))
            mate[first], mate[other] = other, first
    if len(waiting) - len(mate) >= 2:
        mate = _augmented(waiting, mate, last)
    left = [player for player in waiting if player not in mate]
    if playing == 0 and not mate and len(left) >= 2:  # nobody will come free otherwise
        mate = {a: b for a, b in zip(left[0::2], left[1::2], strict=False)}
        mate.update({b: a for a, b in mate.items()})
    order = {player: place for place, player in enumerate(waiting)}
    pairs = [(a, mate[a]) for a in waiting if a in mate and order[mate[a]] > order[a]]
    return [_sides(a, b, records) for a, b in pairs]


def _met(a: int, b: int, last: Mapping[int, int]) -> bool:
    """Whether a and b have just played each other (the last game of either)."""
    return last.get(a) == b or last.get(b) == a


def _augmented(
    players: Sequence[int], mate: dict[int, int], last: Mapping[int, int]
) -> dict[int, int]:
    """`mate` grown to a maximum matching of `players` over the pairs who have not just met,
    by Edmonds' blossom algorithm: from each unpaired player, a search for an augmenting path
    (unpaired, paired, ..., unpaired), odd cycles (blossoms) contracted as they are found. A
    search is O(n²) over the dense graph, and one is made per unpaired player; a player whose
    search fails stays unpaired (no later augmentation can reach them)."""
    n = len(players)
    index = {player: i for i, player in enumerate(players)}
    adj = [
        [j for j in range(n) if j != i and not _met(players[i], players[j], last)] for i in range(n)
    ]
    match = [index[mate[player]] if player in mate else -1 for player in players]
    for root in range(n):
        if match[root] == -1:
            end, parent = _path_from(root, adj, match)
            while end != -1:  # flip the path: every second edge joins the matching
                back = parent[end]
                after = match[back]
                match[end], match[back] = back, end
                end = after
    return {players[i]: players[j] for i, j in enumerate(match) if j != -1}


def _path_from(root: int, adj: list[list[int]], match: list[int]) -> tuple[int, list[int]]:
    """An augmenting path's far end from `root` (-1: none), with each vertex's parent."""
    n = len(adj)
    used, parent, base = [False] * n, [-1] * n, list(range(n))
    used[root] = True
    queue = collections.deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
        while base[v] != top:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                top = lca(v, to)
                blossom = [False] * n
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent


def _sides(a: int, b: int, records: Mapping[int, Tally]) -> tuple[int, int]:
    """❌ to the one who has played it less (else who did not play it last)."""
    colours = {p: records[p].colours for p in (a, b)}
    balance = {p: colours[p].count(CROSS) - colours[p].count(NOUGHT) for p in (a, b)}
    if balance[a] != balance[b]:
        return (a, b) if balance[a] < balance[b] else (b, a)
    return (b, a) if records[a].colours[-1:] == [CROSS] else (a, b)
