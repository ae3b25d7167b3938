"""Reactions in the local Discord: the bot adds its own and removes others', players add theirs
(MESSAGE_REACTION_ADD on the gateway), a message carries them, and the bot's reaction requests
are limited per channel as Discord limits them: one every ``REACTION_GAP`` seconds per channel,
adding its own and removing others' in one bucket. A request too early gets 429 with
``retry_after``; every answer carries the bucket's headers, so discord.py waits before its next
request the way it does against Discord.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from aiohttp import web

from devkit.localdiscord.model import Channel, User, now

REACTION_GAP = 0.25  # seconds between two reaction requests of the bot in one channel


def _headers(wait: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": "1",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{wait:.3f}",
        "X-RateLimit-Bucket": "reactions",
    }


class Reactions:
    """The reaction half of ``FakeDiscord``."""

    bot_user: User
    channels: dict[int, Channel]
    messages: dict[int, dict[str, Any]]
    requests: list[tuple[str, str]]
    limited: int  # requests answered 429
    _next_reaction: dict[int, float]  # channel id -> when it may take the next reaction

    def shard_of(self, guild_id: int) -> int: ...
    def wake(self, channel_id: int) -> None: ...
    async def _send_event(self, name: str, data: Any, shard: int = 0) -> None: ...

    def reaction_routes(self) -> list[tuple[str, str, Any]]:
        base = "/channels/{channel}/messages/{message}/reactions/{emoji}"
        return [
            ("PUT", base + "/@me", self._add_own),
            ("DELETE", base + "/@me", self._remove_one),
            ("DELETE", base + "/{user}", self._remove_one),
            ("DELETE", "/channels/{channel}/messages/{message}/reactions", self._clear),
        ]

    def reacted(self, message_id: int, emoji: str) -> list[int]:
        """Who reacted with `emoji` on a message."""
        entry = self._entry(self.messages[message_id], emoji, create=False)
        return [] if entry is None else list(entry["users"])

    @staticmethod
    def _entry(message: dict[str, Any], emoji: str, *, create: bool) -> dict[str, Any] | None:
        for entry in message.setdefault("_reactions", []):
            if entry["emoji"] == emoji:
                return dict(entry) if not create else entry
        if not create:
            return None
        entry = {"emoji": emoji, "users": []}
        message["_reactions"].append(entry)
        return entry

    def _set(self, message: dict[str, Any], emoji: str, user_id: int, on: bool) -> None:
        entry = self._entry(message, emoji, create=True)
        assert entry is not None
        if on and user_id not in entry["users"]:
            entry["users"].append(user_id)
        elif not on and user_id in entry["users"]:
            entry["users"].remove(user_id)
        message["reactions"] = [
            {
                "emoji": {"id": None, "name": e["emoji"]},
                "count": len(e["users"]),
                "me": self.bot_user.id in e["users"],
                "burst_colors": [],
                "count_details": {"burst": 0, "normal": len(e["users"])},
                "me_burst": False,
            }
            for e in message["_reactions"]
            if e["users"]
        ]

    async def react(self, user: User, channel: Channel, message_id: int, emoji: str) -> None:
        """A player adds a reaction: stored, and MESSAGE_REACTION_ADD sent to the bot."""
        self._set(self.messages[message_id], emoji, user.id, True)
        event: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(channel.id),
            "message_id": str(message_id),
            "emoji": {"id": None, "name": emoji},
            "burst": False,
            "type": 0,
        }
        shard = 0
        if channel.guild_id is not None:
            event["guild_id"] = str(channel.guild_id)
            shard = self.shard_of(channel.guild_id)
        await self._send_event("MESSAGE_REACTION_ADD", event, shard)

    def _too_soon(self, request: web.Request) -> web.Response | None:
        """The 429 of a reaction request that comes before its channel's bucket allows one."""
        self.requests.append((request.method, request.path))
        channel_id = int(request.match_info["channel"])
        at = now()
        ready = self._next_reaction.get(channel_id, 0.0)
        if at >= ready:
            self._next_reaction[channel_id] = at + REACTION_GAP
            return None
        self.limited += 1
        wait = ready - at
        body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
        headers = {**_headers(wait), "Retry-After": f"{wait:.3f}"}
        return web.json_response(body, status=429, headers=headers)

    async def _add_own(self, request: web.Request) -> web.Response:
        refused = self._too_soon(request)
        if refused is not None:
            return refused
        channel_id = int(request.match_info["channel"])
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return web.json_response({"message": "Unknown Message", "code": 10008}, status=404)
        emoji = urllib.parse.unquote(request.match_info["emoji"])
        self._set(message, emoji, self.bot_user.id, True)
        self.wake(channel_id)
        return web.Response(status=204, headers=_headers(REACTION_GAP))

    async def _remove_one(self, request: web.Request) -> web.Response:
        refused = self._too_soon(request)
        if refused is not None:
            return refused
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return web.json_response({"message": "Unknown Message", "code": 10008}, status=404)
        emoji = urllib.parse.unquote(request.match_info["emoji"])
        user = request.match_info.get("user")  # none: the bot's own ("@me")
        self._set(message, emoji, self.bot_user.id if user is None else int(user), False)
        return web.Response(status=204, headers=_headers(REACTION_GAP))

    async def _clear(self, request: web.Request) -> web.Response:
        """Every reaction on a message removed (the bot needs Manage Messages on Discord)."""
        refused = self._too_soon(request)
        if refused is not None:
            return refused
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return web.json_response({"message": "Unknown Message", "code": 10008}, status=404)
        message["_reactions"], message["reactions"] = [], []
        return web.Response(status=204, headers=_headers(REACTION_GAP))
