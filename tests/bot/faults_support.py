"""What the tests of Discord misbehaving share: the routes a fault hits, a game between people,
what the stored game and its board say, a moderator, permissions taken from the bot, and the
gateway dropped and restored."""

from __future__ import annotations

from typing import Any

import discord
from simcord import Env, InteractionResult
from simcord.backend import serializers
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from bot.discord_ui import board as render
from bot.games.record import GameRecord
from devkit.simcord_board import board_message, cells, guild_with, text

CALLBACK = "/interactions/*/callback"  # a click's own response (here: the board update)
ORIGINAL = "/webhooks/*/messages/@original"  # later edits through the click (the bot's reply)
CHANNEL_EDIT = "/channels/*/messages/*"  # edits without a click (deadlines, repairs)


def answered_once(result: InteractionResult) -> bool:
    """One acknowledgement, and nothing sent on top of it."""
    return result.acknowledged and not result.followups


async def stored(env: Env, game_id: int) -> GameRecord:
    game = await env.bot.store.load_game(game_id)
    assert game is not None
    return game


async def shows_store(env: Env, message: Any, game_id: int) -> bool:
    """The board message says exactly what the stored game renders to."""
    return text(env, message) == render.text(await stored(env, game_id))


async def people_game(env: Env):
    """Alice (❌) against Bob (⭕), accepted, in #games."""
    guild, channel, (alice, bob) = guild_with(env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    return guild, channel, alice, bob, message


def marks(env: Env, message: Any, size: int = 3) -> list[str | None]:
    return [c.mark for c in cells(env, message, size)]


async def moderator(env: Env, guild: Any) -> Any:
    """A member allowed to delete other people's (and the bot's) messages."""
    role = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    return guild.add_member(env.create_user("mod"), roles=[role])


def deny(*names: str) -> discord.PermissionOverwrite:
    return discord.PermissionOverwrite(**dict.fromkeys(names, False))


def set_bot_overwrite(env: Env, channel: Any, overwrite: discord.PermissionOverwrite) -> None:
    """What a moderator does in the channel's settings: change the bot's own overwrite."""
    allow, denied = overwrite.pair()
    bot_id = env.backend.bot_user.id
    kept = [o for o in env.backend.get_channel(channel.id).overwrites if o.target_id != bot_id]
    mine = Overwrite(bot_id, OverwriteType.MEMBER, allow.value, denied.value)
    env.backend.edit_channel(channel.id, {}, overwrites=[*kept, mine])


async def drop_gateway(env: Env) -> None:
    """The gateway connection dies: from now on no event reaches the bot."""
    env._begin_operation("drop_gateway")
    try:
        env.bot.ws.open = False
        env.bot.dispatch("disconnect")
        await env._settle_internal()
    finally:
        env._end_operation()


async def restore_gateway(env: Env, *, resume: bool) -> None:
    """Connect again: resume the session (RESUMED), or start a new one.

    A new session (what discord.py does when a resume is refused) begins with READY and every
    server's GUILD_CREATE again, which rebuilds discord.py's caches from scratch; events sent
    while the connection was down are not replayed.
    """
    backend = env.backend
    env._begin_operation("restore_gateway")
    try:
        env.bot.ws.open = True
        if resume:
            env._gateway_feed("RESUMED", {})
        else:
            ready = {
                "v": 10,
                "user": dict(serializers.user_payload(backend.bot_user)),
                "guilds": [],
                "session_id": "simcord-session-after-reconnect",
                "resume_gateway_url": "wss://simcord.invalid",
                "application": {"id": str(backend.application_id), "flags": 0},
            }
            env._gateway_feed("READY", ready)
            for guild in list(backend.guilds.values()):
                backend.emit("GUILD_CREATE", serializers.guild_create_payload(backend, guild))
        await env._settle_internal()
    finally:
        env._end_operation()


async def reconnect(env: Env, *, resume: bool) -> None:
    """Drop the gateway connection and come back at once."""
    await drop_gateway(env)
    await restore_gateway(env, resume=resume)
