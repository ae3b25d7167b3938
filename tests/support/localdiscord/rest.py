"""The REST routes of the local Discord: login, command sync, interaction callbacks, the
interaction webhook (original response and follow-ups) and a channel's messages (a thread's too).

Where the bot is not a member (a DM between people, a group DM, a server that has not added it)
every channel route answers 403 Missing Access (50001), as Discord does. An interaction's token
dies ``TOKEN_LIFE`` seconds after it was emitted, on the local Discord's own clock (``advance``):
the webhook routes then answer 401 Invalid Webhook Token (50027). An interaction authorised by a
user install only may have ``MAX_FOLLOWUPS`` follow-ups (then 400, 40094), and every answer to a
member without Use External Apps in a server without the bot is made ephemeral.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.support.localdiscord.model import (
    EPHEMERAL,
    LOADING,
    MAX_FOLLOWUPS,
    TOKEN_LIFE,
    Channel,
    Interaction,
    User,
    _timestamp,
    application_payload,
    now,
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
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("GET", "/webhooks/{app}/{token}/messages/@original", self._get_original),
            ("PATCH", "/webhooks/{app}/{token}/messages/@original", self._edit_original),
            ("POST", "/webhooks/{app}/{token}", self._followup),
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

    def _by_token(self, token: str) -> Interaction | web.Response:
        """The interaction a webhook token belongs to, or Discord's answer for a bad token."""
        found = None
        if token.startswith("tok") and token[3:].isdigit():
            found = self.interactions.get(int(token[3:]))
        if found is None:
            return _error(404, 10015, "Unknown Webhook")
        if self.clock() - found.born >= TOKEN_LIFE:
            return _error(401, 50027, "Invalid Webhook Token")
        return found

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

    # ------------------------------------------------------------- interactions

    async def _callback(self, request: web.Request) -> web.Response:
        at = now()  # the bot's answer has reached "Discord"
        self._note(request)
        interaction = self.interactions.get(int(request.match_info["iid"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if interaction.answered:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.too_late(interaction.timing.emitted):
            return _error(404, 10062, "Unknown interaction")
        body = await self._body(request, interaction.channel_id)
        if isinstance(body, web.Response):
            return body
        interaction.answered = True
        timing = interaction.timing
        timing.acked, timing.ack_type = at, body["type"]
        data = body.get("data") or {}
        forced = EPHEMERAL if interaction.forced_ephemeral else 0
        ephemeral = bool((int(data.get("flags") or 0) | forced) & EPHEMERAL)
        timing.ephemeral = ephemeral
        message: dict[str, Any] | None = None
        if body["type"] == 4:  # a message
            message = self._message(interaction.channel_id, data, flags=forced, kind=20)
            interaction.answers.append(int(message["id"]))
        elif body["type"] == 5:  # "thinking", the message comes later
            flags = LOADING | (EPHEMERAL if ephemeral else 0)
            message = self._message(interaction.channel_id, {}, flags=flags, kind=20)
        elif body["type"] == 7:  # update the clicked message
            message = self._edit(interaction.source_message_id, data)
        elif body["type"] == 6:
            interaction.message_id = interaction.source_message_id
        if message is not None:
            interaction.message_id = int(message["id"])
            self.owners_of.setdefault(int(message["id"]), interaction.owners)
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
        self._note(request)
        interaction = self._by_token(request.match_info["token"])
        if isinstance(interaction, web.Response):
            return interaction
        message = self.messages.get(interaction.message_id or 0)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message)

    async def _edit_original(self, request: web.Request) -> web.Response:
        at = now()
        self._note(request)
        interaction = self._by_token(request.match_info["token"])
        if isinstance(interaction, web.Response):
            return interaction
        if self.failing_edits > 0:
            self.failing_edits -= 1
            return _error(400, 50035, "Invalid Form Body")
        body = await self._body(request, interaction.channel_id)
        if isinstance(body, web.Response):
            return body
        message = self._edit(interaction.message_id, body)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        interaction.timing.edits.append(at)
        self.wake(interaction.channel_id)
        await self._echo("MESSAGE_UPDATE", message)
        return _json(message)

    async def _followup(self, request: web.Request) -> web.Response:
        at = now()
        self._note(request)
        interaction = self._by_token(request.match_info["token"])
        if isinstance(interaction, web.Response):
            return interaction
        if interaction.user_only and interaction.followups >= MAX_FOLLOWUPS:
            text = "This interaction has hit the maximum number of follow up messages"
            return _error(400, 40094, text)
        body = await self._body(request, interaction.channel_id)
        if isinstance(body, web.Response):
            return body
        interaction.followups += 1
        forced = EPHEMERAL if interaction.forced_ephemeral else 0
        message = self._message(interaction.channel_id, body, flags=forced)
        interaction.answers.append(int(message["id"]))
        interaction.timing.followups.append(at)
        self.wake(interaction.channel_id)
        await self._echo("MESSAGE_CREATE", message)
        return _json(message)

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
