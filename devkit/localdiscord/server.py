"""A small Discord of our own on 127.0.0.1: a gateway (websocket) and the REST routes the bot uses.

The load benchmark runs the bot in a process of its own against this server, so that the bot's
figures do not include the cost of simulating Discord: the server and the simulated players run
in the benchmark's process (on the other core), the bot runs the real discord.py, which speaks
to the server as it would to Discord: HTTP for the REST API, JSON text frames on the gateway.

What it implements is what discord.py and this bot use, no more:

- ``GET /users/@me``, ``GET /oauth2/applications/@me`` (login); the application's commands,
  ``GET`` and ``PUT`` (sync), with the Entry Point command that enabling Activities gives an app
  (``commands``);
- the gateway: HELLO, IDENTIFY -> READY and one GUILD_CREATE per guild, heartbeats, and the
  INTERACTION_CREATE events the players emit (commands, clicks, choices, the Entry Point
  command: ``players``);
- interaction callbacks (types 4 to 7, and 12 launching the Activity; the callback response with
  ``with_response``, else 204), the original response
  (GET and PATCH), followups (``webhooks``), and message GET, PATCH and POST in a channel,
  a channel's history, a server's member, a message's nonce as Discord enforces it (``rest``);
- the places a user install reaches: DMs between people and group DMs (``create_dm``,
  ``create_group_dm``), servers that have not added the bot (``create_guild(with_bot=False)``),
  with the interaction's ``context`` and ``authorizing_integration_owners`` as Discord sends them,
  channel routes refused there, tokens that expire on this Discord's clock (``advance``), the
  follow-up limit and answers forced ephemeral (see ``webhooks``);
- reactions: the bot's own, limited per channel as Discord does, and the players'
  (``reactions``);
- files: uploads with messages, answers and edits, served from its CDN with custom emoji
  images (``uploads``).

Anything else is answered 404 and counted in ``unexpected``, which the benchmark reports. Every
interaction is timed from the moment its INTERACTION_CREATE frame is written to the moment the
bot's request for it arrives (`Timing`); listeners per channel are woken on every answer.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

from aiohttp import web

from devkit.localdiscord.commands import Commands
from devkit.localdiscord.faults import Faults, Trap
from devkit.localdiscord.gateway import Gateway
from devkit.localdiscord.model import (
    DM,
    GROUP_DM,
    HEARTBEAT_MS,
    Channel,
    Guild,
    Interaction,
    Launch,
    Timing,
    User,
    now,
    snowflake,
)
from devkit.localdiscord.players import Players
from devkit.localdiscord.reactions import Reactions
from devkit.localdiscord.thread_members import ThreadMembers
from devkit.localdiscord.uploads import Uploads
from devkit.localdiscord.webhooks import Webhooks


class FakeDiscord(Gateway, Faults, Webhooks, Players, Reactions, ThreadMembers, Uploads, Commands):
    """The server, its world (guilds, channels, members, messages) and the timings."""

    def __init__(self) -> None:
        self.bot_user = User(snowflake(), "TicTacToe", bot=True)
        self.application_id = self.bot_user.id
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.timings: dict[int, Timing] = {}
        self.commands: dict[str, dict[str, Any]] = {}
        self.global_commands: dict[int, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[int, dict[str, Any]]] = {}
        self.launches: list[Launch] = []  # the Activities launched, by the bot or by Discord
        self.listeners: dict[int, asyncio.Event] = {}
        self.unexpected: list[str] = []
        self.connected = asyncio.Event()  # the bot identified and has its guilds
        self.synced = asyncio.Event()  # the bot put its commands
        self.port = 0
        self.shard_count = 1  # set before the world is built: guilds are spread over the shards
        self._links: dict[int, list[Any]] = {}  # shard id -> [websocket, last sequence]
        self._packers: dict[Any, Any] = {}  # websocket -> its compression, or None
        self._intents: dict[int, int] = {}  # shard id -> the intents it identified with
        self._runner: web.AppRunner | None = None
        self.requests: list[tuple[str, str]] = []
        self.refused: list[tuple[str, str]] = []
        self.owners_of: dict[int, dict[str, str]] = {}
        self.failing_edits = 0  # edits of an original response to refuse next (a fault)
        self.limited = 0  # requests answered 429 (rate limited)
        self._next_reaction: dict[int, float] = {}
        self._ahead = 0.0  # seconds this Discord's clock runs ahead of real time
        self.heartbeat_ms = HEARTBEAT_MS
        self.heartbeats_enforced = False  # close a connection that stops its heartbeats
        self.replay = False  # keep sessions for resumes (see ``gateway``)
        self._seqs: dict[int, int] = {}
        self._sessions: dict[str, int] = {}  # session id -> shard
        self._history: dict[int, collections.deque[tuple[int, str]]] = {}
        self.rest_fault: tuple[float, int] | None = None  # see ``faults``
        self.route_faults: dict[str, tuple[float, int]] = {}
        self.rest_share = 1.0
        self.faulted: set[int] = set()
        self.callback_deadline: float | None = None
        self.injected: collections.Counter[str] = collections.Counter()
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}  # see ``rest``
        self.traps: list[Trap] = []  # see ``faults``
        self.init_uploads()

    # ------------------------------------------------------------------ the world

    def clock(self) -> float:
        """This Discord's clock (seconds): interaction tokens age by it."""
        return now() + self._ahead

    def advance(self, seconds: float) -> None:
        """Move this Discord's clock on: tokens emitted before are that much older."""
        self._ahead += seconds

    def shard_of(self, guild_id: int) -> int:
        """The shard a guild's events go to, as Discord computes it."""
        return (guild_id >> 22) % self.shard_count

    def create_guild(self, name: str, *, with_bot: bool = True) -> Guild:
        """A server; `with_bot` False: one that has not added the bot (user installs only)."""
        gid = snowflake()
        want = len(self.guilds) % self.shard_count  # guilds dealt to the shards in turn
        gid += ((want - self.shard_of(gid)) % self.shard_count) << 22
        guild = Guild(gid, name, self.channels, with_bot=with_bot)
        self.guilds[guild.id] = guild
        return guild

    def create_dm(self, one: User, other: User) -> Channel:
        """A DM: between two people, or with the bot (the only DM it can use channels in)."""
        with_bot = self.bot_user in (one, other)
        channel = Channel(snowflake(), None, "", 0, DM, [one, other], reachable=with_bot)
        self.channels[channel.id] = channel
        return channel

    def create_group_dm(self, *people: User) -> Channel:
        """A group DM of `people` (a bot is never in one)."""
        channel = Channel(snowflake(), None, "friends", 0, GROUP_DM, list(people), reachable=False)
        self.channels[channel.id] = channel
        return channel

    @staticmethod
    def create_user(name: str) -> User:
        return User(snowflake(), name)

    def wake(self, channel_id: int) -> None:
        event = self.listeners.get(channel_id)
        if event is not None:
            event.set()

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=8 * 1024 * 1024, middlewares=[self.faulty])
        app.router.add_get("/gateway", self._gateway)
        api = "/api/v10"
        for method, path, handler in (
            self.routes() + self.reaction_routes() + self.thread_routes() + self.command_routes()
        ):
            app.router.add_route(method, api + path, handler)
        for method, path, handler in self.cdn_routes():  # the CDN, at the root
            app.router.add_route(method, path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for ws, _ in list(self._links.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"
