"""The games' deadlines, watched by one clock for all of them.

Deadlines are kept in a heap watched by a single task, not a sleeping task per game: a thousand
live games cost a thousand heap entries, and a start-up re-arms them all at once. When one comes
due the clock calls ``on_due(game_id)``, which the game cog turns into an event. The time itself
is passed in (``now``), so a simulated Discord can move it.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable
from datetime import datetime


class Deadlines:
    """When each live game is due, and the one task that wakes for the earliest."""

    def __init__(self, *, on_due: Callable[[int], None], now: Callable[[], datetime]) -> None:
        self._on_due = on_due
        self.now = now  # the clock deadlines are read on (aware UTC)
        self._deadlines: dict[int, datetime] = {}  # game id -> when it is due
        self._heap: list[tuple[datetime, int]] = []  # (when, game id); stale entries skipped
        self._clock: asyncio.Task[None] | None = None
        self._clock_wakes_at: datetime | None = None

    def set(self, game_id: int, when: datetime | None) -> None:
        """When the game is due (``on_due(game_id)`` runs then); None: it has no deadline."""
        old = self._deadlines.pop(game_id, None)
        if when is not None:
            self._deadlines[game_id] = when
            heapq.heappush(self._heap, (when, game_id))
        wakes = self._clock_wakes_at
        if when is not None and (wakes is None or when < wakes):
            self._restart_clock()
        elif old is not None and old == wakes:
            # The deadline the clock sleeps for was replaced (a move) or cleared (the game
            # ended): start it again, so it sleeps until the earliest deadline that stands.
            self._restart_clock()

    def get(self, game_id: int) -> datetime | None:
        """When the game's deadline falls, if it has one."""
        return self._deadlines.get(game_id)

    def _restart_clock(self) -> None:
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock = asyncio.create_task(self._run_clock(), name="ttt-deadlines")

    async def _run_clock(self) -> None:
        """Sleep until the earliest deadline; report every game that is due."""
        while True:
            now = self.now()
            while self._heap:
                when, game_id = self._heap[0]
                if self._deadlines.get(game_id) != when:
                    heapq.heappop(self._heap)  # replaced or cleared since
                elif when <= now:
                    heapq.heappop(self._heap)
                    del self._deadlines[game_id]
                    self._on_due(game_id)
                else:
                    break
            if not self._heap:
                self._clock_wakes_at = None
                self._clock = None
                return
            self._clock_wakes_at = self._heap[0][0]
            await asyncio.sleep((self._clock_wakes_at - now).total_seconds())

    def close(self) -> None:
        """Stop the clock and forget every deadline."""
        if self._clock is not None:
            self._clock.cancel()
        self._clock = self._clock_wakes_at = None
        self._deadlines.clear()
        self._heap.clear()
