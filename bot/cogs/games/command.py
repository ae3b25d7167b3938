"""The /tictactoe command: checks its options, then opens the game (see ``GameFlow.open``)."""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

import engine
from bot.cogs.games.flow import GameFlow
from bot.cogs.games.opening import open_game
from bot.config import Settings
from bot.discord_ui import access
from bot.games.record import GameRecord, Status
from bot.live.registry import GameRegistry

if TYPE_CHECKING:
    from engine import Level

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

FIRST = ("me", "opponent", "random")
LEVEL_CHOICES = [Choice(name=level.capitalize(), value=str(level)) for level in engine.LEVELS]
FIRST_CHOICES = [
    Choice(name="Me", value="me"),
    Choice(name="My opponent", value="opponent"),
    Choice(name="Random", value="random"),
]
SIZE_CHOICES = [Choice(name=f"{n}×{n}", value=n) for n in engine.SIZES]
IGNORED = "Note: difficulty only applies when you play against me, so it was ignored."


class GameCog(commands.Cog):
    """Tic-tac-toe against the bot or another member, on boards from 3x3 to 5x5."""

    def __init__(
        self, *, client: discord.Client, games: GameRegistry, flow: GameFlow, settings: Settings
    ) -> None:
        self.client = client
        self.games = games
        self.flow = flow
        self.settings = settings

    @app_commands.command(name="tictactoe")
    @app_commands.describe(
        opponent="Who to challenge. Leave it out (or pick me) to play against the bot.",
        difficulty="How well the bot plays (only against the bot). Default: unbeatable.",
        first="Who makes the first move (❌). Default: you.",
        size="Board size. Default: 3×3.",
        win_length="Marks in a row needed to win, 3 up to the board size. "
        "Default: 3 on 3×3, 4 on bigger boards.",
    )
    @app_commands.choices(difficulty=LEVEL_CHOICES, first=FIRST_CHOICES)
    @app_commands.choices(size=SIZE_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None = None,
        difficulty: str | None = None,
        first: str = "me",
        size: int = 3,
        win_length: app_commands.Range[int, 3, 5] | None = None,
    ) -> None:
        """Play tic-tac-toe against the bot or challenge someone."""
        me = self.client.user
        channel_id = interaction.channel_id
        if me is None or channel_id is None:
            raise RuntimeError("a command before the bot is ready, or outside any channel")
        k = win_length if win_length is not None else engine.default_k(size)
        rival = me.id if opponent is None else opponent.id
        vs_bot = rival == me.id
        refusal = _refuse_options(difficulty, first, size, k) or self._refuse_start(
            interaction, opponent, vs_bot=vs_bot
        )
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        user = interaction.user
        starts = first == "me" or (first == "random" and random.random() < 0.5)
        x_id, o_id = (user.id, rival) if starts else (rival, user.id)
        level = cast("Level", difficulty or "unbeatable")

        def build(game_id: int) -> GameRecord:
            now = self.games.now()
            if not vs_bot:
                self.games.note_challenge(user.id, now)
            return GameRecord(
                id=game_id,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                x_id=x_id,
                o_id=o_id,
                challenger_id=user.id,
                size=size,
                k=k,
                ai_side=("O" if starts else "X") if vs_bot else None,
                ai_level=level if vs_bot else None,
                status=Status.ACTIVE if vs_bot else Status.CHALLENGE,
                created_at=now,
            )

        shown = await open_game(self.flow, interaction, channel_id, build)
        if shown is not None and difficulty is not None and not vs_bot:
            await interaction.followup.send(IGNORED, ephemeral=True)

    def _refuse_start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        *,
        vs_bot: bool,
    ) -> str | None:
        lacking = access.missing(interaction)
        if lacking:
            return access.cannot_start(lacking)
        if vs_bot or opponent is None:
            return None
        if opponent.id == interaction.user.id:
            return "You can't challenge yourself. Leave out opponent to play against me."
        # A user Discord could not resolve arrives as a bare discord.Object, without `.bot`.
        if getattr(opponent, "bot", False):
            return (
                f"<@{opponent.id}> is a bot and can't play. Challenge a person, "
                "or leave out opponent to play against me."
            )
        if interaction.guild_id is None:
            return "In direct messages you can only play against me; challenge people in a server."
        if not isinstance(opponent, discord.Member):
            return f"<@{opponent.id}> is not a member of this server, so they can't play here."
        now = self.games.now()
        wait = self.games.cooldown_left(interaction.user.id, now, self.settings.challenge_cooldown)
        if wait > 0:
            again = now + timedelta(seconds=wait)
            return (
                f"You challenged someone a moment ago. You can challenge again "
                f"{discord.utils.format_dt(again, 'R')} (in {wait:.0f} s); playing me has no wait."
            )
        return None


def _refuse_options(difficulty: str | None, first: str, size: int, k: int) -> str | None:
    """Option values Discord's own checks should have stopped (a modified or stale client)."""
    if size not in engine.SIZES:
        return f"size must be one of {', '.join(map(str, engine.SIZES))}."
    if not isinstance(k, int) or not 3 <= k <= size:
        return (
            f"win_length {k} does not fit on a {size}×{size} board: "
            f"choose a length from 3 to {size}."
        )
    if difficulty is not None and difficulty not in engine.LEVELS:
        return f"difficulty must be one of {', '.join(engine.LEVELS)}."
    if first not in FIRST:
        return f"first must be one of {', '.join(FIRST)}."
    return None
