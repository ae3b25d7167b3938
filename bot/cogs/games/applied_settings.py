"""A server's settings as /tictactoe applies them: the bot's defaults where the server set
nothing, the refusals that follow from a setting (each names the setting and who can change it),
and the language of a new game's board.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.config import Settings
from bot.games.settings import DEFAULTS as NONE
from bot.games.settings import ServerSettings
from bot.i18n import N_, NP_, Text, has_catalog

Interaction = discord.Interaction[Any]
WHO = N_("Members with the Manage Server permission can change it with /tictactoe-settings.")
YOURS = N_("You have the Manage Server permission: you can change it with /tictactoe-settings.")


def of(servers: dict[int, ServerSettings], guild_id: int | None) -> ServerSettings:
    """A server's settings (none set: every default); direct messages have none."""
    return NONE if guild_id is None else servers.get(guild_id, NONE)


def by_setting(refusal: Text, setting: str, *, yours: bool = False) -> Text:
    """A refusal that follows from a server setting: it says which, and who can change it
    (`yours`: the member told has Manage Server, and may change it themself)."""
    who = YOURS if yours else WHO
    return N_(
        "{refusal}\n-# Server setting `{setting}`. {who}", refusal=refusal, setting=setting, who=who
    )


def may_change(interaction: Interaction) -> bool:
    """Whether the member who asked may change the server's settings (Manage Server)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def timeouts(conf: ServerSettings, settings: Settings) -> tuple[float, float]:
    """The turn and challenge timeouts (seconds) of a server."""
    turn = conf.turn_timeout if conf.turn_timeout is not None else settings.turn_timeout
    challenge = conf.challenge_timeout
    return turn, challenge if challenge is not None else settings.challenge_timeout


def cooldown(conf: ServerSettings, settings: Settings) -> float:
    """The challenge cooldown (seconds) of a server."""
    mine = conf.challenge_cooldown
    return float(mine) if mine is not None else settings.challenge_cooldown


def may_play(conf: ServerSettings, member: object) -> bool:
    """Whether a member has one of the roles allowed to play (any member, when none is set)."""
    if not conf.roles:
        return True
    roles = getattr(member, "roles", None)
    if roles is None:
        return False
    return any(role.id in conf.roles for role in roles)


def refuse_place(conf: ServerSettings, interaction: Interaction) -> Text | None:
    """Why a game may not start here or by this member, or None."""
    channel_id = interaction.channel_id
    parent = getattr(interaction.channel, "parent_id", None)
    yours = may_change(interaction)
    if conf.channels and channel_id not in conf.channels and parent not in conf.channels:
        where = ", ".join(f"<#{channel}>" for channel in conf.channels)
        return by_setting(
            NP_(
                "Games can only be started in {channels} on this server.",
                "Games can only be started in these channels on this server: {channels}.",
                len(conf.channels),
                channels=where,
            ),
            "channels",
            yours=yours,
        )
    if not may_play(conf, interaction.user):
        return by_setting(
            N_("Only members with one of these roles can play here: {roles}.", roles=roles(conf)),
            "roles",
            yours=yours,
        )
    return None


def refuse_opponent(
    conf: ServerSettings, opponent: discord.Member, *, yours: bool = False
) -> Text | None:
    """Why a member may not be challenged on this server, or None (`yours`: see `by_setting`)."""
    if may_play(conf, opponent):
        return None
    return by_setting(
        N_(
            "{player} can't be challenged: only members with one of these roles can play "
            "here: {roles}.",
            player=opponent.mention,
            roles=roles(conf),
        ),
        "roles",
        yours=yours,
    )


def roles(conf: ServerSettings) -> str:
    """The roles allowed to play, as mentions."""
    return ", ".join(f"<@&{role}>" for role in conf.roles)


def busy(refusal: Text, limit: int, guild_id: int | None, *, yours: bool = False) -> Text:
    """The refusal for a channel whose games are as many as the server allows at once (the
    setting is named in a server; direct messages have none; `yours`: see `by_setting`)."""
    if guild_id is None:
        return refusal
    return by_setting(
        NP_(
            "{refusal} This channel has room for {n} game at a time.",
            "{refusal} This channel has room for {n} games at a time.",
            limit,
            refusal=refusal,
        ),
        "games_per_channel",
        yours=yours,
    )


def board_locale(conf: ServerSettings, interaction: Interaction) -> str:
    """The language of a new game's board: the server's setting, else the server's own language
    when it is a Community server, else the language of the member who starts it."""
    if conf.language is not None:
        return conf.language
    guild = interaction.guild
    if guild is not None and "COMMUNITY" in guild.features:
        return str(guild.preferred_locale)
    locale = str(interaction.locale)
    return locale if has_catalog(locale) else "en-US"
