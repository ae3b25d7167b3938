"""The gateway of the local Discord: HELLO, IDENTIFY -> READY and a GUILD_CREATE per server the
bot is in, heartbeats, resumes, compression as asked, and the events the bot's own messages bring
back (never from where the bot is not a member)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.support.localdiscord.model import (
    EPHEMERAL,
    GUILD_MESSAGES,
    HEARTBEAT_MS,
    Channel,
    Guild,
    User,
    guild_payload,
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


class Gateway:
    """The gateway half of ``FakeDiscord``."""

    bot_user: User
    application_id: int
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    shard_count: int
    connected: Any
    _links: dict[int, list[Any]]
    _packers: dict[Any, Any]
    _intents: dict[int, int]

    def shard_of(self, guild_id: int) -> int: ...

    @property
    def gateway_url(self) -> str: ...

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
        channel = self.channels.get(int(message["channel_id"]))
        if channel is None or not channel.reachable:
            return  # no gateway events from where the bot is not a member
        shard = self.shard_of(int(message["guild_id"]))
        if self._intents.get(shard, 0) & GUILD_MESSAGES and shard in self._links:
            await self._send_event(name, message, shard)

    async def _identify(self, shard: int) -> None:
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [
                {"id": str(g), "unavailable": True}
                for g, guild in self.guilds.items()
                if self.shard_of(g) == shard and guild.with_bot
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
            if self.shard_of(guild.id) == shard and guild.with_bot:
                await self._send_event("GUILD_CREATE", guild_payload(guild, self.bot_user), shard)
        if len(self._links) == self.shard_count:
            self.connected.set()
