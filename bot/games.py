"""Live games in memory: by id and by channel, one lock per game, and one clock for all deadlines.

The store is the record of truth; this registry is the fast path in front of it and the place
where per-process things live (locks, tasks, who is thinking, challenge cooldowns). It is filled
from ``store.live_games()`` when the cog loads, so a restart picks every game up again.

Deadlines are kept in a heap watched by a single task, not a sleeping task per game: a thousand
live games cost a thousand heap entries, and a start-up re-arms them all at once.
"""

from __future__ import annotations

import asyncio
import heapq
import weakref
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

import discord

from bot import play
from bot.models import GameRecord

RESERVED = 0  # a channel whose game is being created (no id yet)


class GameRegistry:
    """Live games of this process, and the locks and tasks that go with them."""

    def __init__(self) -> None:
        self._games: dict[int, GameRecord] = {}
        self._channels: dict[int, int] = {}  # channel id -> live game id (or RESERVED)
        # A lock lives as long as someone holds or waits for it: ids of games long gone (or
        # never real: forged clicks) leave nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._deadlines: dict[int, datetime] = {}  # game id -> when it is due
        self._heap: list[tuple[datetime, int]] = []  # (when, game id); stale entries skipped
        self._clock: asyncio.Task[None] | None = None
        self._clock_wakes_at: datetime | None = None
        self.on_due: Callable[[int], Coroutine[Any, Any, None]] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_challenge: dict[int, datetime] = {}
        self.thinking: set[int] = set()  # games whose engine move is being computed
        self.stale: set[int] = set()  # games whose board message failed to show the last change
        # Games live at start-up: the last process may have died between saving a change and
        # showing it, so the first click on each compares its board with the stored game.
        self.unverified: set[int] = set()

    def first_click(self, game_id: int) -> bool:
        """True for the first click on a game that was live at start-up (once per game)."""
        if game_id not in self.unverified:
            return False
        self.unverified.discard(game_id)
        return True

    # ------------------------------------------------------------------ games

    def get(self, game_id: int) -> GameRecord | None:
        """The live game with this id (a copy), or None."""
        game = self._games.get(game_id)
        return game.copy() if game is not None else None

    def put(self, game: GameRecord) -> None:
        """Remember the game as saved; a finished game leaves memory and frees its channel."""
        if play.is_live(game):
            self._games[game.id] = game.copy()
            self._channels[game.channel_id] = game.id
            return
        self._games.pop(game.id, None)
        self.unverified.discard(game.id)
        if self._channels.get(game.channel_id) == game.id:
            del self._channels[game.channel_id]

    def live(self) -> list[GameRecord]:
        """Every live game (copies)."""
        return [game.copy() for game in self._games.values()]

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serializes every change to one game."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # --------------------------------------------------------------- channels

    def in_channel(self, channel_id: int) -> GameRecord | None:
        """The live game in a channel, if any (not a reservation)."""
        game_id = self._channels.get(channel_id)
        return self.get(game_id) if game_id else None

    def reserve(self, channel_id: int) -> bool:
        """Claim a channel for a game about to be created; False if it already has one.

        Synchronous on purpose: two commands in one channel cannot both pass it.
        """
        if channel_id in self._channels:
            return False
        self._channels[channel_id] = RESERVED
        return True

    def release(self, channel_id: int) -> None:
        """Give back a reservation whose game was never created."""
        if self._channels.get(channel_id) == RESERVED:
            del self._channels[channel_id]

    def busy(self, channel_id: int) -> bool:
        """True when the channel has a live game or one being created."""
        return channel_id in self._channels

    # -------------------------------------------------------------- cooldowns

    def cooldown_left(self, user_id: int, now: datetime, cooldown: float) -> float:
        """Seconds until `user_id` may challenge someone again (0 if they may now)."""
        last = self._last_challenge.get(user_id)
        if last is None:
            return 0.0
        return max(0.0, (last + timedelta(seconds=cooldown) - now).total_seconds())

    def note_challenge(self, user_id: int, now: datetime) -> None:
        """Start the user's challenge cooldown."""
        self._last_challenge[user_id] = now

    # ------------------------------------------------------------------ tasks

    def set_deadline(self, game_id: int, when: datetime | None) -> None:
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

    def deadline(self, game_id: int) -> datetime | None:
        """When the game's deadline falls, if it has one."""
        return self._deadlines.get(game_id)

    def _restart_clock(self) -> None:
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock = asyncio.create_task(self._run_clock(), name="ttt-deadlines")

    async def _run_clock(self) -> None:
        """Sleep until the earliest deadline; start the handler of every game that is due."""
        while True:
            now = discord.utils.utcnow()
            while self._heap:
                when, game_id = self._heap[0]
                if self._deadlines.get(game_id) != when:
                    heapq.heappop(self._heap)  # replaced or cleared since
                elif when <= now:
                    heapq.heappop(self._heap)
                    del self._deadlines[game_id]
                    if self.on_due is not None:
                        self.spawn(self.on_due(game_id), name=f"ttt-due-{game_id}")
                else:
                    break
            if not self._heap:
                self._clock_wakes_at = None
                self._clock = None
                return
            self._clock_wakes_at = self._heap[0][0]
            await asyncio.sleep((self._clock_wakes_at - now).total_seconds())

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run background work (an engine move after a restart) and keep a reference to it."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Cancel every task this registry started."""
        for task in [self._clock, *self._tasks]:
            if task is not None:
                task.cancel()
        self._clock = self._clock_wakes_at = None
        self._deadlines.clear()
        self._heap.clear()
        self._tasks.clear()
