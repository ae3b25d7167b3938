"""The REST routes of the local Discord: login, command sync and a channel's messages (a
thread's too); the interactions' routes are ``webhooks.Webhooks``'.

Where the bot is not a member (a DM between people, a group DM, a server that has not added it)
every channel route answers 403 Missing Access (50001), as Discord does.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.support.localdiscord.model import (
    LOADING,
    Channel,
    Interaction,
    User,
    _timestamp,
    application_payload,
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


class Rest:
    """The REST half of ``FakeDiscord`` (which holds the world and the gateway)."""

    bot_user: User
    application_id: int
    channels: dict[int, Channel]
    messages: dict[int, dict[str, Any]]
    interactions: dict[int, Interaction]
    commands: dict[str, dict[str, Any]]
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
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
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

    # --------------------------------------------------------------- login, sync

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user.payload())

    async def _application(self, request: web.Request) -> web.Response:
        return _json(application_payload(self.application_id))

    async def _put_commands(self, request: web.Request) -> web.Response:
        answer = []
        for command in await request.json():
            stored = dict(command, id=str(snowflake()), application_id=str(self.application_id))
            stored.setdefault("version", "1")
            stored.setdefault("default_member_permissions", None)
            self.commands[command["name"]] = stored
            answer.append(stored)
        self.synced.set()  # type: ignore[attr-defined]
        return _json(answer)

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
        refused = await self._channel_refused(request)
        if refused is not None:
            return refused
        channel_id = int(request.match_info["channel"])
        body = await self._body(request, channel_id)
        if isinstance(body, web.Response):
            return body
        message = self._message(channel_id, body)
        self.wake(channel_id)
        await self._echo("MESSAGE_CREATE", message)
        return _json(message)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return _error(404, 0, "Not implemented by the load benchmark's Discord")
