"""What the bot needs in a channel to run a board there, and how to say what is missing.

Answers to interactions work even where the bot has no permissions at all, but everything the
bot does later without a click (a forfeit on time, a reply it finishes after a restart) edits the
board through the channel, and that needs the channel permissions below. Interactions carry the
bot's permissions in their channel (``app_permissions``), so a missing one can be named.

Where the app is installed to a person's account only (a DM between people, a group DM, a server
that has not added the bot) the bot has no channel at all: every channel route answers 403. A
game there is shown only through interactions (``reaches_channel``), and a board nobody else
would see (a member without Use External Apps) is not started (``unshared``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, NP_, Text

# Discord's names for the permissions a board needs, as a server's settings show them.
NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "read_message_history": "Read Message History",
    "add_reactions": "Add Reactions",
}
# What a board in a channel needs (no embeds, no privileged intents): asked for in the invite.
BOARD = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
)
# What the invite asks for: a board's needs, and for boards moved by reactions, adding them and
# removing the ones read (Manage Messages: without it reactions still play), and a thread for
# each tournament game (Create Public Threads).
INVITE = BOARD | discord.Permissions(
    add_reactions=True, manage_messages=True, create_public_threads=True
)
GONE_CODES = frozenset({10003, 10008})  # Unknown Channel, Unknown Message
# Said to whoever starts a board moved by reactions where the bot can't remove them.
CANNOT_CLEAN_UP = N_(
    "Note: I'm missing the **Manage Messages** permission in this channel, so I can't remove "
    "the reactions I read: to use a reaction again, take yours back first, then add it."
)


def may_manage(client: discord.Client, guild_id: int | None, channel_id: int) -> bool:
    """Whether the bot may remove others' reactions in a channel (Manage Messages)."""
    guild = client.get_guild(guild_id or 0)
    if guild is None:
        return False
    place = guild.get_channel_or_thread(channel_id)
    return place is not None and place.permissions_for(guild.me).manage_messages


def board_gone(error: discord.HTTPException) -> bool:
    """True when Discord says the board message (or its channel) no longer exists."""
    return isinstance(error, discord.NotFound) and error.code in GONE_CODES


def reaches_channel(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot can use the channel the interaction came from: a server it is a member
    of, or its own DM. Not a DM between people, a group DM, or a server that has not added it,
    where only a user install brings the interaction."""
    if interaction.guild_id is not None:
        return interaction.client.get_guild(interaction.guild_id) is not None
    return not interaction.context.private_channel


def unshared(interaction: discord.Interaction[Any]) -> Text | None:
    """Why a board cannot be shared where the interaction came from, or None: in a server that
    has not added the bot, Discord makes every answer of a member without Use External Apps
    private, so nobody else would see the board."""
    if interaction.guild_id is None or reaches_channel(interaction):
        return None
    if interaction.permissions.use_external_apps:
        return None
    return N_(
        "I can't start a game here: this server doesn't let you use external apps, so nobody "
        "else would see the board. Play in a DM or a server that allows external apps, or ask "
        "a moderator to add me to this server."
    )


def missing(interaction: discord.Interaction[Any], *, reactions: bool = False) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, by name (none in DMs, and
    none where it has no channel and answers only through interactions); `reactions`: the
    board is moved by reactions only, which the bot must add."""
    need = BOARD | discord.Permissions(add_reactions=reactions)
    if interaction.guild_id is None or interaction.app_permissions.is_superset(need):
        return []
    if not reaches_channel(interaction):
        return []
    send = "send_messages_in_threads" if _in_thread(interaction) else "send_messages"
    have = interaction.app_permissions
    flags = ("view_channel", send, "read_message_history", "add_reactions")[: 4 if reactions else 3]
    return [NAMES[flag] for flag in flags if not getattr(have, flag)]


def _in_thread(interaction: discord.Interaction[Any]) -> bool:
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    return kind in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )


def _listing(names: list[str]) -> Text | str:
    quoted = [f"**{name}**" for name in names]
    if len(quoted) == 1:
        return quoted[0]
    return N_("{items} and {last}", items=", ".join(quoted[:-1]), last=quoted[-1])


def cannot_start(names: list[str]) -> Text:
    """The refusal of /tictactoe in a channel where the bot lacks `names`."""
    return NP_(
        "I can't run a game in this channel: I'm missing the {permissions} permission here. "
        "Ask a moderator to give it to me in this channel, or start the game somewhere else.",
        "I can't run a game in this channel: I'm missing the {permissions} permissions here. "
        "Ask a moderator to give them to me in this channel, or start the game somewhere else.",
        len(names),
        permissions=_listing(names),
    )


def cannot_show(interaction: discord.Interaction[Any], error: discord.HTTPException) -> Text:
    """Why the board could not be updated after Discord refused with 403 `error`."""
    names = missing(interaction)
    if names:
        why = NP_(
            "I'm missing the {permissions} permission in this channel",
            "I'm missing the {permissions} permissions in this channel",
            len(names),
            permissions=_listing(names),
        )
    else:
        why = N_("Discord refused me ({error})", error=error.text or "Missing Permissions")
    return N_(
        "I can't update the board: {why}. Ask a moderator to give it back; the game is saved "
        "and the board will catch up with the next click once I can edit it again.",
        why=why,
    )


def still_missing(names: list[str]) -> Text:
    """A warning after a move made while the bot lacks `names` (the clock can't be shown)."""
    return NP_(
        "Note: I'm missing the {permissions} permission in this channel, so I can't edit the "
        "board between clicks (for example to end the game on time). Ask a moderator to fix it.",
        "Note: I'm missing the {permissions} permissions in this channel, so I can't edit the "
        "board between clicks (for example to end the game on time). Ask a moderator to fix it.",
        len(names),
        permissions=_listing(names),
    )


def cannot_post(channel: discord.abc.GuildChannel) -> list[str]:
    """The permissions the bot lacks to post in `channel` of a server it is in, by name."""
    have = channel.permissions_for(channel.guild.me)
    return [NAMES[flag] for flag in ("view_channel", "send_messages") if not getattr(have, flag)]


def no_post(names: list[str], channel: discord.abc.GuildChannel) -> Text:
    """The refusal of a daily puzzle channel where the bot lacks `names`."""
    return NP_(
        "I can't post the daily puzzle in {channel}: I'm missing the {permissions} permission "
        "there. Give it to me in that channel, or pick another one.",
        "I can't post the daily puzzle in {channel}: I'm missing the {permissions} permissions "
        "there. Give them to me in that channel, or pick another one.",
        len(names),
        channel=channel.mention,
        permissions=_listing(names),
    )
