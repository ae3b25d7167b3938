"""The pictures already drawn, by position and marks: a least-recently-used cache bounded by the
bytes it holds (``BOUND``), safe to use from the event loop and a drawing thread at once."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable

from bot.games.record import Ending, GameRecord, Status

BOUND = 32 * 1024 * 1024  # bytes of pictures and keys kept, at most

Key = tuple[str, int, int, tuple[int, ...], bool, Ending | None, str, str, int]


def key(game: GameRecord, side: int) -> Key:
    """What a board's picture depends on: the kind, size and line length, the moves, whether
    the game is on (the board to play) and how it ended (the winning line), the marks, the
    picture's size."""
    return (
        game.kind,
        game.size,
        game.k,
        game.moves,
        game.status is Status.ACTIVE,
        game.ending,
        game.look.x,
        game.look.o,
        side,
    )


def cost(entry_key: Key, data: bytes) -> int:
    """The bytes an entry holds: the picture, its key and the moves in it."""
    return sys.getsizeof(data) + sys.getsizeof(entry_key) + sys.getsizeof(entry_key[3])


class PictureCache:
    """Pictures by key, the least recently used dropped first once more than `bound` bytes are
    held. A picture larger than the bound is returned, never kept."""

    def __init__(self, bound: int = BOUND) -> None:
        self.bound = bound
        self.held = 0  # bytes held now (`cost` of each entry)
        self._entries: OrderedDict[Key, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, entry_key: Key) -> bytes | None:
        """The picture kept for `entry_key`, or None (it counts as used)."""
        with self._lock:
            data = self._entries.get(entry_key)
            if data is None:
                self.misses += 1
                return None
            self.hits += 1
            self._entries.move_to_end(entry_key)
            return data

    def put(self, entry_key: Key, data: bytes) -> None:
        """Keep a picture, dropping the least recently used past the bound."""
        size = cost(entry_key, data)
        if size > self.bound:
            return
        with self._lock:
            old = self._entries.pop(entry_key, None)
            if old is not None:
                self.held -= cost(entry_key, old)
            self._entries[entry_key] = data
            self.held += size
            while self.held > self.bound:
                dropped_key, dropped = self._entries.popitem(last=False)
                self.held -= cost(dropped_key, dropped)

    def fetch(self, entry_key: Key, make: Callable[[], bytes]) -> bytes:
        """The picture for `entry_key`, made (and kept) when it is not kept yet."""
        data = self.get(entry_key)
        if data is None:
            data = make()
            self.put(entry_key, data)
        return data
