"""The gateway of the local Discord: HELLO, IDENTIFY -> READY and a GUILD_CREATE per server the
bot is in, heartbeats, resumes, compression as asked, and the events the bot's own messages bring
back (never from where the bot is not a member).

With ``replay`` on, it keeps each shard's session as Discord does: events for a shard that is not
connected are kept, and a RESUME gets every event after the sequence it names before RESUMED (an
IDENTIFY starts a new session, and what was kept is gone). With ``heartbeats_enforced`` on, a
connection that sends no heartbeat for 1.5 intervals is closed (4000, resumable), as Discord
closes a zombie connection."""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import zlib
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from devkit.localdiscord.model import (
    EPHEMERAL,
    GUILD_MESSAGES,
    Channel,
    Guild,
    User,
    guild_payload,
    now,
)

_session_numbers = itertools.count(1)


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
    heartbeat_ms: int
    heartbeats_enforced: bool
    replay: bool
    _seqs: dict[int, int]  # shard -> the session's last sequence (kept while it is away)
    _history: dict[int, collections.deque[tuple[int, str]]]  # shard -> (sequence, frame)
    _sessions: dict[str, int]  # session id -> its shard

    def shard_of(self, guild_id: int) -> int: ...

    @property
    def gateway_url(self) -> str: ...

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._packers[ws] = packer(request.query.get("compress"))
        shard = -1
        beat = [now()]
        watch = asyncio.create_task(self._watch_heartbeats(ws, beat))
        await self._send(ws, json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame["op"] == 1:
                beat[0] = now()
                await self._send(ws, json.dumps({"op": 11}))
            elif frame["op"] == 2:
                shard = (frame["d"].get("shard") or [0, 1])[0]
                self._links[shard] = [ws, 0]
                self._history.pop(shard, None)  # a new session: nothing of the old one is replayed
                self._intents[shard] = int(frame["d"].get("intents") or 0)
                await self._identify(shard)
            elif frame["op"] == 6:  # the session names its shard (discord.py sends no shard id)
                found = self._sessions.get(str(frame["d"].get("session_id")))
                if found is None:  # an unknown or replaced session: identify anew
                    await self._send(ws, json.dumps({"op": 9, "d": False}))
                    continue
                shard = found
                await self._resume(ws, shard, int(frame["d"].get("seq") or 0))
        watch.cancel()
        if shard in self._links and self._links[shard][0] is ws:
            self._seqs[shard] = self._links.pop(shard)[1]
        del self._packers[ws]
        return ws

    def _new_session(self, shard: int) -> str:
        """A new session of a shard; its earlier ones can no longer be resumed."""
        for old in [name for name, owner in self._sessions.items() if owner == shard]:
            del self._sessions[old]
        name = f"load-session-{shard}-{next(_session_numbers)}"
        self._sessions[name] = shard
        return name

    async def _resume(self, ws: web.WebSocketResponse, shard: int, seen: int) -> None:
        """Take the session back: the events after `seen` it missed, then RESUMED."""
        last = self._links[shard][1] if shard in self._links else self._seqs.get(shard, 0)
        self._links[shard] = [ws, last]
        for sequence, text in list(self._history.get(shard, ())):
            if sequence > seen:
                await self._send(ws, text)
        await self._send_event("RESUMED", {}, shard)

    async def _watch_heartbeats(self, ws: web.WebSocketResponse, beat: list[float]) -> None:
        """Close a connection whose heartbeats stopped (when ``heartbeats_enforced``)."""
        interval = self.heartbeat_ms / 1000
        while not ws.closed:
            await asyncio.sleep(interval / 4)
            if self.heartbeats_enforced and now() - beat[0] > 1.5 * interval:
                await ws.close(code=4000, message=b"heartbeat missed")
                return

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        """One gateway message, compressed as the bot asked when it connected."""
        pack = self._packers.get(ws)
        if pack is None:
            await ws.send_str(text)
        else:
            await ws.send_bytes(pack(text.encode()))

    async def _dispatch(self, shard: int, name: str, data: Any, stamp: Any = None) -> None:
        """One event to a shard; `stamp()` is called just before its frame goes. With
        ``replay``, kept for a resume, and kept only while the shard is away."""
        link = self._links.get(shard)
        assert link is not None or self.replay, f"no bot is connected for shard {shard}"
        if link is not None:
            link[1] += 1
            sequence = link[1]
        else:
            sequence = self._seqs[shard] = self._seqs.get(shard, 0) + 1
        text = json.dumps({"op": 0, "t": name, "s": sequence, "d": data})
        if self.replay:
            kept = self._history.setdefault(shard, collections.deque(maxlen=20_000))
            kept.append((sequence, text))
        if stamp is not None:
            stamp()
        if link is None:
            return
        try:
            await self._send(link[0], text)
        except ConnectionResetError:  # the connection is closing: kept for a resume, as above
            if not self.replay:
                raise

    async def _send_event(self, name: str, data: Any, shard: int = 0) -> None:
        await self._dispatch(shard, name, data)

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
            "session_id": self._new_session(shard),
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
