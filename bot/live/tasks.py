"""Background work of the game core (a catch-up, a save tried again, an engine move after a
restart), kept referenced while it runs and cancelled when the bot stops."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    """The tasks the game core started and that still run."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run `coro` in a task of its own, referenced until it ends."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Cancel every task still running."""
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
