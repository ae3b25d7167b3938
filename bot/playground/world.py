"""The playground's world: the real bot, a simulated server with members, and the browser page.

Everything runs in this process: SimCord's simulated Discord (no network, no token), the bot as
``create_bot`` builds it for Discord (the same cogs, SQLite store and engine processes), and
SimCord's preview, a web page on 127.0.0.1 that renders the bot's messages and sends the
commands and clicks of whichever member the page is viewing as.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import discord
import simcord
from simcord import MemberActor
from simcord.builders import ChannelHandle

from bot.client import create_bot
from bot.config import Settings
from bot.playground.clock import WallClock, start_at_wall_clock
from bot.playground.pages import open_pages_freely
from bot.playground.served import serve_playground_page

BOT_NAME = "tictactoe"
SERVER = "Playground"
CHANNEL = "games"
MEMBERS = ("alice", "bob", "carol")
TOPIC = (
    "Pick each command and option from the list that opens as you type / (Enter sends the "
    "command, Tab or a click adds an option; name:value typed as text is sent as a plain "
    "message). /tictactoe plays the bot; /tictactoe-puzzle gives a "
    "puzzle to solve by clicking; /tictactoe-history opens a finished game as a picture and a "
    "replay, /tictactoe-stats shows the rating chart; 'Viewing as' (top) switches "
    "member; /tictactoe-settings set changes the marks (mark_x, mark_o, mark_empty) and the "
    "input (buttons, reactions or both)."
)
# Seconds a page action waits for the bot to finish what it started. SimCord also runs, within
# them, any timer of the bot's that falls due: kept under the shortest clock (5 s), so no answer
# waits long for a deadline. Longer work (a deep review) goes on and is shown when it is done.
SETTLE_TIMEOUT = 4.0


@dataclass(frozen=True, slots=True)
class Opened:
    """What the playground tells its user once the page is up."""

    url: str
    server: str
    channel: str
    members: tuple[str, ...]


def build_server(env: simcord.Env) -> tuple[ChannelHandle, list[MemberActor]]:
    """The playground's server: #games and its members, who may all change its settings
    (Manage Server), so that the page can switch the marks, the input and the rest."""
    guild = env.create_guild(SERVER)
    channel = guild.create_text_channel(CHANNEL, topic=TOPIC)
    role = guild.create_role("players", permissions=discord.Permissions(manage_guild=True))
    return channel, [guild.add_member(env.create_user(name), roles=[role]) for name in MEMBERS]


async def serve(settings: Settings, *, port: int, opened: Callable[[Opened], None]) -> None:
    """Run the bot against a simulated Discord and serve its page until it is closed."""
    bot = create_bot(settings)
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT)
    start_at_wall_clock(env)
    env.backend.bot_user.name = BOT_NAME  # SimCord's bot user is "TestBot" otherwise
    try:
        await env.start()
        try:
            channel, members = build_server(env)
            preview = env.preview(channel, viewers=members, layout="channel", port=port)
            serve_playground_page(preview)
            async with preview as page:
                open_pages_freely(page)
                clock = WallClock(env, page)
                ticking = asyncio.create_task(clock.run(), name="playground-clock")
                opened(Opened(page.url, SERVER, CHANNEL, MEMBERS))
                try:
                    await page.wait_closed()
                finally:
                    ticking.cancel()
                    await asyncio.gather(ticking, return_exceptions=True)
        finally:
            await env.shutdown()
    finally:
        # SimCord detaches the bot without closing it: stop the engine, close the database.
        await bot.release()
