"""Live games in memory: by id and by channel, one lock per game, one deadline task per game.

The store is the record of truth; this registry is the fast path in front of it and the place
where per-process things live (locks, tasks, who is thinking, challenge cooldowns). It is filled
from ``store.live_games()`` when the cog loads, so a restart picks every game up again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import datetime, timedelta
from typing import Any

from bot import play
from bot.models import GameRecord

RESERVED = 0  # a channel whose game is being created (no id yet)


class GameRegistry:
    """Live games of this process, and the locks and tasks that go with them."""

    def __init__(self) -> None:
        self._games: dict[int, GameRecord] = {}
        self._channels: dict[int, int] = {}  # channel id -> live game id (or RESERVED)
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_challenge: dict[int, datetime] = {}
        self.thinking: set[int] = set()  # games whose engine move is being computed
        self.stale: set[int] = set()  # games whose board message failed to show the last change

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

    def set_timer(self, game_id: int, coro: Coroutine[Any, Any, None] | None) -> None:
        """Replace the game's deadline task (None: just cancel it), unless that task is us."""
        current = asyncio.current_task()
        old = self._timers.pop(game_id, None)
        if old is not None and old is not current:
            old.cancel()
        if coro is not None:
            task = asyncio.create_task(coro, name=f"ttt-deadline-{game_id}")
            self._timers[game_id] = task
            task.add_done_callback(lambda t: self._forget_timer(game_id, t))

    def _forget_timer(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._timers.get(game_id) is task:
            del self._timers[game_id]

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run background work (an engine move after a restart) and keep a reference to it."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Cancel every task this registry started."""
        for task in [*self._timers.values(), *self._tasks]:
            task.cancel()
        self._timers.clear()
        self._tasks.clear()
