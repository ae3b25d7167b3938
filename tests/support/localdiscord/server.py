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
  (GET and PATCH), followups, and message GET and PATCH in a channel.

Anything else is answered 404 and counted in ``unexpected``, which the benchmark reports. Every
interaction is timed from the moment its INTERACTION_CREATE frame is written to the moment the
bot's request for it arrives (`Timing`); listeners per channel are woken on every answer.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.support.localdiscord.model import (
    ALL_PERMISSIONS,
    BUTTON,
    EPHEMERAL,
    GUILD_MESSAGES,
    HEARTBEAT_MS,
    LOADING,
    Channel,
    Guild,
    Interaction,
    Timing,
    User,
    _timestamp,
    member_payload,
    now,
    snowflake,
)


def _json(payload: Any, *, status: int = 200) -> web.Response:
    """A JSON answer as Discord sends it: discord.py wants the content type without a charset."""
    return web.Response(
        body=json.dumps(payload).encode(), status=status, content_type="application/json"
    )


def packer(compress: str | None) -> Callable[[bytes], bytes] | None:
    """Compression of a gateway connection as Discord does it for `?compress=`: one stream per
    connection, each message flushed whole (zlib-stream ends each with Z_SYNC_FLUSH)."""
    if compress == "zlib-stream":
        stream = zlib.compressobj()
        return lambda data: stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)
    if compress == "zstd-stream":
        import zstandard  # installed with discord.py[speed]

        zstd = zstandard.ZstdCompressor().compressobj()
        return lambda data: zstd.compress(data) + zstd.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    return None


