"""The history extension: /tictactoe-history (a player's games, each opened as a picture and a
replay), /tictactoe-stats with the rating chart, and /tictactoe-leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.games.command import GameCog
from bot.history import board
from bot.history.games import HistoryCog
from bot.history.stats import StatsCog

if TYPE_CHECKING:
    from bot.client import TicTacToeBot


async def setup(bot: TicTacToeBot) -> None:
    """Add the history and stats cogs to the bot (``load_extension("bot.history.extension")``,
    after the games' and the features whose lines the stats show)."""
    games = bot.get_cog("GameCog")
    if not isinstance(games, GameCog):
        raise RuntimeError("bot.history.extension needs bot.cogs.games loaded first")
    await bot.add_cog(StatsCog(bot.store, games.stat_lines))
    await bot.add_cog(HistoryCog(bot.store))
    games.router.add(board.PREFIX, board.CLICK)
