"""The world of the local Discord: users, channels, guilds, interactions and their payloads,
and how an interaction is timed from its emission to the bot's answers."""

from __future__ import annotations

import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 1 << 6  # message flag: seen by one member only
BUTTON = 2  # Discord's component type of a button
STRING_SELECT = 3  # a string select menu
now = time.perf_counter  # SimCord leaves it alone; checked by the smoke test

ALL_PERMISSIONS = (1 << 51) - 1  # every permission bit up to 2^50: nothing is refused
USE_EXTERNAL_APPS = 1 << 50  # without it a user-installed app's answers are forced ephemeral
MANAGE_GUILD = 1 << 5
# What a user-installed app may do where the bot is not a member (View Channel, Send Messages,
# Embed Links, Attach Files, Read Message History, Use External Emojis): no channel route works.
USER_APP_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18)
TOKEN_LIFE = 15 * 60  # seconds an interaction token lives
MAX_FOLLOWUPS = 5  # follow-ups an interaction authorised by a user install only may have
GUILD_MESSAGES = 1 << 9  # gateway intent: messages in servers (MESSAGE_CREATE, _UPDATE, _DELETE)
LOADING = 1 << 7  # message flag: the bot is "thinking" (a deferred response)
HEARTBEAT_MS = 41_250
TOKEN = "load.test.token"
DISCORD_EPOCH_MS = 1_420_070_400_000
_sequence = itertools.count()


def snowflake() -> int:
    """A fresh id holding the current time, as Discord's do (discord.py reads an interaction's
    age, hence whether its token has expired, from its id)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_sequence) & 0x3FFFFF)


def _timestamp() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


DM, GROUP_DM = 1, 3  # Discord's channel types besides a server's text channel (0)
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # an interaction's context


@dataclass
class Channel:
    """A server's text channel, or a DM or group DM (``kind``, ``recipients``). ``reachable``:
    the bot is a member, so channel routes work (a server with the bot, the bot's own DM)."""

    id: int
    guild_id: int | None
    name: str
    position: int
    kind: int = 0
    recipients: list[User] = field(default_factory=list)
    reachable: bool = True
    denied: int = 0  # the permissions the bot lacks here (and in the threads under it)

    @property
    def bot_permissions(self) -> int:
        """The bot's permissions in this channel (a thread's are its parent's)."""
        return ALL_PERMISSIONS & ~self.denied

    @property
    def app_permissions(self) -> int:
        """The bot's permissions as an interaction here carries them: a user install's only
        where the bot is not a member."""
        return self.bot_permissions if self.reachable else USER_APP_PERMISSIONS

    def payload(self) -> dict[str, Any]:
        if self.kind != 0:
            private: dict[str, Any] = {
                "id": str(self.id),
                "type": self.kind,
                "recipients": [user.payload() for user in self.recipients],
                "last_message_id": None,
                "flags": 0,
            }
            if self.kind == GROUP_DM:
                private.update(name=self.name, icon=None, owner_id=str(self.recipients[0].id))
            return private
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "nsfw": False,
        }


@dataclass
class Guild:
    """A server; ``with_bot`` False: it has not added the bot (only user installs reach it),
    and the members in ``no_external_apps`` lack Use External Apps there (those in ``members_only``
    lack Manage Server)."""

    id: int
    name: str
    world: dict[int, Channel]  # every guild's channels, by id
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, User] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)  # the active ones (see threads)
    with_bot: bool = True
    no_external_apps: set[int] = field(default_factory=set)
    members_only: set[int] = field(default_factory=set)
    emojis: dict[int, str] = field(default_factory=dict)  # its custom emojis: id -> name

    def create_text_channel(self, name: str) -> Channel:
        channel = Channel(snowflake(), self.id, name, len(self.channels), reachable=self.with_bot)
        self.channels[channel.id] = self.world[channel.id] = channel
        return channel

    def add_member(self, user: User) -> User:
        self.members[user.id] = user
        return user


@dataclass
class Timing:
    """One interaction, from emission to the bot's answers, in perf_counter seconds."""

    kind: str
    channel_id: int
    emitted: float
    acked: float | None = None
    ack_type: int | None = None
    ephemeral: bool = False
    edits: list[float] = field(default_factory=list)  # edits of the original response
    followups: list[float] = field(default_factory=list)
    replied: bool = False  # the players saw the bot's move in answer to it

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked is None else self.acked - self.emitted

    @property
    def reply_latency(self) -> float | None:
        """From emission to the board showing the bot's move: the first edit of the response,
        or the response itself when it showed both moves at once (a 3x3 reply)."""
        if not self.replied:
            return None
        shown = self.edits[0] if self.edits else self.acked
        return None if shown is None else shown - self.emitted


@dataclass
class Interaction:
    """One interaction the players emitted, as the server keeps it."""

    id: int
    token: str
    type: int
    channel_id: int
    timing: Timing
    source_message_id: int | None = None  # the clicked message
    message_id: int | None = None  # the original response
    answered: bool = False
    born: float = 0.0  # the local Discord's clock when it was emitted: its token's age
    owners: dict[str, str] = field(default_factory=dict)  # authorizing_integration_owners
    forced_ephemeral: bool = False  # every answer private (no Use External Apps)
    followups: int = 0
    answers: list[int] = field(default_factory=list)  # messages it posted: response, follow-ups
    user_id: int = 0  # who ran the command or clicked

    @property
    def user_only(self) -> bool:
        """Authorised by a user install only: the follow-up limit applies."""
        return "0" not in self.owners


@dataclass
class Launch:
    """An Activity launched in a channel for a user: by the bot's answer to `interaction_id`
    (LAUNCH_ACTIVITY), or by Discord itself (None) for an Entry Point command it handles."""

    instance_id: str
    channel_id: int
    user_id: int
    interaction_id: int | None


def member_payload(user: User, *, permissions: int | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "user": user.payload(),
        "roles": [],
        "nick": None,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "avatar": None,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def guild_payload(guild: Guild, bot_user: User) -> dict[str, Any]:
    """GUILD_CREATE of a server the bot is in."""
    everyone = {
        "id": str(guild.id),
        "name": "@everyone",
        "permissions": str(ALL_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(next(iter(guild.members), bot_user.id)),
        "unavailable": False,
        "member_count": len(guild.members) + 1,
        "large": False,
        "features": [],
        "roles": [everyone],
        "emojis": [_emoji(emoji_id, name) for emoji_id, name in guild.emojis.items()],
        "stickers": [],
        "channels": [c.payload() for c in guild.channels.values()],
        "threads": [thread.payload() for thread in guild.threads.values()],
        "members": [member_payload(bot_user)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "preferred_locale": "en-US",
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "system_channel_flags": 0,
        "afk_timeout": 300,
    }


def application_payload(application_id: int) -> dict[str, Any]:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(application_id),
        "name": "TicTacToe",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": User(snowflake(), "owner").payload(),
        "verify_key": "0" * 64,
        "flags": 0,
        "team": None,
        "summary": "",
    }


def _emoji(emoji_id: int, name: str) -> dict[str, Any]:
    """A server's custom emoji as GUILD_CREATE lists it."""
    return {
        "id": str(emoji_id),
        "name": name,
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }
