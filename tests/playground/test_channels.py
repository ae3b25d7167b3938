"""The page's channels and threads, asked as the page asks (the list it reads, and the
playground's own kinds of the preview's action route): the list, opening a thread, starting one,
and each refusal, one page on a thread while another stays on #games (commands in a thread:
``test_page_threads``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from simcord.preview import Preview

from bot.playground.channels import OPEN, THREAD, channels, let_pages_open_threads
from devkit.playground.world import World, simulated


async def ask(preview: Preview, page: Any, kind: str | None, **body: Any) -> dict[str, Any]:
    """The page's action of a playground kind, or its read of the list (kind None)."""
    if kind is None:
        return {"channels": channels(preview, page)}
    answer: dict[str, Any] = await preview._action(page.id, {"kind": kind, **body})
    return answer


def names(answer: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(item["name"], item["open"]) for item in answer["channels"]]


async def pages(world: World) -> tuple[Preview, Any, Any]:
    preview = world.env.preview(
        world.server.channel, viewers=world.server.members, layout="channel"
    )
    await preview.__aenter__()
    let_pages_open_threads(preview)
    alice, bob, _ = world.server.members
    return preview, preview._open_page(alice.id), preview._open_page(bob.id)


async def test_a_thread_listed_opened_and_started_as_the_page_asks(tmp_path: Path) -> None:
    """Alice's page starts a thread and is on it; Bob's page lists it and stays on #games until
    it opens it; the bot's own thread is listed too, each in the order made."""
    async with simulated(tmp_path) as world:
        preview, alices, bobs = await pages(world)
        try:
            assert names(await ask(preview, alices, None)) == [("games", True)]
            started = await ask(preview, alices, THREAD, name="  practice   one ")
            assert names(started) == [("games", False), ("practice one", True)]
            assert alices.channel_id == int(started["channels"][1]["id"])

            games = world.bot.get_channel(world.server.channel.id)
            assert isinstance(games, discord.TextChannel)
            await games.create_thread(name="cup", type=discord.ChannelType.public_thread)
            listed = await ask(preview, bobs, None)
            assert names(listed) == [("games", True), ("practice one", False), ("cup", False)]
            opened = await ask(preview, bobs, OPEN, channel_id=listed["channels"][2]["id"])
            assert names(opened)[2] == ("cup", True)
            assert bobs.snapshot["entities"]["channels"][str(bobs.channel_id)]["name"] == "cup"
        finally:
            await preview.close()


async def test_what_the_page_may_not_do_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A channel that is not listed, a name empty or too long, a member without Create Public
    Threads (the channel denies it to everyone): each refused in words, the page where it
    was."""
    async with simulated(tmp_path) as world:
        preview, alices, bobs = await pages(world)
        try:
            games = world.bot.get_channel(world.server.channel.id)
            assert isinstance(games, discord.TextChannel)
            everyone = games.guild.default_role
            await games.set_permissions(everyone, create_public_threads=False)
            for page, kind, body in (
                (alices, OPEN, {"channel_id": "12345"}),
                (alices, THREAD, {"name": "   "}),
                (alices, THREAD, {"name": "x" * 101}),
                (bobs, THREAD, {"name": "mine"}),
            ):
                answer = await ask(preview, page, kind, **body)
                assert answer["error"] and answer["playground"] is False, (kind, body)
                assert page.channel_id == world.server.channel.id
            assert world.env.backend.guilds[games.guild.id].thread_ids == []
        finally:
            await preview.close()
