"""The tournament extension: /tictactoe-tournament, its announcements and buttons, and each
tournament's games, each in its own thread.

``setup`` builds the parts (``tables``: threads and games; ``announcer``: the messages;
``director``: pairing, results, start-up; ``entry``: join, leave, start) around the game cogs'
flow, so a tournament game is opened, played, timed and stored as any game is. The store calls
are ``bot.storage.base.Store``'s tournament section; the buttons' custom ids are
``bot.discord_ui.tournament_board``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.games.command import GameCog
from bot.cogs.tournaments.announcer import Announcer
from bot.cogs.tournaments.command import TournamentCog
from bot.cogs.tournaments.director import Director
from bot.cogs.tournaments.entry import Entry
from bot.cogs.tournaments.tables import Tables

if TYPE_CHECKING:
    from bot.client import TicTacToeBot


async def setup(bot: TicTacToeBot) -> None:
    """Add the tournament cog (``load_extension("bot.cogs.tournaments")``, after the games')."""
    games = bot.get_cog("GameCog")
    if not isinstance(games, GameCog):
        raise RuntimeError("bot.cogs.tournaments needs bot.cogs.games loaded first")
    names: dict[int, str] = {}

    def name(user_id: int) -> str:
        """A player's name for a thread: as they joined, else as Discord's cache knows them."""
        user = bot.get_user(user_id)
        return names.get(user_id) or (user.display_name if user else f"#{user_id % 10_000:04}")

    tables = Tables(client=bot, flow=games.flow, name=name)
    director = Director(client=bot, tables=tables, announcer=Announcer(client=bot, store=bot.store))
    await bot.add_cog(TournamentCog(entry=Entry(director, names), servers=games.servers))
