"""Server settings through /tictactoe-settings, driven through SimCord: who may change them,
what they change in /tictactoe for everyone, and that they survive a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from simcord import Env
from simcord.builders import ChannelHandle

from bot.client import TicTacToeBot
from devkit.simcord_board import board_message, cells, guild_with, text

MANAGE = discord.Permissions(manage_guild=True)


def server_with_admin(env: Env, *names: str) -> tuple[Any, ChannelHandle, Any, list[Any]]:
    """A server with #games, an admin (Manage Server) and one plain member per name."""
    guild, channel, members = guild_with(env, *names)
    role = guild.create_role("admins", permissions=MANAGE)
    admin = guild.add_member(env.create_user("admin"), roles=[role])
    return guild, channel, admin, members


async def test_anyone_sees_the_settings_only_manage_server_changes_them(simcord_env: Env) -> None:
    """show answers everyone; a change by a member without Manage Server is refused privately
    and names who can make it."""
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")

    shown = await alice.slash(channel, "tictactoe-settings show")
    refused = await alice.slash(channel, "tictactoe-settings set", size=4)
    done = await admin.slash(channel, "tictactoe-settings set", size=4)

    assert shown.ephemeral and "`size`" in shown.response.content
    assert "3×3 (default)" in shown.response.content
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert done.ephemeral and done.response.content.startswith("Saved.")
    assert "`size` · Default board size: 4×4" in done.response.content


async def test_defaults_set_by_an_admin_shape_every_new_game(simcord_env: Env) -> None:
    """Board size, line length and difficulty left out of /tictactoe come from the server."""
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    await admin.slash(channel, "tictactoe-settings set", size=5, win_length=4, difficulty="easy")

    await alice.slash(channel, "tictactoe")
    board = board_message(channel)

    assert "5×5, 4 in a row" in text(simcord_env, board)
    assert "(bot, easy)" in text(simcord_env, board)
    assert len(cells(simcord_env, board, 5)) == 25


async def test_settings_survive_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """A setting is stored: after a restart /tictactoe still follows it."""
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    await admin.slash(channel, "tictactoe-settings set", size=4)
    old = simcord_env.bot
    assert isinstance(old, TicTacToeBot)
    await old.release()
    await simcord_env.restart_bot(make_bot())

    await alice.slash(channel, "tictactoe")

    assert "4×4, 4 in a row" in text(simcord_env, board_message(channel))


async def test_a_channel_list_refuses_other_channels_and_names_the_setting(
    simcord_env: Env,
) -> None:
    """With allowed channels set, /tictactoe elsewhere is refused privately, naming the setting
    and who can change it; in an allowed channel it starts."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    lobby = guild.create_text_channel("lobby")
    await admin.slash(channel, "tictactoe-settings channel", action="allow", channel=channel)

    refused = await alice.slash(lobby, "tictactoe")
    started = await alice.slash(channel, "tictactoe")

    assert refused.ephemeral
    assert f"<#{channel.id}>" in refused.response.content
    assert "`channels`" in refused.response.content
    assert "Manage Server" in refused.response.content
    assert lobby.last_message is None
    assert not started.ephemeral


async def test_a_role_list_decides_who_may_play(simcord_env: Env) -> None:
    """With allowed roles set, a member without one is refused, naming the setting; a member
    with one plays."""
    guild, channel, admin, (alice, bob) = server_with_admin(simcord_env, "alice", "bob")
    players = guild.create_role("players")
    carol = guild.add_member(simcord_env.create_user("carol"), roles=[players])
    await admin.slash(channel, "tictactoe-settings role", action="allow", role=players)

    refused = await alice.slash(channel, "tictactoe")
    challenged = await carol.slash(channel, "tictactoe", opponent=bob)

    assert refused.ephemeral and "`roles`" in refused.response.content
    assert f"<@&{players.id}>" in refused.response.content
    assert challenged.ephemeral and "can't be challenged" in challenged.response.content
    started = await carol.slash(channel, "tictactoe")
    assert not started.ephemeral
    assert f"<@{carol.id}>" in text(simcord_env, board_message(channel))


async def test_more_games_at_once_in_a_channel_when_the_server_allows(simcord_env: Env) -> None:
    """One game per channel by default; with games_per_channel 2 a second starts, a third is
    refused naming the setting."""
    _, channel, admin, (alice, bob, carol) = server_with_admin(simcord_env, "alice", "bob", "carol")
    await alice.slash(channel, "tictactoe")
    busy = await bob.slash(channel, "tictactoe")
    await admin.slash(channel, "tictactoe-settings set", games_per_channel=2)
    second = await bob.slash(channel, "tictactoe")
    third = await carol.slash(channel, "tictactoe")

    assert busy.ephemeral and "room for 1 game at a time" in busy.response.content
    assert not second.ephemeral
    assert third.ephemeral and "room for 2 games at a time" in third.response.content
    assert "`games_per_channel`" in third.response.content


async def test_a_busy_channel_links_the_game_and_says_who_may_change_the_setting(
    simcord_env: Env,
) -> None:
    """The refusal links the running game; a member with Manage Server reads that they may
    change games_per_channel themself, a member without it who can."""
    _, channel, admin, (alice, bob) = server_with_admin(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe")
    board = board_message(channel)
    plain = await bob.slash(channel, "tictactoe")
    managing = await admin.slash(channel, "tictactoe")

    link = f"https://discord.com/channels/{board.guild.id}/{channel.id}/{board.id}"
    for refused in (plain, managing):
        assert refused.ephemeral and f"A game is running in this channel: {link}." in (
            refused.response.content
        )
    assert "Members with the Manage Server permission can change it" in plain.response.content
    assert "You have the Manage Server permission: you can change it" in (managing.response.content)
    assert "Members with" not in managing.response.content


async def test_a_server_turn_timeout_sets_the_clock(simcord_env: Env) -> None:
    """The turn timeout of the server, not the bot's default, decides when a player forfeits."""
    _, channel, admin, (alice, bob) = server_with_admin(simcord_env, "alice", "bob")
    await admin.slash(channel, "tictactoe-settings set", turn_timeout=40)
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Accept")

    await simcord_env.advance_time(45)

    assert "ran out of time" in text(simcord_env, board)


async def test_reset_puts_a_setting_back(simcord_env: Env) -> None:
    """reset returns one setting to the bot's default."""
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    await admin.slash(channel, "tictactoe-settings set", size=5)
    await admin.slash(channel, "tictactoe-settings reset", setting="size")

    await alice.slash(channel, "tictactoe")

    assert "3×3, 3 in a row" in text(simcord_env, board_message(channel))
