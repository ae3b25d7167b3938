"""The puzzle extension: /tictactoe-puzzle (a position where the side to move wins by force, the
player moving by clicking, the engine defending), the daily puzzle, ratings and streaks, and the
puzzle leaderboard. ``posting`` posts the daily puzzle in a channel a server sets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.puzzles.attempts import Puzzles
from bot.cogs.puzzles.command import PuzzleCog

if TYPE_CHECKING:
    from bot.client import TicTacToeBot


async def setup(bot: TicTacToeBot) -> None:
    """Add the puzzle cog to the bot (``load_extension("bot.cogs.puzzles")``)."""
    puzzles = Puzzles(store=bot.store, engine=bot.engine)
    await bot.add_cog(PuzzleCog(store=bot.store, puzzles=puzzles))
