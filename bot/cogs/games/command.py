"""The /tictactoe command: checks its options, then opens the game (see ``GameFlow.open``)."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _l
from discord.ext import commands

import engine
from bot.cogs.games import applied_settings
from bot.cogs.games.flow import GameFlow
from bot.cogs.games.opening import open_game
from bot.cogs.games.router import Router
from bot.cogs.games.stat_lines import StatLines
from bot.config import Settings
from bot.discord_ui import access, replies
from bot.games import kinds, rules
from bot.games import look as looks
from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.i18n import N_, Text
from bot.live.owners import Live

if TYPE_CHECKING:
    from engine import Level

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

FIRST = ("me", "opponent", "random")
LEVEL_CHOICES = [
    Choice(name=_l("Easy"), value="easy"),
    Choice(name=_l("Medium"), value="medium"),
    Choice(name=_l("Hard"), value="hard"),
    Choice(name=_l("Unbeatable"), value="unbeatable"),
]
FIRST_CHOICES = [
    Choice(name=_l("Me"), value="me"),
    Choice(name=_l("My opponent"), value="opponent"),
    Choice(name=_l("Random"), value="random"),
]
SIZE_CHOICES = [Choice(name=f"{n}×{n}", value=n) for n in engine.SIZES]
VARIANT_CHOICES = [
    Choice(name=_l("Classic"), value=kinds.CLASSIC.name),
    Choice(name=_l("Ultimate (nine boards in one)"), value=kinds.ULTIMATE.name),
]
STYLE_CHOICES = [
    Choice(name=_l("emoji"), value="emoji"),
    Choice(name=_l("picture"), value="picture"),
]
IGNORED = N_("Note: difficulty only applies when you play against me, so it was ignored.")


class GameCog(commands.Cog):
    """Tic-tac-toe against the bot or another member, on boards from 3x3 to 5x5."""

    def __init__(
        self,
        *,
        client: discord.Client,
        live: Live,
        flow: GameFlow,
        settings: Settings,
        servers: dict[int, ServerSettings],
        router: Router | None = None,
    ) -> None:
        self.client = client
        self.live = live
        self.flow = flow
        self.router = Router() if router is None else router  # the features' buttons
        self.stat_lines = StatLines()  # the features' lines in /tictactoe-stats
        self.settings = settings
        self.servers = servers

    @app_commands.command(
        name=_l("tictactoe"),
        description=_l("Play tic-tac-toe against the bot or challenge someone."),
    )
    @app_commands.rename(
        opponent=_l("opponent"),
        difficulty=_l("difficulty"),
        first=_l("first"),
        size=_l("size"),
        win_length=_l("win_length"),
        variant=_l("variant"),
        style=_l("style"),
    )
    @app_commands.describe(
        opponent=_l("Who to challenge. Leave it out (or pick me) to play against the bot."),
        difficulty=_l("How well the bot plays (only against the bot). Default: unbeatable."),
        first=_l("Who makes the first move (❌). Default: you."),
        size=_l("Board size. Default: 3×3."),
        win_length=_l("Marks in a row to win (3 to the board size). Default: 3 on 3×3, else 4."),
        variant=_l("Classic tic-tac-toe, or ultimate: nine boards in one. Default: classic."),
        style=_l("The board as emoji, or as a picture. Default: the server's setting, or emoji."),
    )
    @app_commands.choices(difficulty=LEVEL_CHOICES, first=FIRST_CHOICES, variant=VARIANT_CHOICES)
    @app_commands.choices(style=STYLE_CHOICES)
    @app_commands.choices(size=SIZE_CHOICES)
    # Installed to a server (a board in its channels) or to a person's account (DMs, group DMs
    # and servers without the bot, where the board lives only in interaction responses).
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None = None,
        difficulty: str | None = None,
        first: str = "me",
        size: int | None = None,
        win_length: app_commands.Range[int, 3, 5] | None = None,
        variant: str | None = None,
        style: str | None = None,
    ) -> None:
        """Play tic-tac-toe against the bot or challenge someone."""
        me, channel_id = self.client.user, interaction.channel_id
        if me is None or channel_id is None:
            raise RuntimeError("a command before the bot is ready, or outside any channel")
        conf = applied_settings.of(self.servers, interaction.guild_id)
        chosen = choose(conf, variant, size, win_length, difficulty, first)
        vs_bot = opponent is None or opponent.id == me.id
        refusal = chosen if not isinstance(chosen, Chosen) else None
        refusal = refusal or self._refuse_start(interaction, opponent, conf, vs_bot=vs_bot)
        if refusal is not None:
            await replies.tell(interaction, refusal)
            return
        assert isinstance(chosen, Chosen)  # else refused above
        user, rival = interaction.user, me.id if opponent is None else opponent.id
        starts = chosen.first == "me" or (chosen.first == "random" and random.random() < 0.5)
        locale = applied_settings.board_locale(conf, interaction)

        def build(game_id: int) -> GameRecord:
            now = self.live.clock.now()
            if not vs_bot:
                self.live.cooldowns.challenged(user.id, now)
            x_id, o_id = (user.id, rival) if starts else (rival, user.id)
            return rules.new_game(
                game_id=game_id,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                x_id=x_id,
                o_id=o_id,
                challenger_id=user.id,
                kind=chosen.kind.name,
                size=chosen.size,
                k=chosen.k,
                level=chosen.level if vs_bot else None,
                now=now,
                locale=locale,
                interactions_only=not access.reaches_channel(interaction),
            )

        style = style if style in looks.STYLES else None
        shown = await open_game(self.flow, interaction, channel_id, build, style=style)
        if shown is not None and difficulty is not None and not vs_bot:
            await replies.tell(interaction, IGNORED)

    def _refuse_start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        conf: ServerSettings,
        *,
        vs_bot: bool,
    ) -> Text | None:
        unshared = access.unshared(interaction)
        if unshared is not None:
            return unshared
        refusal = applied_settings.refuse_place(conf, interaction)
        if refusal is not None or vs_bot or opponent is None:
            return refusal
        if opponent.id == interaction.user.id:
            return N_("You can't challenge yourself. Leave out opponent to play against me.")
        # A user Discord could not resolve arrives as a bare discord.Object, without `.bot`.
        if getattr(opponent, "bot", False):
            return N_(
                "{player} is a bot and can't play. Challenge a person, "
                "or leave out opponent to play against me.",
                player=f"<@{opponent.id}>",
            )
        if interaction.guild_id is None:
            return _refuse_in_dm(interaction, opponent)
        if not isinstance(opponent, discord.Member):
            return N_(
                "{player} is not a member of this server, so they can't play here.",
                player=f"<@{opponent.id}>",
            )
        refusal = applied_settings.refuse_opponent(
            conf, opponent, yours=applied_settings.may_change(interaction)
        )
        now = self.live.clock.now()
        cooldown = applied_settings.cooldown(conf, self.settings)
        wait = self.live.cooldowns.left(interaction.user.id, now, cooldown)
        if refusal is None and wait > 0:
            again = now + timedelta(seconds=wait)
            refusal = N_(
                "You challenged someone a moment ago. You can challenge again {when} "
                "(in {seconds} s); playing me has no wait.",
                when=discord.utils.format_dt(again, "R"),
                seconds=f"{wait:.0f}",
            )
            if conf.challenge_cooldown is not None:
                refusal = applied_settings.by_setting(
                    refusal, "challenge_cooldown", yours=applied_settings.may_change(interaction)
                )
        return refusal


def _refuse_in_dm(interaction: Interaction, opponent: discord.Member | discord.User) -> Text | None:
    """A challenge outside servers: only in a DM or group DM the opponent is in (the bot's own
    DM is the bot's and its one person's)."""
    if access.reaches_channel(interaction):
        return N_(
            "In my DMs you can only play against me; challenge people in a server, or in your "
            "DM or group DM with them."
        )
    channel = interaction.channel
    recipients = getattr(channel, "recipients", None) or []
    if recipients and opponent.id not in {person.id for person in recipients}:
        return N_(
            "{player} is not in this conversation, so they can't see the board. Challenge "
            "someone who is here.",
            player=f"<@{opponent.id}>",
        )
    return None


@dataclass(frozen=True, slots=True)
class Chosen:
    """The options of a /tictactoe that stand: the kind of game, its board, the bot's level
    (if it plays) and who moves first."""

    kind: kinds.Kind
    size: int
    k: int
    level: Level
    first: str


def choose(
    conf: ServerSettings,
    variant: str | None,
    size: int | None,
    win_length: int | None,
    difficulty: str | None,
    first: str,
) -> Chosen | Text:
    """The options as chosen, the server's defaults where they are left out; or the refusal of
    the first that does not fit."""
    kind = kinds.KINDS.get(variant or kinds.CLASSIC.name)
    unfit = refuse_variant(kind, size, win_length)
    if unfit is not None or kind is None:
        return unfit or N_("variant must be one of {choices}.", choices=", ".join(kinds.KINDS))
    size, k = board_of(conf, size, win_length) if kind is kinds.CLASSIC else (9, 3)
    refusal = refuse_options(difficulty, first, size, k, board=kind is kinds.CLASSIC)
    if refusal is not None:
        return refusal
    level = cast("Level", kind.engine_level(difficulty or conf.difficulty or kind.strongest))
    return Chosen(kind, size, k, level, first)


def board_of(conf: ServerSettings, size: int | None, k: int | None) -> tuple[int, int]:
    """The board size and line length: as chosen, else the server's defaults where they fit."""
    size = size if size is not None else conf.size or 3
    if k is None and conf.win_length is not None and conf.win_length <= size:
        k = conf.win_length
    return size, k if k is not None else engine.default_k(size)


