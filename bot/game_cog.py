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
from bot import access, buttons, play, render
from bot.buttons import GameButton
from bot.clicks import Clicks
from bot.flow import BOARD, NOT_SAVED, GameFlow
from bot.games import GameRegistry
from bot.models import GameRecord, Status
from bot.store import StorageError

if TYPE_CHECKING:
    from bot.client import TicTacToeBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

FIRST = ("me", "opponent", "random")
ELSEWHERE = (
    "That button belongs to a game on another message; use the buttons on that game's own board."
)
OFF_BOARD = "That cell is not on this board; pick an empty cell of the board."
NOT_MINE = "That is not a button of mine, so it does nothing. Start a game with /tictactoe."


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
            self.games.unverified.add(game.id)
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
        refusal = self._refuse_options(difficulty, first, size, k) or self._refuse_start(
            interaction, opponent, vs_bot=vs_bot, size=size, k=k
        )
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

    @staticmethod
    def _refuse_options(difficulty: str | None, first: str, size: int, k: int) -> str | None:
        """Option values Discord's own checks should have stopped (a modified or stale client)."""
        if size not in play.SIZES:
            return f"size must be one of {', '.join(map(str, play.SIZES))}."
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

    def _refuse_start(
        self,
        interaction: Interaction,
        opponent: discord.User | None,
        *,
        vs_bot: bool,
        size: int,
        k: int,
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
        """Route a board click (called by GameButton, which apologizes if this raises).

        A click only counts on its game's own board; afterwards a board whose last edit failed
        is shown again, so a refused click repairs it too.
        """
        game = await self.flow.load(game_id)
        if game is not None and not self._on_its_board(interaction, game):
            await self.flow.tell(interaction, ELSEWHERE)
            return
        if game is not None and what.isdigit() and int(what) >= game.size * game.size:
            await self.flow.tell(interaction, OFF_BOARD)
            return
        if self.games.first_click(game_id) and not render.shows(interaction.message, game):
            self.games.stale.add(game_id)  # saved, never shown: the last process died
        stale = game_id in self.games.stale  # an earlier edit failed (this click's are retried)
        await self.clicks.handle(interaction, game_id, what)
        if stale and game_id in self.games.stale:
            await self.flow.repair(game_id)
        lacking = access.missing(interaction)
        if lacking and interaction.extras.get(BOARD) and game is not None:
            # The click's answer showed the move, but nothing can be edited between clicks.
            await self.flow.tell_safely(interaction, access.still_missing(lacking))

    @staticmethod
    def _on_its_board(interaction: Interaction, game: GameRecord) -> bool:
        if interaction.channel_id != game.channel_id:
            return False
        message = interaction.message
        return game.message_id is None or message is None or message.id == game.message_id

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer the button clicks discord.py routes nowhere, so no click goes unanswered.

        discord.py hands a click to GameButton only when its custom id matches the template and
        the message has a button with that id; anything else (a forged or mangled id) would be
        dropped in silence and the user would see "This interaction failed". A well-formed id
        goes through the usual checks (its game, its channel, the player); the rest are refused.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        match = GameButton.__discord_ui_compiled_template__.fullmatch(custom_id)
        message = interaction.message
        shown = render.buttons_in(message.components) if message is not None else ()
        if match and any(button.custom_id == custom_id for button in shown):
            return  # GameButton has it
        try:
            if match is None:
                await self.flow.tell(interaction, NOT_MINE)
            else:
                await self.on_click(interaction, int(match["game"]), match["what"])
        except Exception:
            log.exception("click on %r by %s failed", custom_id, interaction.user.id)
            await buttons.apologize(interaction)

    # ------------------------------------------------------- deleted boards

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deleted board ends its game (abandoned, counted for nobody) and frees the channel."""
        await self._board_deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Several messages deleted at once: the same, for a board among them."""
        await self._board_deleted(payload.channel_id, payload.message_ids)

    async def _board_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        game = self.games.in_channel(channel_id)
        if game is None or game.message_id not in message_ids:
            return
        await self.flow.abandon(game.id, message_ids)
