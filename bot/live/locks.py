"""One lock per live game, which serializes every change to it, and which its holder knows it holds.

A call to Discord made while a game's lock is held is bounded (``bot.discord_ui.time_limits``),
so no click waits on another's retries: the limits ask ``held_since`` whether the running task
holds a lock, and since when.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

# The tasks holding games' locks -> (how many, the loop time the first was taken). By task, not
# context: a task started under a lock holds nothing.
_holders: weakref.WeakKeyDictionary[Any, tuple[int, float]] = weakref.WeakKeyDictionary()


def held_since() -> float | None:
    """The loop time the running task took the game's lock it holds (None: it holds none)."""
    task = asyncio.current_task()
    held = _holders.get(task) if task is not None else None
    return held[1] if held is not None else None


class GameLock(asyncio.Lock):
    """A game's lock, which records its holding task in ``_holders``."""

    async def __aenter__(self) -> None:
        await super().__aenter__()
        task = asyncio.current_task()
        if task is not None:
            count, since = _holders.get(task, (0, asyncio.get_running_loop().time()))
            _holders[task] = (count + 1, since)

    async def __aexit__(self, *exc: Any) -> None:
        task = asyncio.current_task()
        count, since = _holders.pop(task, (0, 0.0))
        if count > 1:
            _holders[task] = (count - 1, since)
        await super().__aexit__(*exc)


class GameLocks:
    """The games' locks, by game id. A lock lives as long as someone holds or waits for it: ids
    of games long gone (or never real: forged clicks) leave nothing behind."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, GameLock] = weakref.WeakValueDictionary()

    def __call__(self, game_id: int) -> GameLock:
        """The lock of game `game_id`."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock()
        return lock

    def any_held(self) -> bool:
        """True while some game is being changed."""
        return any(lock.locked() for lock in list(self._locks.values()))
