"""The /tictactoe command, the routing of board clicks, and the error handler behind both."""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

import engine
from bot import buttons, play, render
from bot.buttons import GameButton
from bot.clicks import Clicks
from bot.flow import NOT_SAVED, GameFlow
from bot.games import GameRegistry
from bot.models import GameRecord, Status
from bot.store import StorageError

if TYPE_CHECKING:
    from bot.client import TicTacToeBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class GameCog(commands.Cog):
    """Tic-tac-toe against the bot or another member, on boards from 3x3 to 5x5."""

    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot
        self.games = GameRegistry()
        self.flow = GameFlow(bot, self.games)
        self.clicks = Clicks(self.flow)

    async def cog_load(self) -> None:
        """Make every board's buttons work, and pick up the games that were live at shutdown."""
        self.bot.add_dynamic_items(GameButton)
        for game in await self.bot.store.live_games():
            self.games.put(game)
            self.flow.arm(game)  # a deadline already past fires at once
            if play.ai_to_move(game):
                self.games.spawn(self._resume(game.id), name=f"ttt-resume-{game.id}")
        log.info("game cog loaded with %d live games", len(self.games.live()))

    async def _resume(self, game_id: int) -> None:
        await self.bot.wait_until_ready()
        await self.flow.ai_move(game_id)

    async def cog_unload(self) -> None:
        """Stop every timer; the games stay in the store for the next start."""
        self.bot.remove_dynamic_items(GameButton)
        self.games.close()

    # ------------------------------------------------------------- command

    @app_commands.command(name="tictactoe")
    @app_commands.describe(
        opponent="Who to challenge. Leave it out (or pick me) to play against the bot.",
        difficulty="How well the bot plays (only against the bot). Default: unbeatable.",
        first="Who makes the first move (❌). Default: you.",
        size="Board size. Default: 3×3.",
        win_length="Marks in a row needed to win, 3 up to the board size. "
        "Default: 3 on 3×3, 4 on bigger boards.",
    )
    @app_commands.choices(
        difficulty=[Choice(name=level.capitalize(), value=level) for level in engine.LEVELS],
        first=[
            Choice(name="Me", value="me"),
            Choice(name="My opponent", value="opponent"),
            Choice(name="Random", value="random"),
        ],
        size=[Choice(name=f"{n}×{n}", value=n) for n in play.SIZES],
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        difficulty: str | None = None,
        first: str = "me",
        size: int = 3,
        win_length: app_commands.Range[int, 3, 5] | None = None,
    ) -> None:
        """Play tic-tac-toe against the bot or challenge someone."""
        me = self.bot.user
        assert me is not None
        k = win_length if win_length is not None else play.default_k(size)
        vs_bot = opponent is None or opponent.id == me.id
        refusal = self._refuse_start(interaction, opponent, vs_bot=vs_bot, size=size, k=k)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        user = interaction.user
        channel_id = interaction.channel_id
        assert channel_id is not None
        if not self.games.reserve(channel_id):
            await interaction.response.send_message(
                render.busy_text(self.games.in_channel(channel_id)), ephemeral=True
            )
            return
        now = discord.utils.utcnow()
        if not vs_bot:
            self.games.note_challenge(user.id, now)
        rival = me.id if vs_bot else opponent.id  # type: ignore[union-attr]
        starts = first == "me" or (first == "random" and random.random() < 0.5)
        x_id, o_id = (user.id, rival) if starts else (rival, user.id)
        try:
            game_id = await self.bot.store.next_game_id()
        except StorageError as exc:
            self.games.release(channel_id)
            log.error("no id for a new game: %s", exc)
            await interaction.response.send_message(NOT_SAVED, ephemeral=True)
            return
        except BaseException:
            self.games.release(channel_id)
            raise
        game = GameRecord(
            id=game_id,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            x_id=x_id,
            o_id=o_id,
            challenger_id=user.id,
            size=size,
            k=k,
            ai_side=("O" if starts else "X") if vs_bot else None,
            ai_level=(difficulty or "unbeatable") if vs_bot else None,
            status=Status.ACTIVE if vs_bot else Status.CHALLENGE,
            created_at=now,
        )
        shown = await self.flow.open(interaction, game)
        if shown is not None and difficulty is not None and not vs_bot:
            await interaction.followup.send(
                "Note: difficulty only applies when you play against me, so it was ignored.",
                ephemeral=True,
            )

    def _refuse_start(
        self,
        interaction: Interaction,
        opponent: discord.User | None,
        *,
        vs_bot: bool,
        size: int,
        k: int,
    ) -> str | None:
        if k > size:
            return (
                f"win_length {k} does not fit on a {size}×{size} board: "
                f"choose a length from 3 to {size}."
            )
        if vs_bot or opponent is None:
            return None
        if opponent.id == interaction.user.id:
            return "You can't challenge yourself. Leave out opponent to play against me."
        if opponent.bot:
            return (
                f"{opponent.mention} is a bot and can't play. Challenge a person, "
                "or leave out opponent to play against me."
            )
        if interaction.guild_id is None:
            return "In direct messages you can only play against me; challenge people in a server."
        wait = self.games.cooldown_left(
            interaction.user.id, discord.utils.utcnow(), self.bot.settings.challenge_cooldown
        )
        if wait > 0:
            again = discord.utils.utcnow() + timedelta(seconds=wait)
            return (
                f"You challenged someone a moment ago. You can challenge again "
                f"{discord.utils.format_dt(again, 'R')} (in {wait:.0f} s); playing me has no wait."
            )
        return None

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Log the cause and apologize privately, whether or not the command had answered."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error("/%s failed", getattr(interaction.command, "name", "?"), exc_info=cause)
        await buttons.apologize(interaction)

    # -------------------------------------------------------------- clicks

    async def on_click(self, interaction: Interaction, game_id: int, what: str) -> None:
        """Route a board click (called by GameButton, which apologizes if this raises)."""
        await self.clicks.handle(interaction, game_id, what)
