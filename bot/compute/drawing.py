"""Pictures drawn off the event loop: one drawing thread for the bot's process, apart from the
engine's, and the cache of board pictures (``bot.pictures`` says why a thread, and the cache's
bound). Everything that shows a picture (a board, a replay, a game in history, a rating chart)
asks here, so pictures are drawn one at a time and a position is drawn once.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bot import pictures
from bot.games.record import GameRecord
from bot.pictures.cache import key

T = TypeVar("T")
CACHE = pictures.PictureCache()


@functools.cache
def _thread() -> ThreadPoolExecutor:
    """The drawing thread, started at the first picture."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")


def drain(timeout: float) -> None:
    """Block until every picture asked for so far is drawn (a measurement's end)."""
    _thread().submit(lambda: None).result(timeout=timeout)


def close() -> None:
    """Let the drawing thread end once its queued pictures are drawn (a bot shutting down); a
    picture asked for later starts a new one."""
    if _thread.cache_info().currsize:
        _thread().shutdown(wait=False)
        _thread.cache_clear()


async def draw(work: Callable[[], T]) -> T:
    """`work` (pure: it draws and encodes) run in the drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(_thread(), work)


async def board(game: GameRecord, *, side: int = pictures.SIDE) -> bytes:
    """The picture of a game's board now: from the cache on the loop, or from the strips kept
    of the pictures before (a classic board: tens of microseconds, less than a hop to the
    thread and back), else drawn in the drawing thread; kept."""
    found = ready(game, side=side)
    if found is None:
        found = await draw(lambda: pictures.board_png(game, side=side))
        CACHE.put(key(game, side), found)
    return found


def ready(game: GameRecord, *, side: int = pictures.SIDE) -> bytes | None:
    """The picture of a game's board if it is there without drawing: in the cache, or made
    from the strips kept (``bot.pictures.kept_png``, then kept in the cache); else None."""
    wanted = key(game, side)
    found = CACHE.get(wanted)
    if found is None:
        found = pictures.kept_png(game, side=side)
        if found is not None:
            CACHE.put(wanted, found)
    return found


async def replay(game: GameRecord) -> bytes:
    """A finished (or going) game's animated replay, drawn in the drawing thread."""
    return await draw(lambda: pictures.replay(game))
