"""/tictactoe-puzzle and /tictactoe-puzzle-leaderboard, and the listener that answers every click
on a puzzle's buttons (custom ids ``pz:...``, ``bot.puzzles.board``)."""

from __future__ import annotations

import asyncio
import logging
from gettext import NullTranslations
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _l
from discord.ext import commands

from bot.cogs.games.clicks import NOT_MINE
from bot.cogs.games.texts import NOT_SAVED
from bot.discord_ui import replies
from bot.i18n import N_, NP_, translation
from bot.puzzles import board as drawn
from bot.puzzles.attempts import DAILY, NEAR, SERVER, Puzzles, today
from bot.puzzles.store import PuzzleStore
from bot.storage.base import StorageError, Store, in_time

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

WHICH_CHOICES = [
    Choice(name=_l("Near my puzzle rating"), value=NEAR),
    Choice(name=_l("Today's daily puzzle (private)"), value=DAILY),
    Choice(name=_l("From games played in this server"), value=SERVER),
]
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


class PuzzleCog(commands.Cog):
    """Puzzles: find the move that wins by force."""

    def __init__(self, *, store: Store, puzzles: Puzzles) -> None:
        self.puzzle_store = PuzzleStore(store)
        self.puzzles = puzzles

    @app_commands.command(
        name=_l("tictactoe-puzzle"),
        description=_l("Solve a puzzle: find the move that wins by force."),
    )
    # Everywhere: an attempt lives in its interactions alone (no channel access needed).
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.choices(which=WHICH_CHOICES)
    @app_commands.rename(which=_l("puzzle"))
    @app_commands.describe(which=_l("Which puzzle. Default: one near your puzzle rating."))
    async def puzzle(self, interaction: Interaction, which: str = NEAR) -> None:
        """Solve a puzzle: find the move that wins by force."""
        await self._answer(interaction, "/tictactoe-puzzle", self.puzzles.start(interaction, which))

    @app_commands.command(
        name=_l("tictactoe-puzzle-leaderboard"),
        description=_l("Show this server's best puzzle solvers, by puzzle rating."),
    )
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def leaderboard(self, interaction: Interaction) -> None:
        """Show this server's best puzzle solvers, by puzzle rating."""
        guild, user = interaction.guild_id, interaction.user.id
        try:
            rows, me = await in_time(
                asyncio.gather(
                    self.puzzle_store.puzzle_leaderboard(guild),
                    self.puzzle_store.puzzle_player(guild, user),
                )
            )
        except StorageError as error:
            log.debug("puzzle leaderboard read failed: %s", error)
            await replies.tell(interaction, NOT_SAVED)
            return
        catalog = translation(str(interaction.locale))
        name = interaction.guild.name if interaction.guild else "?"
        if not rows:
            lines = [
                N_(
                    "Nobody has finished a puzzle in {server} yet: try `/tictactoe-puzzle`.",
                    server=name,
                ).render(catalog)
            ]
        else:
            lines = [N_("**Puzzle leaderboard of {server}**", server=name).render(catalog)]
            for row in rows:
                said = N_(
                    "{solved} of {attempts} solved · best daily streak {best}",
                    solved=row.solved,
                    attempts=row.attempts,
                    best=row.best_streak,
                )
                lines.append(
                    f"{MEDALS.get(row.rank, f'{row.rank}.')} <@{row.user_id}> "
                    f"**{row.rating:.0f}** · {said.render(catalog)}"
                )
        mine = N_(
            "Your puzzle rating: **{rating}** · daily streak {streak}",
            rating=f"{me.rating.rating:.0f}",
            streak=me.streak_on(today()),
        )
        lines.append(mine.render(catalog))
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @commands.Cog.listener()
    async def on_ttt_puzzle_click(self, interaction: Interaction, custom_id: str) -> None:
        """Answer a click on a puzzle's button exactly once (handed on by the games' click
        listener, which sees every click first: ``board.CLICK``, routed by the click router)."""
        parsed = drawn.parse_id(custom_id)
        if custom_id == drawn.DAILY_ID:
            work = self.puzzles.daily(interaction)
        elif parsed is None:
            work = replies.tell(interaction, NOT_MINE)
        else:
            work = self.puzzles.click(interaction, *parsed)
        await self._answer(interaction, f"click on {custom_id!r}", work)

    async def _answer(self, interaction: Interaction, what: str, work: Any) -> None:
        """Run `work` (which answers the interaction); on failure answer once, privately."""
        try:
            await work
        except StorageError as error:
            log.debug("%s: %s", what, error)
            await replies.tell_safely(interaction, NOT_SAVED)
        except Exception as error:
            if not replies.discords_trouble(error):
                log.exception("%s by %s failed", what, interaction.user.id)
            else:
                log.warning("%s: Discord refused an answer: %s", what, error)
            if not replies.too_late(error):
                await replies.apologize(interaction)


async def rating_line(
    store: PuzzleStore, guild_id: int | None, user_id: int, catalog: NullTranslations
) -> str | None:
    """A player's puzzle rating in a server, for /tictactoe-stats; None before any attempt."""
    player = await store.puzzle_player(guild_id, user_id)
    if not player.attempts:
        return None
    return NP_(
        "Puzzle rating: **{rating}** ({n} puzzle)",
        "Puzzle rating: **{rating}** ({n} puzzles)",
        player.attempts,
        rating=f"{player.rating.rating:.0f}",
    ).render(catalog)
