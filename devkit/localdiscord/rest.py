"""The REST routes of the local Discord: login and a channel's messages (a thread's too); the
interactions' routes are ``webhooks.Webhooks``', the commands' ``commands.Commands``'.

Where the bot is not a member (a DM between people, a group DM, a server that has not added it)
every channel route answers 403 Missing Access (50001), as Discord does.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from devkit.localdiscord.model import (
    LOADING,
    Channel,
    Guild,
    Interaction,
    User,
    _timestamp,
    application_payload,
    member_payload,
    snowflake,
)


def _json(payload: Any, *, status: int = 200) -> web.Response:
    """A JSON answer as Discord sends it: discord.py wants the content type without a charset."""
    return web.Response(
        body=json.dumps(payload).encode(), status=status, content_type="application/json"
    )


def _error(status: int, code: int, text: str) -> web.Response:
    return _json({"message": text, "code": code}, status=status)


MISSING_ACCESS = (403, 50001, "Missing Access")
UNKNOWN_MEMBER = (404, 10007, "Unknown Member")
# Seconds a message's nonce is remembered: Discord says "the past few minutes" and promises no
# more, so the bot may not count on more than a short window either.
NONCE_LIFE = 3 * 60
HISTORY_LIMIT = 100  # messages one read of a channel's history gives at most


class Rest:
    """The REST half of ``FakeDiscord`` (which holds the world and the gateway)."""

    bot_user: User
    application_id: int
    channels: dict[int, Channel]
    guilds: dict[int, Guild]
    messages: dict[int, dict[str, Any]]
    nonces: dict[tuple[int, str], tuple[int, float]]  # (author, nonce) -> (message, when)
    interactions: dict[int, Interaction]
    unexpected: list[str]
    requests: list[tuple[str, str]]  # every request of the bot after login, (method, path)
    refused: list[tuple[str, str]]  # the channel routes refused for want of access
    owners_of: dict[int, dict[str, str]]  # message id -> the owners of the interaction it answered
    failing_edits: int  # edits of an original response still to refuse (400), as a fault
    in_thread: Callable[[str, Channel], Awaitable[web.Response | None]]  # threads.Threads
    # uploads.Uploads: a body with its files, and the attachments an edit keeps
    _body: Callable[[web.Request, int], Awaitable[dict[str, Any] | web.Response]]
    kept: Callable[[dict[str, Any], list[dict[str, Any]]], list[dict[str, Any]]]

    def clock(self) -> float: ...
    def too_late(self, emitted: float) -> bool: ...
    def wake(self, channel_id: int) -> None: ...
    async def _echo(self, name: str, message: dict[str, Any] | None) -> None: ...

    def routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("GET", "/guilds/{guild}/members/{user}", self._get_guild_member),
            ("GET", "/channels/{channel}/messages", self._get_history),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("POST", "/channels/{channel}/messages", self._post_message),
        ]

    # ------------------------------------------------------------------ messages

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
            "attachments": body.get("attachments") or [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": kind,
            "flags": int(body.get("flags") or 0) | flags,
            "application_id": str(self.application_id),
            "webhook_id": str(self.application_id),
        }
        if channel is not None and channel.guild_id is not None:
            message["guild_id"] = str(channel.guild_id)
        self.messages[int(message["id"])] = message
        return message

    def say(self, user: User, channel: Channel, text: str) -> dict[str, Any]:
        """A member's message in a channel (the world's: no event is sent for it)."""
        message = self._message(channel.id, {"content": text})
        message["author"] = user.payload()
        message.pop("application_id")
        message.pop("webhook_id")
        return message

    def _edit(self, message_id: int | None, body: dict[str, Any]) -> dict[str, Any] | None:
        message = self.messages.get(message_id) if message_id is not None else None
        if message is None:
            return None
        for key in ("content", "embeds", "components", "attachments"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if body.get("attachments") is not None:
            message["attachments"] = self.kept(message, body["attachments"])
        if "flags" in body and body["flags"] is not None:
            message["flags"] = int(body["flags"])
        else:
            message["flags"] = int(message["flags"]) & ~LOADING
        message["edited_timestamp"] = _timestamp()
        return message

    def _note(self, request: web.Request) -> None:
        self.requests.append((request.method, request.path))

    # --------------------------------------------------------------------- login

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user.payload())

    async def _application(self, request: web.Request) -> web.Response:
        return _json(application_payload(self.application_id))

    # ------------------------------------------------------------------ channels

    async def _channel_refused(self, request: web.Request) -> web.Response | None:
        """403 Missing Access on a channel the bot is not a member of; in a thread, what the
        thread refuses (``threads.Threads.in_thread``)."""
        self._note(request)
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is not None and not channel.reachable:
            self.refused.append((request.method, request.path))
            return _error(*MISSING_ACCESS)
        return None if channel is None else await self.in_thread(request.method, channel)

    async def _get_message(self, request: web.Request) -> web.Response:
        refused = await self._channel_refused(request)
        message = self.messages.get(int(request.match_info["message"]))
        if refused is not None or message is None:
            return refused if refused is not None else _error(404, 10008, "Unknown Message")
        return _json(message)

    async def _get_history(self, request: web.Request) -> web.Response:
        """A channel's messages, newest first: ``limit`` of them (50 unless asked, at most
        `HISTORY_LIMIT`), those ``before`` or ``after`` a message id if asked. A message's nonce
        is not in it, as with Discord (only the answer to its post carries it)."""
        refused = await self._channel_refused(request)
        if refused is not None:
            return refused
        channel = request.match_info["channel"]
        limit = min(int(request.query.get("limit", 50)), HISTORY_LIMIT)
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        found = [m for m in self.messages.values() if m["channel_id"] == channel]
        found = [m for m in found if after < int(m["id"]) < before and not m["flags"] & 64]
        found.sort(key=lambda m: int(m["id"]), reverse=True)
        found = found[-limit:] if "after" in request.query else found[:limit]
        return _json([{k: v for k, v in m.items() if k != "nonce"} for m in found])

    async def _get_guild_member(self, request: web.Request) -> web.Response:
        """A member of a server the bot is in, or 10007 Unknown Member."""
        self._note(request)
        guild = self.guilds.get(int(request.match_info["guild"]))
        user = guild.members.get(int(request.match_info["user"])) if guild else None
        if guild is None or not guild.with_bot:
            return _error(*MISSING_ACCESS)
        if user is None:
            return _error(*UNKNOWN_MEMBER)
        return _json(member_payload(user))

    async def _edit_message(self, request: web.Request) -> web.Response:
        refused = await self._channel_refused(request)
        if refused is not None:
            return refused
        channel_id = int(request.match_info["channel"])
        body = await self._body(request, channel_id)
        if isinstance(body, web.Response):
            return body
        message = self._edit(int(request.match_info["message"]), body)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        self.wake(channel_id)
        await self._echo("MESSAGE_UPDATE", message)
        return _json(message)

    async def _post_message(self, request: web.Request) -> web.Response:
        """A message posted in a channel; with ``nonce`` and ``enforce_nonce``, a second post
        with the same nonce by the same author within `NONCE_LIFE` answers the first message
        and creates none, as Discord does."""
        refused = await self._channel_refused(request)
        if refused is not None:
            return refused
        channel_id = int(request.match_info["channel"])
        body = await self._body(request, channel_id)
        if isinstance(body, web.Response):
            return body
        nonce = str(body["nonce"]) if body.get("nonce") is not None else None
        key = (self.bot_user.id, nonce or "")
        if nonce is not None and body.get("enforce_nonce"):
            seen = self.nonces.get(key)
            if (
                seen is not None
                and self.clock() - seen[1] < NONCE_LIFE
                and seen[0] in self.messages
            ):
                return _json(self.messages[seen[0]])
        message = self._message(channel_id, body)
        if nonce is not None:
            message["nonce"] = nonce
            self.nonces[key] = (int(message["id"]), self.clock())
        self.wake(channel_id)
        await self._echo("MESSAGE_CREATE", message)
        return _json(message)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return _error(404, 0, "Not implemented by the load benchmark's Discord")
