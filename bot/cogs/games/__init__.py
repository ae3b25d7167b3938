"""The game extension: /tictactoe, the board's clicks and reactions, and live games between clicks.

``setup`` builds what the game cogs share (this process's live state, ``bot.live``, and the
flow that changes games) and hands it to each; no part holds a pointer back to what built it. A
deadline coming due is an event the clock raises through ``bot.dispatch``, and so are a live
game that ends and a board that falls behind its game (``events``). The features build on it:
each registers its buttons with the click router (``router``), reached as ``GameCog.router``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs.games.advice import Advice
from bot.cogs.games.between_clicks import BoardWatch
from bot.cogs.games.catch_up import BoardCatchUp
from bot.cogs.games.clicks import ClickCog
from bot.cogs.games.command import GameCog
from bot.cogs.games.deleted_marks import MarkCog
from bot.cogs.games.events import BEHIND, DEADLINE, ENDED
from bot.cogs.games.flow import GameFlow
from bot.cogs.games.reaction_keys import KeyCog
from bot.cogs.games.reactions import ReactionCog
from bot.cogs.games.router import Router
from bot.cogs.games.settings import SettingsCog
from bot.live.owners import Live

if TYPE_CHECKING:
    from bot.client import TicTacToeBot


async def setup(bot: TicTacToeBot) -> None:
    """Add the game cogs to the bot (``load_extension("bot.cogs.games")``)."""
    servers = await bot.store.server_settings()  # each server's own settings, kept up to date
    live = Live.build(
        on_due=lambda game_id: bot.dispatch(DEADLINE, game_id),
        now=discord.utils.utcnow,
        on_end=lambda game: bot.dispatch(ENDED, game),
        on_behind=lambda game_id: bot.dispatch(BEHIND, game_id),
    )
    flow = GameFlow(
        client=bot,
        store=bot.store,
        engine=bot.engine,
        live=live,
        settings=bot.settings,
        servers=servers,
    )
    router = Router()  # each feature's setup registers its buttons' prefix
    await bot.add_cog(
        GameCog(
            client=bot,
            live=live,
            flow=flow,
            settings=bot.settings,
            servers=servers,
            router=router,
        )
    )
    await bot.add_cog(SettingsCog(store=bot.store, settings=bot.settings, servers=servers))
    await bot.add_cog(ClickCog(live=live, flow=flow, advice=Advice(bot.engine), router=router))
    await bot.add_cog(BoardWatch(client=bot, live=live, flow=flow))
    await bot.add_cog(BoardCatchUp(client=bot, live=live, flow=flow))
    await bot.add_cog(KeyCog(client=bot, live=live, flow=flow))
    await bot.add_cog(ReactionCog(client=bot, live=live, flow=flow))
    await bot.add_cog(MarkCog(store=bot.store, live=live, flow=flow, servers=servers))
