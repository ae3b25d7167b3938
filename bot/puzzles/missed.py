"""Missed wins: a classic game on a big board that ends in a server leaves that server puzzles.

When a live game leaves memory finished (the event ``ENDED``), the positions where one of
its players had a forced win and missed it (``engine.puzzles.missed_wins``) are found in the
engine's worker processes, off the event loop, and kept as the server's puzzles
(``Store.add_server_puzzle``). Only the people's moves count, not the bot's; games in direct
messages and games shown only through interactions (a server that has not added the bot) have
no server of the bot's to keep them. The game is saved before any of this: a search or a store
that fails costs the puzzles, with a debug line, never the game.
"""

from __future__ import annotations

import logging
from concurrent.futures import BrokenExecutor

from discord.ext import commands

from bot.cogs.games.events import ENDED
from bot.compute import jobs
from bot.compute.runner import EngineRunner
from bot.games import kinds
from bot.games.record import PLAYED, GameRecord
from bot.puzzles.store import PuzzleStore
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

# Seconds of a worker's clock for one game: past it the positions left are not judged. A game
# takes a few milliseconds on most boards; on 5x5 with 4 in a row the p99 is about 0.5 s
# (docs/engine.md, "Missed wins").
BUDGET = 0.5


def worth_searching(game: GameRecord) -> bool:
    """Whether a finished game can leave its server puzzles: a played classic game on 4x4 or
    5x5, in a server the bot is in."""
    return (
        kinds.of(game).missed_wins
        and game.size > 3
        and game.ending in PLAYED
        and game.guild_id is not None
        and not game.interactions_only
    )


class MissedWins(commands.Cog):
    """Turns the missed wins of each finished game into its server's puzzles."""

    def __init__(self, *, store: Store, engine: EngineRunner) -> None:
        self.puzzle_store = PuzzleStore(store)
        self.engine = engine

    @commands.Cog.listener(f"on_{ENDED}")
    async def on_game_ended(self, game: GameRecord) -> None:
        """Find the game's missed wins and keep them for its server."""
        if not worth_searching(game) or game.guild_id is None:
            return
        sides = tuple(side for side in "XO" if side != game.ai_side)
        try:
            found = await self.engine.call(
                True, jobs.missed_wins, game.size, game.k, game.moves, sides, BUDGET, later=True
            )
        except (BrokenExecutor, RuntimeError) as exc:  # the workers are gone (a shutdown)
            log.debug("could not look for missed wins in game %s: %s", game.id, exc)
            return
        for puzzle in found:
            try:
                await self.puzzle_store.add_server_puzzle(game.guild_id, puzzle, game.id)
            except StorageError as exc:
                log.debug("could not keep puzzle %s of game %s: %s", puzzle.id, game.id, exc)
                return
