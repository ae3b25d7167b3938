"""Pairing strategies: a cheap, sound proof that one side can no longer complete any line.

The defender D holds a pairing against the attacker A when every line A could still complete is
given two of its own empty cells, no cell given to two lines. Whenever A takes one cell of a pair,
D takes the other (and plays anywhere otherwise), so every such line keeps a D mark: A never
completes one, whatever A plays. Finding a pairing is a bipartite matching in which each line needs
two distinct cells; the boards are tiny (at most 28 lines and 25 cells), so augmenting paths over
plain lists do it in microseconds, and the answers are cached per (lines, empty cells).
"""

from __future__ import annotations

_CACHE_LIMIT = 400_000


class Pairing:
    """Pairing tests for one board geometry, with a cache of the answers."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.cache: dict[int, bool] = {}

    def exists(self, key: int, spans: list[int]) -> bool:
        """Whether the lines whose empty cells are `spans` can each get two cells of their own.

        `key` identifies the query exactly (the caller packs the line set and the empty cells).
        """
        cache = self.cache
        found = cache.get(key)
        if found is None:
            found = _match(spans)
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[key] = found
        return found


def _match(spans: list[int]) -> bool:
    union = 0
    for span in spans:
        # A line with fewer than two empty cells cannot be paired.
        if not span & (span - 1):
            return False
        union |= span
    if 2 * len(spans) > union.bit_count():
        return False
    owner: dict[int, int] = {}  # cell bit -> index of the line that holds it

    def augment(i: int, seen: list[int]) -> bool:
        span = spans[i]
        while True:
            free = span & ~seen[0]
            if not free:
                return False
            bit = free & -free
            seen[0] |= bit
            holder = owner.get(bit)
            if holder is None or (holder != i and augment(holder, seen)):
                owner[bit] = i
                return True

    for i in range(len(spans)):
        for _ in range(2):
            if not augment(i, [0]):
                return False
    return True


def defends(lines: tuple[int, ...], defender: int, empty: int) -> bool:
    """Whether the defender holds a pairing against every line the attacker could complete.

    Then the attacker never completes a line, whoever moves next (a defender to move plays
    anywhere first). For tests and tools; the solver keeps its own cached, narrower queries.
    """
    spans = [line & empty for line in lines if not line & defender]
    return all(span & (span - 1) for span in spans) and _match(spans)
