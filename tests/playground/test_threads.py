"""Threads in the playground's simulated Discord, as the bot sees them through discord.py: started
from a message and without, members added, archived and locked, each with its gateway event; an
interaction in a thread carries the thread as its channel, and a game there is the thread's;
and Discord's rules that SimCord leaves out (``bot.playground.threads``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.results import ResponseMessage

from devkit.playground.world import World, simulated
from devkit.simcord_board import text


def listen(world: World, *events: str) -> list[tuple[str, tuple[Any, ...]]]:
    """What the bot hears of `events` (discord.py's names), in order."""
    heard: list[tuple[str, tuple[Any, ...]]] = []
    for event in events:

        async def hear(*args: Any, event: str = event) -> None:
            heard.append((event, args))

        world.bot.add_listener(hear, f"on_{event}")
    return heard


def games(world: World) -> discord.TextChannel:
    channel = world.bot.get_channel(world.server.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_threads_members_archive_and_lock_reach_the_bot(tmp_path: Path) -> None:
    """A thread from the bot's message (it takes the message's id) and one without; a member
    added; the bot joining another's thread; archived and locked: THREAD_CREATE,
    THREAD_MEMBERS_UPDATE (about the bot only: it has no members intent) and THREAD_UPDATE each
    reach discord.py, whose cache then holds the thread as Discord has it."""
    async with simulated(tmp_path) as world:
        heard = listen(world, "thread_create", "thread_member_join", "thread_join", "thread_update")
        announcement = await games(world).send("Round 1")
        thread = await announcement.create_thread(name="Round 1: alice vs bob")
        plain = await games(world).create_thread(
            name="Round 1: carol vs dave", type=discord.ChannelType.public_thread
        )
        await thread.add_user(discord.Object(world.member("alice").id))
        theirs = world.env.backend.create_thread(games(world).id, "bob's", world.member("bob").id)
        await world.env.settle()
        joined = world.bot.get_channel(theirs.id)
        assert isinstance(joined, discord.Thread)
        await joined.join()
        await thread.edit(archived=True, locked=True)
        await world.env.settle()

        assert thread.id == announcement.id and plain.id != announcement.id
        assert [event for event, _ in heard] == [
            "thread_create",
            "thread_create",
            "thread_create",
            "thread_join",
            "thread_update",
        ]
        assert heard[3][1][0].id == theirs.id  # the bot's own joining is heard; alice's is not
        _, after = heard[4][1]
        assert after.archived and after.locked
        cached = world.bot.get_channel(plain.id)
        assert isinstance(cached, discord.Thread) and cached.parent_id == games(world).id
        members = await thread.fetch_members()
        assert world.member("alice").id in {member.id for member in members}


async def test_a_game_in_a_thread_is_the_threads(tmp_path: Path) -> None:
    """/tictactoe in a thread: the command's and the click's interactions carry the thread as
    their channel, the board is posted there, and a game in #games goes on beside it."""
    async with simulated(tmp_path) as world:
        alice, bob, carol = (world.member(name) for name in ("alice", "bob", "carol"))
        thread = await games(world).create_thread(
            name="alice vs bob", type=discord.ChannelType.public_thread
        )
        await world.env.settle()
        channels: list[Any] = []

        async def heard(interaction: discord.Interaction) -> None:
            channels.append(interaction.channel)

        world.bot.add_listener(heard, "on_interaction")
        await alice.slash(world.handle(thread.id), "tictactoe", opponent=bob)
        await carol.slash(world.server.channel, "tictactoe", opponent=alice)
        stored = world.env.backend.messages[thread.id]
        board = ResponseMessage(world.env, stored[max(stored)])
        await bob.click(board, label="Accept")

        assert [type(c) for c in channels] == [discord.Thread, discord.TextChannel, discord.Thread]
        assert channels[0].id == thread.id and channels[2].id == thread.id
        assert "your move" in text(world.env, board)  # the thread's game, accepted
        assert "challenges you" in text(world.env, world.server.channel.last_message)


async def test_a_message_unarchives_a_thread_unless_it_is_locked(tmp_path: Path) -> None:
    """As on Discord: a message in an archived thread brings it back (THREAD_UPDATE); in one
    archived and locked, 50083, and so is editing a message there or adding a member."""
    async with simulated(tmp_path) as world:
        heard = listen(world, "raw_thread_update")  # discord.py forgets an archived thread
        thread = await games(world).create_thread(
            name="done", type=discord.ChannelType.public_thread
        )
        board = await thread.send("a board")
        await thread.edit(archived=True)
        await thread.send("again")
        await world.env.settle()
        archived = [raw.data["thread_metadata"]["archived"] for _, (raw,) in heard]
        assert archived == [True, False]

        await thread.edit(archived=True, locked=True)
        for refused in (
            thread.send("once more"),
            board.edit(content="changed"),
            thread.add_user(discord.Object(world.member("bob").id)),
        ):
            with pytest.raises(discord.HTTPException) as caught:
                await refused
            assert caught.value.code == 50083


async def test_a_message_starts_one_thread_at_most(tmp_path: Path) -> None:
    """A second thread from the same message: 160004, as on Discord."""
    async with simulated(tmp_path) as world:
        message = await games(world).send("Round 2")
        await message.create_thread(name="first")
        with pytest.raises(discord.HTTPException) as caught:
            await message.create_thread(name="second")
        assert caught.value.code == 160004


async def test_without_manage_threads_the_bot_archives_only_its_own(tmp_path: Path) -> None:
    """Manage Threads denied to the bot in #games: it archives the thread it started, but may
    neither lock it nor archive a member's thread (50013), as on Discord."""
    async with simulated(tmp_path) as world:
        channel = games(world)
        await channel.set_permissions(channel.guild.me, manage_threads=False)
        own = await channel.create_thread(name="mine", type=discord.ChannelType.public_thread)
        members = world.env.backend.create_thread(channel.id, "theirs", world.member("bob").id)
        await world.env.settle()

        archived = await own.edit(archived=True)
        assert archived.archived
        for refused in (
            own.edit(archived=False, locked=True),
            channel.get_thread(members.id).edit(archived=True),  # type: ignore[union-attr]
        ):
            with pytest.raises(discord.HTTPException) as caught:
                await refused
            assert caught.value.code == 50013


async def test_without_manage_threads_a_member_only_unarchives(tmp_path: Path) -> None:
    """Bob's thread, archived by the bot while it could: without Manage Threads the bot
    unarchives it once it is a member of it (and not before: 50013), and may not rename it."""
    async with simulated(tmp_path) as world:
        channel = games(world)
        bobs = world.env.backend.create_thread(channel.id, "bob's", world.member("bob").id)
        await world.env.settle()
        thread = channel.get_thread(bobs.id)
        assert thread is not None
        await thread.edit(archived=True)
        await channel.set_permissions(channel.guild.me, manage_threads=False)

        with pytest.raises(discord.HTTPException) as outside:
            await thread.edit(archived=False)
        assert outside.value.code == 50013
        # As if the bot had been in it all along (joining an archived thread is itself 50083).
        world.env.backend.add_thread_member(bobs.id, world.env.backend.bot_user.id)
        assert not (await thread.edit(archived=False)).archived
        with pytest.raises(discord.HTTPException) as renaming:
            await thread.edit(name="mine now")
        assert renaming.value.code == 50013
