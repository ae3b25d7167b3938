"""Threads in the local Discord, as discord.py's own client sees them: started from a message and
without one, a board with buttons posted in one, a click there arriving with the thread as its
channel, archive and lock, and the refusals Discord answers (160004, 50083, 160005)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from devkit.local_client import club, local_client, refused, text_channel
from devkit.localdiscord.thread_model import MANAGE_THREADS, Thread
from tests.bot.user_install_support import NEEDS_PROCESSES, started


async def test_a_thread_from_a_message_holds_a_board_and_its_clicks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with club() as c, local_client(c.fake, monkeypatch, discord.Intents.default()) as client:
        fake, games, alice = c.fake, c.games, c.alice
        channel = text_channel(client, games)
        announcement = await channel.send("Round 1")
        thread = await announcement.create_thread(name="alice v bob", auto_archive_duration=60)
        assert isinstance(thread, discord.Thread)
        assert thread.id == announcement.id  # Discord gives it the message's id
        assert (thread.type, thread.parent_id) == (discord.ChannelType.public_thread, games.id)
        assert (thread.owner_id, thread.auto_archive_duration) == (client.user.id, 60)
        (created,) = await client.next("thread_create")
        assert created.id == thread.id and channel.guild.get_thread(thread.id) is created
        stored = fake.messages[announcement.id]
        assert stored["thread"]["id"] == str(thread.id) and stored["flags"] & (1 << 5)

        assert await refused(announcement.create_thread(name="again")) == (400, 160004)
        assert await refused(channel.create_thread(name="")) == (400, 50035)

        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="1", custom_id="ttt:game:1"))
        board = await thread.send("the board", view=view)
        assert board.channel.id == thread.id
        assert fake.messages[board.id]["channel_id"] == str(thread.id)
        assert fake.messages[board.id]["components"][0]["components"][0]["custom_id"] == (
            "ttt:game:1"
        )
        edited = await board.edit(content="the board, moved")
        assert edited.content == fake.messages[board.id]["content"] == "the board, moved"

        await fake.click("click", alice, fake.channels[thread.id], board.id, "ttt:game:1")
        (interaction,) = await client.next("interaction")
        assert isinstance(interaction.channel, discord.Thread)
        assert interaction.channel.id == interaction.channel_id == thread.id
        assert interaction.channel.parent_id == games.id
        assert interaction.message is not None and interaction.message.id == board.id
        await interaction.response.edit_message(content="alice moved")
        assert fake.messages[board.id]["content"] == "alice moved"

        public = await channel.create_thread(name="bye", type=discord.ChannelType.public_thread)
        private = await channel.create_thread(name="arbiter", invitable=False)
        assert public.type is discord.ChannelType.public_thread
        assert private.type is discord.ChannelType.private_thread and not private.invitable
        await client.next("thread_create", 2)
        made = [args[0].id for args in client.events("thread_create")]
        assert made == [thread.id, public.id, private.id]
        assert public.id not in fake.messages  # a thread of its own, no message under it


async def test_archived_threads_take_a_message_and_locked_ones_refuse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A message unarchives an archived thread; a message edited in an archived thread, a member
    added to one, a message in a locked thread from the bot without Manage Threads, and a thread
    beyond the server's active ones are refused with Discord's codes."""
    async with club() as c, local_client(c.fake, monkeypatch, discord.Intents.default()) as client:
        fake, guild, games, alice = c.fake, c.guild, c.games, c.alice
        channel = text_channel(client, games)
        thread = await channel.create_thread(name="game", type=discord.ChannelType.public_thread)
        board = await thread.send("board")
        await client.next("thread_create")

        thread = await thread.edit(archived=True)
        assert thread.archived and thread.id not in guild.threads  # no longer active
        (_, updated) = await client.next("thread_update")
        assert updated.archived and channel.guild.get_thread(thread.id) is None
        assert await refused(board.edit(content="late")) == (400, 50083)
        assert await refused(thread.add_user(discord.Object(alice.id))) == (400, 50083)

        await thread.send("a message wakes it")
        kept = fake.channels[thread.id]
        assert isinstance(kept, Thread) and not kept.archived
        assert thread.id in guild.threads
        unarchived = (await client.next("raw_thread_update", 1))[0]
        assert not unarchived.data["thread_metadata"]["archived"]

        fake.max_active_threads = len(guild.threads)  # the server is full of active threads
        assert await refused(channel.create_thread(name="one more")) == (400, 160006)
        await thread.edit(archived=True)  # archiving one makes room
        await channel.create_thread(name="one more")
        fake.max_active_threads = 1000
        thread = await thread.edit(archived=True, locked=True)  # the bot moderates
        assert thread.locked and thread.archived
        games.denied = MANAGE_THREADS
        assert await refused(thread.send("after the end")) == (400, 50083)
        thread = await thread.edit(archived=False)  # its creator may, locked or not
        assert thread.locked and not thread.archived
        assert await refused(thread.send("still locked")) == (403, 160005)
        assert await refused(board.edit(content="still locked")) == (403, 160005)
        in_thread = [
            m["content"] for m in fake.messages.values() if m["channel_id"] == str(thread.id)
        ]
        assert in_thread == ["board", "a message wakes it"]


@NEEDS_PROCESSES
async def test_the_bot_plays_a_game_in_a_thread_as_in_a_channel(tmp_path: Path) -> None:
    """The bot as it runs (its own process) gets /tictactoe and the clicks from inside a thread
    started before it connected (it comes in GUILD_CREATE): the board is a message of the
    thread, each click's interaction names the thread, and the bot answers every one."""
    async with club() as c:
        thread = await c.fake.open_thread(c.alice, c.games, "alice v bob")
        bot, table = await started(c.fake, tmp_path)
        try:
            challenge = await table.command(c.alice, thread, opponent=c.bob)
            board = challenge.message_id
            assert board is not None and challenge.channel_id == thread.id
            assert table.message(board)["channel_id"] == str(thread.id)
            assert (await table.click(c.bob, thread, board, "accept")).timing.ack_type == 7
            for who, cell in ((c.alice, 0), (c.bob, 3), (c.alice, 1), (c.bob, 4), (c.alice, 2)):
                clicked = await table.click(who, thread, board, cell)
                assert clicked.timing.ack_type == 7 and clicked.channel_id == thread.id
            assert table.marks(board) == 5 and table.free(board) == []
            assert c.fake.unexpected == [] and c.fake.refused == []
        finally:
            await bot.stop()
