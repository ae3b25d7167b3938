"""/tictactoe-tournament: create (Manage Server), start, join, leave and standings, and the clicks
on an announcement's buttons (``board``'s custom ids, handed on by the game cog's one
click listener as the event ``CLICK``).

Create checks, before anything is stored, that the bot may post in the channel and make public
threads and post in them there; a missing permission is named and nothing starts. Tournaments
live in servers that added the bot; anywhere else the command says so privately. Each
interaction gets exactly one private answer, its store work bounded by the command's read budget;
Create answers at once (deferred) and says in that answer how it went, since storing and posting
the announcement may take longer than Discord's 3 s.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.app_commands import locale_str as _l
from discord.ext import commands

from bot.cogs.games import applied_settings
from bot.cogs.games.command import (
    SIZE_CHOICES,
    VARIANT_CHOICES,
    Chosen,
    choose,
)
from bot.cogs.games.events import ENDED
from bot.cogs.games.texts import NOT_SAVED
from bot.discord_ui import access, replies, time_limits
from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.i18n import N_, Text
from bot.storage.base import StorageError, in_time
from bot.tournaments import board as shown
from bot.tournaments import texts
from bot.tournaments.checks import NEEDS, no_threads, start_time
from bot.tournaments.entry import Entry
from bot.tournaments.tournament import AUTO_ROUNDS, Format, Tournament

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
FORMATS = [Choice(name=_l("Swiss"), value="swiss"), Choice(name=_l("Arena"), value="arena")]
ARENA_MINUTES = 30  # an arena's length when none is given


def organizer(interaction: Interaction, conf: ServerSettings) -> bool:
    """Whether the member has the role the server lets create tournaments."""
    roles = getattr(interaction.user, "roles", None) or []
    return conf.tournament_role is not None and any(
        role.id == conf.tournament_role for role in roles
    )


class TournamentCog(commands.Cog):
    """Tournaments: Swiss and arena, each game in its own thread."""

    group = app_commands.Group(
        name=_l("tictactoe-tournament"),
        description=_l("Run a tournament in this server: Swiss or arena, each game in a thread."),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )

    def __init__(self, *, entry: Entry, servers: dict[int, ServerSettings]) -> None:
        self.entry = entry
        self.director = entry.director
        self.tournament_store = entry.tournament_store
        self.announcer = entry.director.announcer
        self.servers = servers

    async def cog_unload(self) -> None:
        self.director.close()
        await self.director.announcer.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Go on with this process's tournaments (every reconnection re-reads the store; each
        step is done once whatever the number of times it is asked for)."""
        await self.director.resume()

    @group.command(name="create", description=_l("Create a tournament (Manage Server)."))
    @app_commands.describe(
        format=_l("Swiss: rounds, everyone plays each round. Arena: as many games as you can."),
        variant=_l("Classic tic-tac-toe, or ultimate: nine boards in one. Default: classic."),
        size=_l("Board size. Default: 3×3."),
        win_length=_l("Marks in a row to win (3 to the board size). Default: 3 on 3×3, else 4."),
        move_time=_l("Seconds a player has for a move"),
        rounds=_l("Swiss: how many rounds. Default: from the number of players."),
        minutes=_l("Arena: how long it lasts, in minutes. Default: 30."),
        start=_l("A Discord timestamp such as <t:1767225600:f>. Default: when you press Start."),
        channel=_l("Where it is announced and its games are played. Default: here."),
        max_players=_l("The most players who may join. Default: no limit."),
    )
    @app_commands.choices(format=FORMATS, variant=VARIANT_CHOICES)
    @app_commands.choices(size=SIZE_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        format: str,
        variant: str | None = None,
        size: int | None = None,
        win_length: Range[int, 3, 5] | None = None,
        move_time: Range[int, 10, 86_400] = 60,
        rounds: Range[int, 1, 50] | None = None,
        minutes: Range[int, 1, 1_440] | None = None,
        start: str | None = None,
        channel: discord.TextChannel | None = None,
        max_players: Range[int, 2, 1_000] | None = None,
    ) -> None:
        """Check everything, store the tournament, post its announcement."""
        refusal, where = self._refuse_place(interaction, channel)
        conf = applied_settings.of(self.servers, interaction.guild_id)
        chosen = choose(conf, variant, size, win_length, None, "me")
        when = start_time(start, discord.utils.utcnow())
        refusal = (
            refusal
            or (chosen if not isinstance(chosen, Chosen) else None)
            or (texts.WRONG_OPTION if format == "swiss" and minutes is not None else None)
            or (texts.WRONG_OPTION if format == "arena" and rounds is not None else None)
            or (when if isinstance(when, Text) else None)
        )
        if refusal is not None or where is None:
            await replies.tell(interaction, refusal or texts.NOT_TEXT)
            return
        assert isinstance(chosen, Chosen) and not isinstance(when, Text)  # else refused above
        swiss = format == "swiss"
        t = Tournament(
            id=0,
            guild_id=where.guild.id,
            channel_id=where.id,
            creator_id=interaction.user.id,
            format=Format.SWISS if swiss else Format.ARENA,
            kind=chosen.kind.name,
            size=chosen.size,
            k=chosen.k,
            move_seconds=move_time,
            starts_at=when,
            rounds=(rounds or AUTO_ROUNDS) if swiss else None,
            minutes=None if swiss else minutes or ARENA_MINUTES,
            capacity=max_players,
            locale=applied_settings.board_locale(conf, interaction),
        )
        # The answer, at once: storing and posting the announcement may take longer than 3 s.
        await time_limits.answer(
            interaction, interaction.response.defer(ephemeral=True, thinking=True)
        )
        await replies.tell(interaction, await self.director.announce(t, where))

    def _refuse_place(
        self, interaction: Interaction, channel: discord.TextChannel | None
    ) -> tuple[Text | None, discord.TextChannel | None]:
        """Why a tournament cannot run there (or None), and the channel it would run in."""
        guild = interaction.guild
        if interaction.guild_id is None or guild is None or not access.reaches_channel(interaction):
            return texts.NOT_HERE, None
        conf = applied_settings.of(self.servers, guild.id)
        if not interaction.permissions.manage_guild and not organizer(interaction, conf):
            if conf.tournament_role is None:
                return texts.NOT_ALLOWED, None
            return N_(texts.NOT_ORGANIZER.msgid, role=f"<@&{conf.tournament_role}>"), None
        where = guild.get_channel(channel.id if channel else interaction.channel_id or 0)
        if not isinstance(where, discord.TextChannel):
            return texts.NOT_TEXT, None
        if where.id == interaction.channel_id:
            have = interaction.app_permissions
        else:
            have = where.permissions_for(guild.me)
        missing = [name for flag, name in NEEDS.items() if not getattr(have, flag)]
        return (no_threads(missing, where.mention) if missing else None), where

    async def _here(self, interaction: Interaction) -> Tournament | Text:
        """The live tournament of the channel the member is in (or of the thread's channel), or
        why there is none."""
        if interaction.guild_id is None or not access.reaches_channel(interaction):
            return texts.NOT_HERE
        ids = {interaction.channel_id, getattr(interaction.channel, "parent_id", None)}
        live = await self.tournament_store.tournaments_running([interaction.guild_id])
        found = [t for t in live if t.channel_id in ids]
        return found[-1] if found else texts.NONE_HERE

    @group.command(name="join", description=_l("Join the tournament of this channel."))
    async def join(self, interaction: Interaction) -> None:
        """Join by command."""
        await self._act(interaction, None, shown.JOIN)

    @group.command(name="leave", description=_l("Leave the tournament of this channel."))
    async def leave(self, interaction: Interaction) -> None:
        """Leave by command."""
        await self._act(interaction, None, shown.LEAVE)

    @group.command(name="start", description=_l("Start the tournament of this channel now."))
    async def start_now(self, interaction: Interaction) -> None:
        """Start by command."""
        await self._act(interaction, None, shown.START)

    @group.command(
        name="standings", description=_l("Show the standings of this channel's tournament.")
    )
    async def standings(self, interaction: Interaction) -> None:
        """The announcement as it is now, privately."""
        try:
            t = await in_time(self._here(interaction))
            layout = None if isinstance(t, Text) else await in_time(self.announcer.view(t))
        except StorageError as error:
            log.debug("could not show standings: %s", error)
            t, layout = NOT_SAVED, None
        if layout is None:
            await replies.tell(interaction, t if isinstance(t, Text) else NOT_SAVED)
            return
        await time_limits.answer(
            interaction, interaction.response.send_message(view=layout, ephemeral=True)
        )

    @commands.Cog.listener(f"on_{shown.CLICK}")
    async def on_click(self, interaction: Interaction, custom_id: str) -> None:
        """A button of an announcement."""
        parsed = shown.parse_id(custom_id)
        if parsed is None:
            await replies.tell(interaction, texts.NONE_HERE)
            return
        await self._act(interaction, parsed[0], parsed[1])

    async def _act(self, interaction: Interaction, tid: int | None, what: str) -> None:
        """Join, leave or start the tournament `tid` (None: this channel's); one answer."""
        try:
            answer = await in_time(self._answer(interaction, tid, what))
        except StorageError as error:
            log.debug("could not %s a tournament: %s", what, error)
            answer = NOT_SAVED
        await replies.tell(interaction, answer)

    async def _answer(self, interaction: Interaction, tid: int | None, what: str) -> Text:
        t = (
            await self._here(interaction)
            if tid is None
            else await self.tournament_store.get_tournament(tid)
        )
        if isinstance(t, Text):
            return t
        if t is None or t.guild_id != interaction.guild_id:
            return texts.NONE_HERE
        if tid is not None and t.message_id is None and interaction.message is not None:
            # Its announcement, posted before a crash that kept its id from the store.
            await self.tournament_store.set_tournament_messages(
                t.id, message_id=interaction.message.id
            )
            t = dataclasses.replace(t, message_id=interaction.message.id)
        if what == shown.JOIN:
            return await self.entry.join(t, interaction.user)
        if what == shown.LEAVE:
            return await self.entry.leave(t, interaction.user.id)
        return await self.entry.start(t, interaction)

    @commands.Cog.listener(f"on_{ENDED}")
    async def on_game_ended(self, game: GameRecord) -> None:
        """A game that ended: a tournament's result, if it is one of theirs (the director's
        work: stopped with it when the bot stops, and gone on with at the next start)."""
        # A tournament's games are between two entrants, in a server the bot is in: a game
        # against the bot, or shown only through interactions, is never one (no read for it).
        if game.guild_id is not None and not game.interactions_only and not game.vs_bot:
            self.director.spawn(self.director.game_ended(game))
