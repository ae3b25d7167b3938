"""/tictactoe-stats and /tictactoe-leaderboard: records and ratings, read from the store."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands

from bot.cogs.games.command import VARIANT_CHOICES
from bot.cogs.games.stat_lines import StatLines
from bot.discord_ui import replies
from bot.games.kinds import CLASSIC as CLASSIC_KIND
from bot.games.kinds import KINDS
from bot.games.stats import PlayerStats, Record
from bot.history import rating_chart as charts
from bot.history.store import HistoryStore
from bot.i18n import N_, NP_, Text, translation
from bot.storage.base import StorageError, Store, in_time

if TYPE_CHECKING:
    from gettext import NullTranslations as Catalog


log = logging.getLogger(__name__)
T = TypeVar("T")

STORAGE_APOLOGY = N_("Sorry, I can't read the records right now. Please try again in a minute.")
NO_GAMES = N_("no games")
CLASSIC = CLASSIC_KIND.name
LEVEL_TITLES = {
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "unbeatable": N_("Unbeatable"),
    "expert": N_("Expert"),
}


def format_record(record: Record, catalog: Catalog | None = None) -> str:
    """`3W 1D 2L` style, or `no games` when empty (in `catalog`'s language)."""
    catalog = catalog or translation(None)
    if record.games == 0:
        return NO_GAMES.render(catalog)
    return N_(
        "{wins}W {draws}D {losses}L", wins=record.wins, draws=record.draws, losses=record.losses
    ).render(catalog)


def format_stats(
    stats: PlayerStats,
    *,
    mention: str,
    where: str,
    catalog: Catalog | None = None,
    kind: str = CLASSIC,
    more: Sequence[str] = (),
) -> str:
    """The text of a player's stats: against people (with rating), then against each level."""
    catalog = catalog or translation(None)
    title = (
        N_("**Tic-tac-toe record of {player}**", player=mention)
        if kind == CLASSIC
        else N_("**Ultimate tic-tac-toe record of {player}**", player=mention)
    )
    lines = [title.render(catalog) + f" {where}"]
    people = format_record(stats.vs_people, catalog)
    if stats.rated_games:
        rating = NP_(
            "rating **{rating}** ({n} rated)",
            "rating **{rating}** ({n} rated)",
            stats.rated_games,
            rating=f"{stats.rating:.0f}",
        )
        people += f" · {rating.render(catalog)}"
    lines.append(N_("Against people: {record}", record=people).render(catalog))
    bot_lines = [
        f"  {LEVEL_TITLES[level].render(catalog)}: {format_record(record, catalog)}"
        for level, record in stats.vs_bot.items()
        if record.games
    ]
    against = N_("Against the bot:").render(catalog)
    lines.append(against + ("" if bot_lines else f" {NO_GAMES.render(catalog)}"))
    lines.extend(bot_lines)
    lines.extend(more)  # the features' lines under the record (``StatLines.record``)
    return "\n".join(lines)


class StatsCog(commands.Cog):
    """Read-only commands over finished games."""

    def __init__(self, store: Store, lines: StatLines | None = None) -> None:
        self.store = store
        self.history_store = HistoryStore(store)
        self.lines = StatLines() if lines is None else lines  # the features' own lines

    async def _read(self, interaction: discord.Interaction, read: Awaitable[T]) -> T | None:
        """Await a store read within the budget; on failure apologise (the one response)."""
        try:
            return await in_time(read)
        except StorageError as error:
            log.debug("stats read failed: %s", error)
            await replies.tell(interaction, STORAGE_APOLOGY)
            return None

    @app_commands.command(
        name=_l("tictactoe-stats"),
        description=_l(
            "Show wins, draws and losses against people and against each level of the bot."
        ),
    )
    @app_commands.rename(user=_l("user"), variant=_l("variant"))
    @app_commands.describe(
        user=_l("Whose record to show (default: yours)"),
        variant=_l("Classic or ultimate games (default: classic)."),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.Member | discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        """Show wins, draws and losses against people and against each level of the bot."""
        catalog = translation(str(interaction.locale))
        if user is not None and not isinstance(user, discord.User | discord.Member):
            # An id Discord sent without the user it stands for (a stale or modified client).
            unknown = N_(
                "I could not find the user {player}; pick someone from Discord's list.",
                player=f"<@{user.id}>",
            )
            await interaction.response.send_message(
                unknown.render(catalog),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        target = user or interaction.user
        if target.bot:
            bot_refusal = N_(
                "{player} is a bot: bots don't keep a tic-tac-toe record.", player=target.mention
            )
            await interaction.response.send_message(
                bot_refusal.render(catalog),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        found = await self._read(
            interaction, self.store.player_stats(interaction.guild_id, target.id, _kind(variant))
        )
        more: list[str | None] = []
        if found is not None and self.lines.record:
            asked = (line(interaction.guild_id, target.id, catalog) for line in self.lines.record)
            said = await self._read(interaction, asyncio.gather(*asked))
            found, more = (found, list(said)) if said is not None else (None, [])
        if found is None:
            return
        where = where_said(interaction).render(catalog)
        text = format_stats(
            found,
            mention=target.mention,
            where=where,
            catalog=catalog,
            kind=_kind(variant),
            more=[line for line in more if line],
        )
        chart = await charts.rating_chart(
            self.history_store, self.lines.extra, interaction, target.id
        )
        if chart.line:
            text += "\n" + chart.line
        await interaction.response.send_message(
            text,
            allowed_mentions=discord.AllowedMentions.none(),
            files=chart.files or discord.utils.MISSING,
        )

    @app_commands.command(
        name=_l("tictactoe-leaderboard"),
        description=_l("Show this server's best players against people, by rating."),
    )
    @app_commands.rename(variant=_l("variant"))
    @app_commands.describe(variant=_l("Classic or ultimate games (default: classic)."))
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str | None = None
    ) -> None:
        """Show this server's best players against people, by rating."""
        kind = _kind(variant)
        rows = await self._read(
            interaction, self.store.leaderboard(interaction.guild_id, kind=kind)
        )
        if rows is None:
            return
        catalog = translation(str(interaction.locale))
        name = interaction.guild.name if interaction.guild else "?"
        if not rows:
            text = N_(
                "No rated games in {server} yet: challenge someone with "
                "`/tictactoe opponent:@someone`.",
                server=name,
            ).render(catalog)
        else:
            title = (
                N_("**Tic-tac-toe leaderboard of {server}** (games against people)", server=name)
                if kind == CLASSIC
                else N_(
                    "**Ultimate tic-tac-toe leaderboard of {server}** (games against people)",
                    server=name,
                )
            )
            lines = [title.render(catalog)]
            medals = {1: "🥇", 2: "🥈", 3: "🥉"}
            for row in rows:
                vs_bot = N_("vs the bot {record}", record=format_record(row.vs_bot, catalog))
                against_bot = f" · {vs_bot.render(catalog)}" if row.vs_bot.games else ""
                lines.append(
                    f"{medals.get(row.rank, f'{row.rank}.')} <@{row.user_id}> "
                    f"**{row.rating:.0f}** · {format_record(row.record, catalog)}{against_bot}"
                )
            lines.append(N_("Each level of the bot apart: `/tictactoe-stats`.").render(catalog))
            text = "\n".join(lines)
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )


def where_said(interaction: discord.Interaction[Any]) -> Text:
    """Where a record or a history is kept: this server, or direct messages."""
    if interaction.guild_id is None:
        return N_("in direct messages")  # every DM and group DM: one record outside servers
    if interaction.guild is not None and interaction.guild.name:
        return N_("in {server}", server=interaction.guild.name)
    return N_("in this server")  # a server that has not added the bot: no name known


def _kind(variant: str | None) -> str:
    """The kind of game asked for: classic unless a known variant is named."""
    return variant if variant in KINDS else CLASSIC
