"""The tournament extension: /tictactoe-tournament, its announcements and buttons, and each
tournament's games, each in its own thread.

``setup`` builds the parts (``tables``: threads and games; ``announcer``: the messages;
``director``: pairing, results, start-up; ``entry``: join, leave, start) around the game cogs'
flow, so a tournament game is opened, played, timed and stored as any game is. The store calls
are ``bot.storage.base.Store``'s tournament section; the buttons' custom ids are
``bot.tournaments.board``'s.
"""

from __future__ import annotations

import functools
import logging
from gettext import NullTranslations
from typing import TYPE_CHECKING

import discord

from bot.cogs.games.command import GameCog
from bot.discord_ui import replies
from bot.i18n import N_
from bot.tournaments import board, standings
from bot.tournaments.announcer import Announcer
from bot.tournaments.command import TournamentCog
from bot.tournaments.director import Director
from bot.tournaments.entry import Entry
from bot.tournaments.store import TournamentStore
from bot.tournaments.tables import Tables

if TYPE_CHECKING:
    from bot.client import TicTacToeBot

log = logging.getLogger(__name__)


async def setup(bot: TicTacToeBot) -> None:
    """Add the tournament cog (``load_extension("bot.tournaments.extension")``, after the
    games')."""
    games = bot.get_cog("GameCog")
    if not isinstance(games, GameCog):
        raise RuntimeError("bot.tournaments.extension needs bot.cogs.games loaded first")
    names: dict[int, str] = {}
    tables = Tables(client=bot, flow=games.flow, name=functools.partial(name_of, names))
    director = Director(client=bot, tables=tables, announcer=Announcer(client=bot, store=bot.store))
    await bot.add_cog(TournamentCog(entry=Entry(director, names), servers=games.servers))
    games.router.add(board.PREFIX, board.CLICK)
    games.stat_lines.record.append(functools.partial(won_line, tables.tournament_store))


async def won_line(
    store: TournamentStore, guild_id: int | None, user_id: int, catalog: NullTranslations
) -> str | None:
    """How many of the server's finished tournaments the player won (ranked first, the
    standings recounted from the stored games), under their record; None if none."""
    if guild_id is None:
        return None
    won = 0
    for t in await store.tournaments_entered(guild_id, user_id):
        entrants, games = await store.entrants(t.id), await store.games_of(t.id)
        table = standings.of(t, entrants, games, await store.byes_of(t.id))
        won += bool(table) and table[0].player == user_id
    return N_("🏆 Tournaments won: {n}", n=won).render(catalog) if won else None


async def name_of(names: dict[int, str], guild: discord.Guild, user_id: int) -> str:
    """A player's name for a thread: as they joined, else as the server's members are cached,
    else as Discord gives the member (kept for next time: after a restart nobody's name is
    held); one that cannot be had is ``#`` and the last four digits of their id (a thread's
    name shows no mention)."""
    if user_id in names:
        return names[user_id]
    member = guild.get_member(user_id)
    if member is not None:
        return member.display_name
    try:
        member = await guild.fetch_member(user_id)
    except replies.CALL_FAILED as error:
        log.info("no name for player %s in a thread's name: %s", user_id, replies.describe(error))
        return f"#{user_id % 10_000:04}"
    names[user_id] = member.display_name
    return member.display_name
