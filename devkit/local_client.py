"""discord.py's own client in the test's process against the local Discord of
``devkit/localdiscord``: the real HTTP client and gateway, and every event it dispatches
kept in ``seen``, so a test checks what discord.py made of what the local Discord sent."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import yarl

from devkit.local_game import until
from devkit.localdiscord import TOKEN, Channel, FakeDiscord, Guild, User


class Recorder(discord.Client):
    """A client that keeps every event discord.py dispatches, with its arguments."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        self.seen.append((event, args))
        super().dispatch(event, *args, **kwargs)

    def events(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of every `name` event seen so far."""
        return [args for event, args in self.seen if event == name]

    async def next(self, name: str, after: int = 0) -> tuple[Any, ...]:
        """The first `name` event after the `after` first ones, waited for."""
        await until(lambda: len(self.events(name)) > after, f"the {name} event")
        return self.events(name)[after]


@contextlib.asynccontextmanager
async def local_client(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, intents: discord.Intents
) -> AsyncIterator[Recorder]:
    """A client logged in to `fake` and ready (its guilds received), closed on the way out."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    gateway = yarl.URL(fake.gateway_url)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    client = Recorder(intents=intents, chunk_guilds_at_startup=False)
    await client.login(TOKEN)
    running = asyncio.create_task(client.connect(reconnect=False))
    try:
        await until(lambda: client.is_ready() or running.done(), "the client to be ready")
        assert not running.done(), running.exception()
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(running, 10)


@dataclass
class Club:
    """A local Discord with one server the bot is in: a channel for games, alice and bob."""

    fake: FakeDiscord
    guild: Guild
    games: Channel
    alice: User
    bob: User


@contextlib.asynccontextmanager
async def club() -> AsyncIterator[Club]:
    """The club's local Discord, listening; closed on the way out."""
    fake = FakeDiscord()
    guild = fake.create_guild("club")
    games = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    bob = guild.add_member(fake.create_user("bob"))
    await fake.start()
    try:
        yield Club(fake, guild, games, alice, bob)
    finally:
        await fake.close()


def text_channel(client: discord.Client, channel: Channel) -> discord.TextChannel:
    """The channel as discord.py knows it from GUILD_CREATE."""
    known = client.get_channel(channel.id)
    assert isinstance(known, discord.TextChannel)
    return known


async def refused(call: Any) -> tuple[int, int]:
    """The HTTP status and Discord's code of a request that must fail."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    return caught.value.status, caught.value.code
