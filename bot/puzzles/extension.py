"""The puzzle extension: /tictactoe-puzzle (a position where the side to move wins by force, the
player moving by clicking, the engine defending), the daily puzzle and its post in a channel a
server sets, ratings and streaks, the puzzle leaderboard, and the wins missed in finished games
kept as their server's puzzles."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import discord

from bot.cogs.games.command import GameCog
from bot.puzzles import board
from bot.puzzles.attempts import Puzzles
from bot.puzzles.command import PuzzleCog, rating_line
from bot.puzzles.missed import MissedWins
from bot.puzzles.posting import DailyPosting
from bot.puzzles.store import PuzzleStore

if TYPE_CHECKING:
    from bot.client import TicTacToeBot


async def setup(bot: TicTacToeBot) -> None:
    """Add the puzzle cogs to the bot (``load_extension("bot.puzzles.extension")``, after the
    games')."""
    games = bot.get_cog("GameCog")
    if not isinstance(games, GameCog):
        raise RuntimeError("bot.puzzles.extension needs bot.cogs.games loaded first")
    puzzles = Puzzles(store=bot.store, engine=bot.engine)
    await bot.add_cog(PuzzleCog(store=bot.store, puzzles=puzzles))
    await bot.add_cog(DailyPosting(client=bot, store=bot.store, now=discord.utils.utcnow))
    await bot.add_cog(MissedWins(store=bot.store, engine=bot.engine))
    games.router.add(board.PREFIX, board.CLICK)
    games.stat_lines.extra.append(functools.partial(rating_line, PuzzleStore(bot.store)))
