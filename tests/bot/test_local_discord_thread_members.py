"""Thread members and thread permissions in the local Discord, as discord.py's own client sees
them: members added and removed (THREAD_MEMBERS_UPDATE about others only with the members
intent), the bot joining and leaving, the active threads in GUILD_CREATE, and each permission a
thread needs answered with Discord's code when the parent channel denies it to the bot."""

from __future__ import annotations

import discord
import pytest

from devkit.local_client import club, local_client, refused, text_channel
from devkit.localdiscord.thread_model import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

MEMBERS = discord.Intents.default() | discord.Intents(members=True)


async def test_members_come_and_go_and_discord_py_sees_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with club() as c, local_client(c.fake, monkeypatch, MEMBERS) as client:
        fake, games, alice, bob = c.fake, c.games, c.alice, c.bob
        channel = text_channel(client, games)
        made = await channel.create_thread(name="alice v bob", invitable=False)
        (thread,) = await client.next("thread_create")  # the one discord.py keeps
        assert thread.id == made.id and made.me is not None and thread.me is not None
        games.denied = MANAGE_THREADS  # its creator adds people to it, moderator or not
        await thread.add_user(discord.Object(alice.id))
        await thread.add_user(discord.Object(bob.id))
        await thread.add_user(discord.Object(bob.id))  # already in: 204, no event
        joined = [(await client.next("thread_member_join", n))[0] for n in (0, 1)]
        assert [(m.id, m.thread_id) for m in joined] == [
            (alice.id, thread.id),
            (bob.id, thread.id),
        ]
        assert {m.id for m in thread.members} == {alice.id, bob.id}
        listed = await thread.fetch_members()
        assert {m.id for m in listed} == {client.user.id, alice.id, bob.id}
        assert (await thread.fetch_member(alice.id)).id == alice.id
        stranger = fake.create_user("stranger")  # not a member of the server
        assert await refused(thread.add_user(discord.Object(stranger.id))) == (404, 10007)
        assert await refused(thread.fetch_member(stranger.id)) == (404, 10007)

        await thread.remove_user(discord.Object(bob.id))
        (gone,) = await client.next("thread_member_remove")
        assert gone.id == bob.id and {m.id for m in thread.members} == {alice.id}
        await thread.leave()
        assert (await client.next("thread_remove"))[0].id == thread.id
        games.denied = 0
        await thread.fetch_members()  # a moderator sees a private thread it is not in
        games.denied = MANAGE_THREADS
        assert await refused(thread.fetch_members()) == (403, 50001)  # now it cannot
        assert await refused(thread.send("hello?")) == (403, 50001)
        assert fake.unexpected == []


async def test_without_the_members_intent_only_the_bots_membership_is_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As Discord does: a bot without the privileged members intent gets THREAD_MEMBERS_UPDATE
    about itself only. The threads started before the bot connects come in GUILD_CREATE, with
    its own membership."""
    async with club() as c:
        earlier = await c.fake.open_thread(c.alice, c.games, "opened by alice")
        before = await c.fake.open_thread(c.fake.bot_user, c.games, "the bot's, before a restart")
        async with local_client(c.fake, monkeypatch, discord.Intents.default()) as client:
            known = client.get_guild(c.guild.id)
            assert known is not None and known.get_thread(earlier.id) is not None
            own = known.get_thread(before.id)
            assert own is not None and own.me is not None  # it knows it is in it
            thread = known.get_thread(earlier.id)
            assert thread is not None and thread.owner_id == c.alice.id
            await thread.join()
            await client.next("thread_join")  # about the bot: always sent
            await thread.add_user(discord.Object(c.bob.id))
            await thread.leave()
            await client.next("thread_remove")  # sent after the add: none came for bob
            assert client.events("thread_member_join") == []
            assert set(earlier.members) == {c.alice.id, c.bob.id}


async def test_each_missing_permission_is_refused_with_discords_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The parent channel's permissions apply: each one denied to the bot is answered 403 with
    Missing Permissions (50013), or Missing Access (50001) where it cannot see the channel; and a
    click in a thread carries the bot's permissions there."""
    async with club() as c, local_client(c.fake, monkeypatch, discord.Intents.default()) as client:
        fake, games, alice = c.fake, c.games, c.alice
        channel = text_channel(client, games)
        start = await channel.send("announcement")
        mine = await channel.create_thread(name="mine", type=discord.ChannelType.public_thread)
        hers_thread = await fake.open_thread(alice, games, "hers")
        await client.next("thread_create", 1)
        hers = channel.guild.get_thread(hers_thread.id)
        assert hers is not None
        public = discord.ChannelType.public_thread

        games.denied = CREATE_PUBLIC_THREADS
        assert await refused(start.create_thread(name="x")) == (403, 50013)
        assert await refused(channel.create_thread(name="x", type=public)) == (403, 50013)
        await channel.create_thread(name="private is still allowed")

        games.denied = CREATE_PRIVATE_THREADS
        assert await refused(channel.create_thread(name="x")) == (403, 50013)

        games.denied = SEND_MESSAGES_IN_THREADS
        assert await refused(mine.send(content="x")) == (403, 50013)
        assert await refused(mine.add_user(discord.Object(alice.id))) == (403, 50013)
        await channel.send("the channel itself still takes messages")

        games.denied = MANAGE_THREADS
        assert await refused(hers.edit(archived=True)) == (403, 50013)
        assert await refused(hers.edit(name="renamed")) == (403, 50013)
        assert await refused(mine.edit(locked=True)) == (403, 50013)
        assert await refused(hers.remove_user(discord.Object(alice.id))) == (403, 50013)
        assert await refused(mine.delete()) == (403, 50013)
        assert (await mine.edit(name="still mine", archived=True)).archived  # its creator

        games.denied = VIEW_CHANNEL
        assert await refused(start.create_thread(name="x")) == (403, 50001)
        assert await refused(hers.send(content="x")) == (403, 50001)

        games.denied = CREATE_PUBLIC_THREADS | MANAGE_THREADS
        board = await hers.send("board")
        await fake.click("click", alice, hers_thread, board.id, "ttt:game:1")
        (interaction,) = await client.next("interaction")
        assert interaction.channel_id == hers.id
        allowed = interaction.app_permissions
        assert allowed.send_messages_in_threads and not allowed.create_public_threads
        assert not allowed.manage_threads
        await interaction.response.defer()

        games.denied = 0
        await hers.delete()
        (deleted,) = await client.next("thread_delete")
        assert deleted.id == hers.id and hers.id not in fake.channels
        assert fake.unexpected == []
