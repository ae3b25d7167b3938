"""/tictactoe-stats and /tictactoe-leaderboard: records and ratings, read from the store."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.stats import PlayerStats, Record
from bot.storage.base import StorageError, Store

if TYPE_CHECKING:
    from bot.client import TicTacToeBot

log = logging.getLogger(__name__)
T = TypeVar("T")

# A read must come back in time for the one response Discord waits 3 s for.
READ_BUDGET = 2.0
STORAGE_APOLOGY = "Sorry, I can't read the records right now. Please try again in a minute."


def format_record(record: Record) -> str:
    """`3W 1D 2L` style, or `no games` when empty."""
    if record.games == 0:
        return "no games"
    return f"{record.wins}W {record.draws}D {record.losses}L"


def format_stats(stats: PlayerStats, *, mention: str, where: str) -> str:
    """The text of a player's stats: against people (with rating), then against each level."""
    lines = [f"**Tic-tac-toe record of {mention}** {where}"]
    people = format_record(stats.vs_people)
    if stats.rated_games:
        people += f" · rating **{stats.rating:.0f}** ({stats.rated_games} rated)"
    lines.append(f"Against people: {people}")
    bot_lines = [
        f"  {level.capitalize()}: {format_record(record)}"
        for level, record in stats.vs_bot.items()
        if record.games
    ]
    lines.append("Against the bot:" + ("" if bot_lines else " no games"))
    lines.extend(bot_lines)
    return "\n".join(lines)


class StatsCog(commands.Cog):
    """Read-only commands over finished games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _read(self, interaction: discord.Interaction, read: Awaitable[T]) -> T | None:
        """Await a store read within the budget; on failure apologise (the one response)."""
        try:
            return await asyncio.wait_for(read, READ_BUDGET)
        except (StorageError, TimeoutError) as error:
            log.error("stats read failed: %s", error)
            await interaction.response.send_message(STORAGE_APOLOGY, ephemeral=True)
            return None

    @app_commands.command(name="tictactoe-stats")
    @app_commands.describe(user="Whose record to show (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.Member | discord.User | None = None
    ) -> None:
        """Show wins, draws and losses against people and against each level of the bot."""
        if user is not None and not isinstance(user, discord.User | discord.Member):
            # An id Discord sent without the user it stands for (a stale or modified client).
            await interaction.response.send_message(
                f"I could not find the user <@{user.id}>; pick someone from Discord's list.",
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        target = user or interaction.user
        if target.bot:
            await interaction.response.send_message(
                f"{target.mention} is a bot: bots don't keep a tic-tac-toe record.",
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        found = await self._read(
            interaction, self.store.player_stats(interaction.guild_id, target.id)
        )
        if found is None:
            return
        where = f"in {interaction.guild.name}" if interaction.guild else "in direct messages"
        await interaction.response.send_message(
            format_stats(found, mention=target.mention, where=where),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="tictactoe-leaderboard")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """Show this server's best players against people, by rating."""
        rows = await self._read(interaction, self.store.leaderboard(interaction.guild_id))
        if rows is None:
            return
        name = interaction.guild.name if interaction.guild else "this server"
        if not rows:
            text = (
                f"No rated games in {name} yet: challenge someone with "
                "`/tictactoe opponent:@someone`."
            )
        else:
            lines = [f"**Tic-tac-toe leaderboard of {name}** (games against people)"]
            medals = {1: "🥇", 2: "🥈", 3: "🥉"}
            for row in rows:
                against_bot = (
                    f" · vs the bot {format_record(row.vs_bot)}" if row.vs_bot.games else ""
                )
                lines.append(
                    f"{medals.get(row.rank, f'{row.rank}.')} <@{row.user_id}> "
                    f"**{row.rating:.0f}** · {format_record(row.record)}{against_bot}"
                )
            lines.append("Each level of the bot apart: `/tictactoe-stats`.")
            text = "\n".join(lines)
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: TicTacToeBot) -> None:
    """Add the stats cog to the bot (``load_extension("bot.cogs.stats")``)."""
    await bot.add_cog(StatsCog(bot.store))