class FakeDiscord:
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

    # ------------------------------------------------------------------ the world

    def shard_of(self, guild_id: int) -> int:
        """The shard a guild's events go to, as Discord computes it."""
        return (guild_id >> 22) % self.shard_count

    def create_guild(self, name: str) -> Guild:
        gid = snowflake()
        want = len(self.guilds) % self.shard_count  # guilds dealt to the shards in turn
        gid += ((want - self.shard_of(gid)) % self.shard_count) << 22
        guild = Guild(gid, name, self.channels)
        self.guilds[guild.id] = guild
        return guild

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
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        api = "/api/v10"
        routes = [
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("GET", "/webhooks/{app}/{token}/messages/@original", self._get_original),
            ("PATCH", "/webhooks/{app}/{token}/messages/@original", self._edit_original),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, api + path, handler)
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

    # -------------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._packers[ws] = packer(request.query.get("compress"))
        shard = -1
        await self._send(ws, json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame["op"] == 1:
                await self._send(ws, json.dumps({"op": 11}))
            elif frame["op"] == 2:
                shard = (frame["d"].get("shard") or [0, 1])[0]
                self._links[shard] = [ws, 0]
                self._intents[shard] = int(frame["d"].get("intents") or 0)
                await self._identify(shard)
            elif frame["op"] == 6:
                shard = frame["d"].get("shard_id") or 0  # discord.py does not send it: shard 0
                self._links[shard] = [ws, self._links.get(shard, [ws, 0])[1]]
                await self._send_event("RESUMED", {}, shard)
        if shard in self._links and self._links[shard][0] is ws:
            del self._links[shard]
        del self._packers[ws]
        return ws

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        """One gateway message, compressed as the bot asked when it connected."""
        pack = self._packers.get(ws)
        if pack is None:
            await ws.send_str(text)
        else:
            await ws.send_bytes(pack(text.encode()))

    def _link(self, shard: int) -> list[Any]:
        link = self._links.get(shard)
        assert link is not None, f"no bot is connected for shard {shard}"
        link[1] += 1
        return link

    async def _send_event(self, name: str, data: Any, shard: int = 0) -> None:
        ws, sequence = self._link(shard)
        await self._send(ws, json.dumps({"op": 0, "t": name, "s": sequence, "d": data}))

    async def _echo(self, name: str, message: dict[str, Any] | None) -> None:
        """MESSAGE_CREATE or MESSAGE_UPDATE of a message the bot posted or edited, as Discord
        sends it back on the gateway to a bot with the guild messages intent (never for an
        ephemeral message)."""
        if message is None or int(message["flags"]) & EPHEMERAL or "guild_id" not in message:
            return
        shard = self.shard_of(int(message["guild_id"]))
        if self._intents.get(shard, 0) & GUILD_MESSAGES and shard in self._links:
            await self._send_event(name, message, shard)

    async def _identify(self, shard: int) -> None:
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [
                {"id": str(g), "unavailable": True}
                for g in self.guilds
                if self.shard_of(g) == shard
            ],
            "session_id": "load-session",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if self.shard_count > 1:
            ready["shard"] = [shard, self.shard_count]
        await self._send_event("READY", ready, shard)
        for guild in self.guilds.values():
            if self.shard_of(guild.id) == shard:
                await self._send_event("GUILD_CREATE", self._guild_payload(guild), shard)
        if len(self._links) == self.shard_count:
            self.connected.set()

    def _guild_payload(self, guild: Guild) -> dict[str, Any]:
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": str(ALL_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(next(iter(guild.members), self.bot_user.id)),
            "unavailable": False,
            "member_count": len(guild.members) + 1,
            "large": False,
            "features": [],
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in guild.channels.values()],
            "threads": [],
            "members": [member_payload(self.bot_user)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
        }

    # --------------------------------------------------------------- interactions

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
        """Send one INTERACTION_CREATE; returns its id. Timed from just before the frame goes."""
        iid = snowflake()
        token = f"tok{iid}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "data": data,
            "guild_id": str(channel.guild_id),
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": member_payload(user, permissions=ALL_PERMISSIONS),
            "app_permissions": str(ALL_PERMISSIONS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id)},
            "context": 0,
            "attachment_size_limit": 26214400,
        }
        if message_id is not None:
            payload["message"] = self.messages[message_id]
        timing = Timing(kind, channel.id, 0.0)
        self.interactions[iid] = Interaction(
            iid, token, type_, channel.id, timing, source_message_id=message_id
        )
        self.timings[iid] = timing
        ws, sequence = self._link(self.shard_of(channel.guild_id))
        frame = json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": sequence, "d": payload})
        timing.emitted = now()
        await self._send(ws, frame)
        return iid

    async def slash(self, user: User, channel: Channel, name: str, **options: Any) -> int:
        """A slash command with options given as Python values (a `User` for a user option)."""
        command = self.commands[name]
        kinds = {o["name"]: o["type"] for o in command.get("options", [])}
        sent: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in options.items():
            if value is None:
                continue
            if isinstance(value, User):
                sent.append({"name": key, "type": kinds[key], "value": str(value.id)})
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = member_payload(value, permissions=ALL_PERMISSIONS)
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
            else:
                sent.append({"name": key, "type": kinds[key], "value": value})
        data: dict[str, Any] = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": sent,
            "guild_id": str(channel.guild_id),
        }
        if resolved:
            data["resolved"] = resolved
        return await self.emit("slash", user, channel, 2, data)

    async def click(
        self, kind: str, user: User, channel: Channel, message_id: int, custom_id: str
    ) -> int:
        """A click on a button of a stored message."""
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self.emit(kind, user, channel, 3, data, message_id=message_id)

    # --------------------------------------------------------------------- REST

    def _message(
        self, channel_id: int, body: dict[str, Any], *, flags: int = 0, kind: int = 0
    ) -> dict[str, Any]:
        channel = self.channels.get(channel_id)
        message = {
            "id": str(snowflake()),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _timestamp(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": kind,
            "flags": int(body.get("flags") or 0) | flags,
            "application_id": str(self.application_id),
            "webhook_id": str(self.application_id),
        }
        if channel is not None:
            message["guild_id"] = str(channel.guild_id)
        self.messages[int(message["id"])] = message
        return message

    def _edit(self, message_id: int | None, body: dict[str, Any]) -> dict[str, Any] | None:
        message = self.messages.get(message_id) if message_id is not None else None
        if message is None:
            return None
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if "flags" in body and body["flags"] is not None:
            message["flags"] = int(body["flags"])
        else:
            message["flags"] = int(message["flags"]) & ~LOADING
        message["edited_timestamp"] = _timestamp()
        return message

    @staticmethod
    def _error(status: int, code: int, text: str) -> web.Response:
        return _json({"message": text, "code": code}, status=status)

    def _by_token(self, token: str) -> Interaction | None:
        if token.startswith("tok") and token[3:].isdigit():
            return self.interactions.get(int(token[3:]))
        return None

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user.payload())

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "TicTacToe",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.create_user("owner").payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
            }
        )

    async def _put_commands(self, request: web.Request) -> web.Response:
        answer = []
        for command in await request.json():
            stored = dict(command, id=str(snowflake()), application_id=str(self.application_id))
            stored.setdefault("version", "1")
            stored.setdefault("default_member_permissions", None)
            self.commands[command["name"]] = stored
            answer.append(stored)
        self.synced.set()
        return _json(answer)

    async def _callback(self, request: web.Request) -> web.Response:
        at = now()  # the bot's answer has reached "Discord"
        interaction = self.interactions.get(int(request.match_info["iid"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            return self._error(404, 10062, "Unknown interaction")
        if interaction.answered:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        body = await request.json()
        interaction.answered = True
        timing = interaction.timing
        timing.acked, timing.ack_type = at, body["type"]
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        timing.ephemeral = ephemeral
        message: dict[str, Any] | None = None
        if body["type"] == 4:  # a message
            message = self._message(interaction.channel_id, data, kind=20)
        elif body["type"] == 5:  # "thinking", the message comes later
            flags = LOADING | (EPHEMERAL if ephemeral else 0)
            message = self._message(interaction.channel_id, {}, flags=flags, kind=20)
        elif body["type"] == 7:  # update the clicked message
            message = self._edit(interaction.source_message_id, data)
        elif body["type"] == 6:
            interaction.message_id = interaction.source_message_id
        if message is not None:
            interaction.message_id = int(message["id"])
        self.wake(interaction.channel_id)
        await self._echo("MESSAGE_UPDATE" if body["type"] == 7 else "MESSAGE_CREATE", message)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": body["type"] == 5,
                "response_message_ephemeral": ephemeral,
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": body["type"], "message": message}
        return _json(answer)

    async def _get_original(self, request: web.Request) -> web.Response:
        interaction = self._by_token(request.match_info["token"])
        message = self.messages.get(interaction.message_id or 0) if interaction else None
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        return _json(message)

    async def _edit_original(self, request: web.Request) -> web.Response:
        at = now()
        interaction = self._by_token(request.match_info["token"])
        if interaction is None:
            return self._error(404, 10015, "Unknown Webhook")
        message = self._edit(interaction.message_id, await request.json())
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        interaction.timing.edits.append(at)
        self.wake(interaction.channel_id)
        await self._echo("MESSAGE_UPDATE", message)
        return _json(message)

    async def _followup(self, request: web.Request) -> web.Response:
        at = now()
        interaction = self._by_token(request.match_info["token"])
        if interaction is None:
            return self._error(404, 10015, "Unknown Webhook")
        message = self._message(interaction.channel_id, await request.json())
        interaction.timing.followups.append(at)
        self.wake(interaction.channel_id)
        await self._echo("MESSAGE_CREATE", message)
        return _json(message)

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        return _json(message)

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        message = self._edit(int(request.match_info["message"]), await request.json())
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        self.wake(channel_id)
        await self._echo("MESSAGE_UPDATE", message)
        return _json(message)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return self._error(404, 0, "Not implemented by the load benchmark's Discord")
