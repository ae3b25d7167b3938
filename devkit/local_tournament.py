"""Reading a tournament as the local Discord holds it: the public messages of a channel or
thread, the announcement and its buttons, the game boards of a thread, the threads under a
channel."""

from __future__ import annotations

from typing import Any

from devkit.local_game import buttons, texts
from devkit.localdiscord import Channel, FakeDiscord
from devkit.localdiscord.model import EPHEMERAL
from devkit.localdiscord.thread_model import Thread

COMMAND = "tictactoe-tournament"


def public(discord: FakeDiscord, channel_id: int) -> list[dict[str, Any]]:
    """The public messages of a channel (or thread), oldest first."""
    return [
        m
        for m in discord.messages.values()
        if int(m["channel_id"]) == channel_id and not int(m["flags"]) & EPHEMERAL
    ]


def announcement(discord: FakeDiscord, channel: Channel) -> dict[str, Any]:
    """The tournament's announcement: the message of the channel with a Join or Leave button."""
    found = [
        m
        for m in public(discord, channel.id)
        if any(b["custom_id"].startswith("ttt-tour:") for b in buttons(m.get("components")))
        or "Standings" in texts(m)
    ]
    assert found, "no announcement in the channel"
    return found[0]


def custom_id(message: dict[str, Any], what: str) -> str:
    return next(
        b["custom_id"] for b in buttons(message["components"]) if b["custom_id"].endswith(what)
    )


def boards(discord: FakeDiscord, thread_id: int) -> list[dict[str, Any]]:
    """The game boards posted in a thread (messages with cell buttons)."""
    return [
        m
        for m in public(discord, thread_id)
        if any(b["custom_id"].startswith("ttt:") for b in buttons(m.get("components")))
    ]


def threads(discord: FakeDiscord, channel: Channel) -> list[Thread]:
    """The threads under a channel, in the order they were made."""
    return [c for c in discord.channels.values() if isinstance(c, Thread) and c.parent is channel]
