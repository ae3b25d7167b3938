"""The bot's own changes that could not be saved: tried again until the database answers.

A change the bot makes with no click at hand (its move, an abandoned board) is not dropped when
the database is away: it owns a task that tries the save again after a growing pause (a restart
of a database server takes seconds, not milliseconds) and shows the game once it is stored.
Meanwhile the game is marked as waiting, so a click on it is told that nothing could be saved
and to try again. Each try is made under the game's lock, on the game as it is then: the change
is worked out again from it, and dropped if it no longer applies (the game ended meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.games import rules
from bot.games.record import GameRecord
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

PAUSES = (1.0, 2.0)  # seconds before each of the first tries again
PAUSE_MAX = 3.0  # and before every later one: a database back is used within this

Change = Callable[[GameRecord | None], GameRecord | None]


def engine_move(moves: tuple[int, ...], cell: int) -> Change:
    """The engine's `cell`, played on the game if it is still where the move was found."""

    def change(game: GameRecord | None) -> GameRecord | None:
        if game is None or game.moves != moves or not rules.ai_to_move(game):
            return None  # resigned, timed out or moved on meanwhile
        return rules.play(game, cell)

    return change


def pause(attempt: int) -> float:
    """Seconds to wait before try number `attempt` (from 0) again."""
    return PAUSES[attempt] if attempt < len(PAUSES) else PAUSE_MAX


async def save_later(
    live: Live,
    game_id: int,
    change: Change,
    *,
    commit: Callable[[GameRecord], Awaitable[GameRecord]],
    show: Callable[[GameRecord], Awaitable[Any]] | None,
    what: str,
) -> None:
    """Save `change` of game `game_id` once the database answers, then `show` it (the game is
    marked unsaved in `games` by the caller, at once, and no more when this ends).

    `change` gets the live game (None once it left memory) and returns the game to save, or
    None when the change no longer applies. Runs until saved, dropped, or cancelled (the bot
    stopping: what was not saved is then what the store holds, as after any stop).
    """
    attempt = 0
    try:
        while True:
            await asyncio.sleep(pause(attempt))
            attempt += 1
            async with live.locks(game_id):
                after = change(live.games.get(game_id))
                if after is None:
                    log.info("%s of game %s no longer applies; not saved", what, game_id)
                    return
                try:
                    stored = await commit(after)
                except StorageError as exc:
                    log.debug("%s of game %s: try %d failed: %s", what, game_id, attempt, exc)
                    continue
                log.info("%s of game %s saved after %d tries", what, game_id, attempt + 1)
                live.games.unsaved(game_id, waiting=False)
                if show is not None:
                    await show(stored)
                return
    finally:
        live.games.unsaved(game_id, waiting=False)
