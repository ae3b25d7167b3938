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
now = time.perf_counter  # SimCord leaves it alone; checked by the smoke test

ALL_PERMISSIONS = (1 << 41) - 1  # every permission bit up to 2^40: nothing is refused
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


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    position: int

    def payload(self) -> dict[str, Any]:
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
    id: int
    name: str
    world: dict[int, Channel]  # every guild's channels, by id
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, User] = field(default_factory=dict)

    def create_text_channel(self, name: str) -> Channel:
        channel = Channel(snowflake(), self.id, name, len(self.channels))
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
