"""The playground's world: the real bot, a simulated server with members, and the browser page.

Everything runs in this process: SimCord's simulated Discord (no network, no token), the bot as
``create_bot`` builds it for Discord (the same cogs, SQLite store and engine processes), and
SimCord's preview, a web page on 127.0.0.1 that renders the bot's messages and sends the
commands and clicks of whichever member the page is viewing as, in #games or any of its threads
(``channels``, ``threads``); the server's regulars play by themselves (``regulars``) and fill
the tournaments announced there (``tournaments``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import discord
import simcord
from simcord import MemberActor
from simcord.builders import ChannelHandle

from bot.assembly import create_bot
from bot.config import Settings
from bot.playground import regulars
from bot.playground.channels import let_pages_open_threads
from bot.playground.clock import WallClock, start_at_wall_clock
from bot.playground.pages import open_pages_freely
from bot.playground.regulars import Regulars
from bot.playground.served import serve_playground_page
from bot.playground.threads import follow_discord
from bot.playground.tournaments import join_tournaments

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
    "input (buttons, reactions or both). dave, erin, frank and grace play by themselves: "
    "challenge one. Threads are listed under #games: click one to open it, or start one. "
    "/tictactoe-tournament create (format: Swiss) announces a tournament: the regulars join "
    "it up to five players, Start begins it, and each game is played in its own thread."
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
    regulars: tuple[str, ...] = regulars.NAMES


@dataclass(frozen=True, slots=True)
class Server:
    """The playground's simulated server: #games, the members the page views as, the regulars."""

    channel: ChannelHandle
    members: list[MemberActor]
    regulars: list[MemberActor]


def build_server(env: simcord.Env) -> Server:
    """The playground's server: #games, its members, who may all change its settings (Manage
    Server), so that the page can switch the marks, the input and the rest, and its regulars."""
    guild = env.create_guild(SERVER)
    channel = guild.create_text_channel(CHANNEL, topic=TOPIC)
    role = guild.create_role("players", permissions=discord.Permissions(manage_guild=True))
    members = [guild.add_member(env.create_user(name), roles=[role]) for name in MEMBERS]
    others = [guild.add_member(env.create_user(name)) for name in regulars.NAMES]
    return Server(channel, members, others)


async def serve(settings: Settings, *, port: int, opened: Callable[[Opened], None]) -> None:
    """Run the bot against a simulated Discord and serve its page until it is closed."""
    bot = create_bot(settings)
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT)
    start_at_wall_clock(env)
    follow_discord(env)
    env.backend.bot_user.name = BOT_NAME  # SimCord's bot user is "TestBot" otherwise
    try:
        await env.start()
        try:
            server = build_server(env)
            preview = env.preview(
                server.channel, viewers=server.members, layout="channel", port=port
            )
            serve_playground_page(preview)
            async with preview as page:
                open_pages_freely(page)
                let_pages_open_threads(page)
                players = Regulars(env, server.regulars, server.channel.id)
                join_tournaments(players)
                clock = WallClock(env, page, players)
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
