"""/tictactoe-settings: a server's own rules for games, changed by members with Manage Server,
shown to anyone. Stored per server (``Store.save_server_settings``) and kept in memory, where
/tictactoe and the game clock read them; the environment's values are the defaults.

The option names are the settings' names and stay the same in every language, so a refusal that
names a setting names what an admin types.
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
from bot.cogs.games.command import LEVEL_CHOICES, SIZE_CHOICES, STYLE_CHOICES
from bot.cogs.games.settings_view import SETTINGS, describe
from bot.config import Settings
from bot.discord_ui import access, emoji, replies
from bot.games import look as looks
from bot.games.settings import BOARD_LANGUAGES, ServerSettings, validated
from bot.i18n import N_, translation
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
ADMINS_ONLY = N_(
    "Only members with the Manage Server permission can change these settings; "
    "anyone can see them with /tictactoe-settings show."
)
NOT_SAVED = N_("Sorry, I could not save the settings just now, so nothing changed. Try again.")
NOTHING = N_("Nothing to change: pick at least one option.")
SAVED = N_("Saved. The settings of this server now:")
INPUTS = [Choice(name=_l(name), value=name) for name in ("buttons", "reactions", "both")]
LANGUAGES = [Choice(name=name, value=code) for code, name in BOARD_LANGUAGES.items()]
ACTIONS = [Choice(name=_l("allow"), value="allow"), Choice(name=_l("remove"), value="remove")]
RESETS = [Choice(name=name, value=name) for name in ("all", *SETTINGS)]


class SettingsCog(commands.Cog):
    """Per-server settings for games."""

    group = app_commands.Group(
        name=_l("tictactoe-settings"),
        description=_l("See or change how tic-tac-toe works on this server."),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    def __init__(
        self, *, store: Store, settings: Settings, servers: dict[int, ServerSettings]
    ) -> None:
        self.store = store
        self.settings = settings
        self.servers = servers

    @group.command(name="show", description=_l("Show this server's tic-tac-toe settings."))
    async def show(self, interaction: Interaction) -> None:
        """Anyone may look."""
        conf = applied_settings.of(self.servers, interaction.guild_id)
        catalog = translation(str(interaction.locale))
        await replies.tell(interaction, describe(conf, self.settings, catalog))

    @group.command(name="set", description=_l("Change the defaults, clocks, limits and language."))
    @app_commands.describe(
        difficulty=_l("Default difficulty of the bot"),
        size=_l("Default board size"),
        win_length=_l("Default marks in a row to win (used when it fits the board)"),
        turn_timeout=_l("Seconds a player has for a move"),
        challenge_timeout=_l("Seconds to answer a challenge"),
        challenge_cooldown=_l("Seconds between two challenges by the same member"),
        games_per_channel=_l("How many games may run at once in one channel"),
        language=_l("Language of the shared board"),
        mark_x=_l("Mark of X: one emoji (Unicode, this server's, or one of mine)"),
        mark_o=_l("Mark of O: one emoji (Unicode, this server's, or one of mine)"),
        mark_empty=_l("Mark of an empty cell: one emoji"),
        input=_l("How players move: buttons, reactions under the board, or both"),
        puzzle_channel=_l("Channel where I post the daily puzzle"),
        puzzle_hour=_l("Hour (UTC, 0-23) of the daily puzzle's post"),
        tournament_role=_l("Role whose members may create tournaments (besides Manage Server)"),
        board_style=_l("The board as emoji, or as a picture above its buttons"),
    )
    @app_commands.choices(difficulty=LEVEL_CHOICES, language=LANGUAGES, input=INPUTS)
    @app_commands.choices(board_style=STYLE_CHOICES)
    @app_commands.choices(size=SIZE_CHOICES)
    async def set_(
        self,
        interaction: Interaction,
        difficulty: str | None = None,
        size: int | None = None,
        win_length: Range[int, 3, 5] | None = None,
        turn_timeout: Range[int, 30, 86_400] | None = None,
        challenge_timeout: Range[int, 15, 3_600] | None = None,
        challenge_cooldown: Range[int, 0, 3_600] | None = None,
        games_per_channel: Range[int, 1, 10] | None = None,
        language: str | None = None,
        mark_x: str | None = None,
        mark_o: str | None = None,
        mark_empty: str | None = None,
        input: str | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        puzzle_hour: Range[int, 0, 23] | None = None,
        board_style: str | None = None,
        tournament_role: discord.Role | None = None,
    ) -> None:
        given = dict(
            difficulty=difficulty,
            size=size,
            win_length=win_length,
            turn_timeout=turn_timeout,
            challenge_timeout=challenge_timeout,
            challenge_cooldown=challenge_cooldown,
            games_per_channel=games_per_channel,
            language=language,
            mark_x=mark_x,
            mark_o=mark_o,
            mark_empty=mark_empty,
            input=input,
            puzzle_channel=puzzle_channel.id if puzzle_channel else None,
            puzzle_hour=puzzle_hour,
            board_style=board_style,
            tournament_role=tournament_role.id if tournament_role else None,
        )
        changes = {name: value for name, value in given.items() if value is not None}
        if not changes:
            await replies.tell(interaction, NOTHING)
            return
        # Others than managers are told they may not change it (by `_change`).
        lacking = access.cannot_post(puzzle_channel) if puzzle_channel else []
        if puzzle_channel and lacking and interaction.permissions.manage_guild:
            await replies.tell(interaction, access.no_post(lacking, puzzle_channel))
            return
        for name, mark in (("mark_x", mark_x), ("mark_o", mark_o), ("mark_empty", mark_empty)):
            if mark is not None:
                refusal = await emoji.refuse_mark(mark.strip(), interaction)
                if refusal is not None:
                    await replies.tell(interaction, refusal)
                    return
                # Stored as Discord knows it, whatever variation selectors were typed.
                changes[name] = looks.canonical(mark.strip()) or mark.strip()
        await self._change(interaction, lambda conf: dataclasses.replace(conf, **changes))

    @group.command(name="channel", description=_l("Allow games in a channel, or remove it."))
    @app_commands.describe(
        action=_l("allow: games may start there; remove: take it off the list"),
        channel=_l("The channel (with none allowed, games may start anywhere)"),
    )
    @app_commands.choices(action=ACTIONS)
    async def channel(
        self, interaction: Interaction, action: str, channel: discord.abc.GuildChannel
    ) -> None:
        await self._change(
            interaction,
            lambda conf: dataclasses.replace(
                conf, channels=_toggle(conf.channels, channel.id, add=action == "allow")
            ),
        )

    @group.command(name="role", description=_l("Allow a role to play, or remove it."))
    @app_commands.describe(
        action=_l("allow: members with it may play; remove: take it off the list"),
        role=_l("The role (with none allowed, everyone may play)"),
    )
    @app_commands.choices(action=ACTIONS)
    async def role(self, interaction: Interaction, action: str, role: discord.Role) -> None:
        await self._change(
            interaction,
            lambda conf: dataclasses.replace(
                conf, roles=_toggle(conf.roles, role.id, add=action == "allow")
            ),
        )

    @group.command(name="reset", description=_l("Put one setting, or all, back to the default."))
    @app_commands.describe(setting=_l("The setting to reset"))
    @app_commands.choices(setting=RESETS)
    async def reset(self, interaction: Interaction, setting: str) -> None:
        if setting == "all":
            await self._change(interaction, lambda conf: ServerSettings())
            return
        default = ServerSettings.__dataclass_fields__[setting].default
        await self._change(
            interaction, lambda conf: dataclasses.replace(conf, **{setting: default})
        )

    async def _change(self, interaction: Interaction, change: Any) -> None:
        """Apply a change for a member with Manage Server, save it, then show the settings."""
        guild_id = interaction.guild_id
        if guild_id is None or not interaction.permissions.manage_guild:
            await replies.tell(interaction, ADMINS_ONLY)
            return
        after = validated(change(applied_settings.of(self.servers, guild_id)))
        if not looks.valid(after.look()):
            await replies.tell(interaction, emoji.SAME)
            return
        try:
            await self.store.save_server_settings(guild_id, after)
        except StorageError as exc:
            log.debug("could not save the settings of server %s: %s", guild_id, exc)
            await replies.tell(interaction, NOT_SAVED)
            return
        self.servers[guild_id] = after
        catalog = translation(str(interaction.locale))
        text = f"{SAVED.render(catalog)}\n{describe(after, self.settings, catalog)}"
        await replies.tell(interaction, text)


def _toggle(ids: tuple[int, ...], one: int, *, add: bool) -> tuple[int, ...]:
    kept = tuple(i for i in ids if i != one)
    return (*kept, one) if add else kept