def refuse_variant(
    kind: kinds.Kind | None, size: int | None, win_length: int | None
) -> Text | None:
    """A variant Discord's choices should have stopped, or board options ultimate ignores."""
    if kind is None:
        return N_("variant must be one of {choices}.", choices=", ".join(kinds.KINDS))
    if kind is not kinds.CLASSIC and (size is not None or win_length is not None):
        return N_(
            "size and win_length are for classic boards: ultimate is always nine 3×3 boards, "
            "three boards in a row to win. Leave them out."
        )
    return None


def refuse_options(
    difficulty: str | None, first: str, size: int, k: int, *, board: bool = True
) -> Text | None:
    """Option values Discord's own checks should have stopped (a modified or stale client);
    `board`: the size and line length are the player's to choose (classic boards)."""
    if board and size not in engine.SIZES:
        return N_("size must be one of {sizes}.", sizes=", ".join(map(str, engine.SIZES)))
    if board and (not isinstance(k, int) or not 3 <= k <= size):
        return N_(
            "win_length {k} does not fit on a {size}×{size} board: "
            "choose a length from 3 to {size}.",
            k=k,
            size=size,
        )
    if difficulty is not None and difficulty not in engine.LEVELS:
        return N_("difficulty must be one of {levels}.", levels=", ".join(engine.LEVELS))
    if first not in FIRST:
        return N_("first must be one of {choices}.", choices=", ".join(FIRST))
    return None
