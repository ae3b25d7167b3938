"""A small Discord of our own on 127.0.0.1: a gateway (websocket) and the REST routes the bot uses.

The load benchmark runs the bot in a process of its own against this server, so that the bot's
figures do not include the cost of simulating Discord: the server and the simulated players run
in the benchmark's process (on the other core), the bot runs the real discord.py, which speaks
to the server as it would to Discord: HTTP for the REST API, JSON text frames on the gateway.

What it implements is what discord.py and this bot use, no more:

- ``GET /users/@me``, ``GET /oauth2/applications/@me`` (login), ``PUT`` of the application's
  commands (sync);
- the gateway: HELLO, IDENTIFY -> READY and one GUILD_CREATE per guild, heartbeats, and the
  INTERACTION_CREATE events the players emit;
- interaction callbacks (types 4 to 7, with ``with_response``), the original response
  (GET and PATCH), followups, and message GET, PATCH and POST in a channel (``rest``);
- the places a user install reaches: DMs between people and group DMs (``create_dm``,
  ``create_group_dm``), servers that have not added the bot (``create_guild(with_bot=False)``),
  with the interaction's ``context`` and ``authorizing_integration_owners`` as Discord sends them,
  channel routes refused there, tokens that expire on this Discord's clock (``advance``), the
  follow-up limit and answers forced ephemeral (see ``rest``);
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

from tests.support.localdiscord.faults import Faults
from tests.support.localdiscord.gateway import Gateway
from tests.support.localdiscord.model import (
    ALL_PERMISSIONS,
    BOT_DM,
    BUTTON,
    DM,
    GROUP_DM,
    GUILD,
    HEARTBEAT_MS,
    MANAGE_GUILD,
    PRIVATE_CHANNEL,
    STRING_SELECT,
    USE_EXTERNAL_APPS,
    Channel,
    Guild,
    Interaction,
    Timing,
    User,
    member_payload,
    now,
    snowflake,
)
from tests.support.localdiscord.reactions import Reactions
from tests.support.localdiscord.rest import Rest
from tests.support.localdiscord.thread_members import ThreadMembers
from tests.support.localdiscord.uploads import Uploads


class FakeDiscord(Gateway, Faults, Rest, Reactions, ThreadMembers, Uploads):
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
        for method, path, handler in self.routes() + self.reaction_routes() + self.thread_routes():
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

    # --------------------------------------------------------------- interactions

    def place(self, channel: Channel) -> tuple[Guild | None, int]:
        """The server of a channel (None in DMs) and the context of an interaction there."""
        if channel.guild_id is not None:
            return self.guilds[channel.guild_id], GUILD
        return None, BOT_DM if self.bot_user in channel.recipients else PRIVATE_CHANNEL

    def owners(self, user: User, channel: Channel) -> dict[str, str]:
        """Who authorised a command: the server where it added the bot, else the user's own
        install (in the bot's DM, a server install answers too)."""
        guild, context = self.place(channel)
        if guild is not None and guild.with_bot:
            return {"0": str(guild.id)}
        if context == BOT_DM:
            return {"0": "0"}
        return {"1": str(user.id)}

    async def emit(
        self,
        kind: str,
        user: User,
        channel: Channel,
        type_: int,
        data: Any,
        *,
        message_id: int | None = None,
    ) -> int:
        """Send one INTERACTION_CREATE; returns its id. Timed from just before the frame goes.

        A click carries the owners of the interaction its message answered, as Discord does."""
        iid = snowflake()
        token = f"tok{iid}"
        guild, context = self.place(channel)
        owners = self.owners(user, channel)
        if message_id is not None:
            owners = self.owners_of.get(message_id, owners)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "app_permissions": str(channel.app_permissions),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "context": context,
            "attachment_size_limit": 26214400,
        }
        forced = False
        if guild is not None:
            permissions = ALL_PERMISSIONS
            if user.id in guild.members_only:
                permissions &= ~MANAGE_GUILD
            if user.id in guild.no_external_apps:
                permissions &= ~USE_EXTERNAL_APPS
                forced = not guild.with_bot
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                member=member_payload(user, permissions=permissions),
            )
        else:
            payload["user"] = user.payload()
        if message_id is not None:
            payload["message"] = self.messages[message_id]
        timing = Timing(kind, channel.id, 0.0)
        self.interactions[iid] = Interaction(
            iid,
            token,
            type_,
            channel.id,
            timing,
            source_message_id=message_id,
            born=self.clock(),
            owners=owners,
            forced_ephemeral=forced,
        )
        self.timings[iid] = timing
        shard = 0 if guild is None else self.shard_of(guild.id)

        def stamp() -> None:
            timing.emitted = now()

        await self._dispatch(shard, "INTERACTION_CREATE", payload, stamp)
        return iid

    async def slash(self, user: User, channel: Channel, name: str, **options: Any) -> int:
        """A slash command with options given as Python values (a `User` for a user option);
        a subcommand is named after its command ("tictactoe-settings set")."""
        name, _, sub = name.partition(" ")
        command = self.commands[name]
        listed = command.get("options", [])
        if sub:
            listed = next(o for o in listed if o["name"] == sub).get("options", [])
        kinds = {o["name"]: o["type"] for o in listed}
        sent: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in options.items():
            if value is None:
                continue
            if isinstance(value, User):
                sent.append({"name": key, "type": kinds[key], "value": str(value.id)})
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if channel.guild_id is not None:
                    member = member_payload(value, permissions=ALL_PERMISSIONS)
                    del member["user"]
                    resolved.setdefault("members", {})[str(value.id)] = member
            else:
                sent.append({"name": key, "type": kinds[key], "value": value})
        if sub:
            sent = [{"name": sub, "type": 1, "options": sent}]
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": sent}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        if resolved:
            data["resolved"] = resolved
        return await self.emit("slash", user, channel, 2, data)

    async def click(
        self, kind: str, user: User, channel: Channel, message_id: int, custom_id: str
    ) -> int:
        """A click on a button of a stored message."""
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self.emit(kind, user, channel, 3, data, message_id=message_id)

    async def select(
        self, user: User, channel: Channel, message_id: int, custom_id: str, values: list[str]
    ) -> int:
        """A choice in a string select menu of a stored message."""
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": values}
        return await self.emit("select", user, channel, 3, data, message_id=message_id)
