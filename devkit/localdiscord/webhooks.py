"""The interactions' REST routes of the local Discord: the callback (an interaction's first
answer: a message, "thinking", an update of the clicked message, or the Activity launched) and the
interaction webhook (its original response and follow-ups).

The callback answers 204 with no body unless ``with_response`` is set, then the callback response
(the interaction, and the message made or the Activity instance launched), as Discord does.

An interaction's token dies ``TOKEN_LIFE`` seconds after it was emitted, on the local Discord's
own clock (``advance``): the webhook routes then answer 401 Invalid Webhook Token (50027). An
interaction authorised by a user install only may have ``MAX_FOLLOWUPS`` follow-ups (then 400,
40094), and every answer to a member without Use External Apps in a server without the bot is
made ephemeral.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from devkit.localdiscord.model import (
    EPHEMERAL,
    LOADING,
    MAX_FOLLOWUPS,
    TOKEN_LIFE,
    Interaction,
    Launch,
    now,
    snowflake,
)
from devkit.localdiscord.rest import Rest, _error, _json

LAUNCH_ACTIVITY = 12  # the callback type that opens the app's Activity


class Webhooks(Rest):
    """The interactions' routes, beside ``Rest``'s."""

    launches: list[Launch]

    def routes(self) -> list[tuple[str, str, Any]]:
        return [
            *super().routes(),
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("GET", "/webhooks/{app}/{token}/messages/@original", self._get_original),
            ("PATCH", "/webhooks/{app}/{token}/messages/@original", self._edit_original),
            ("POST", "/webhooks/{app}/{token}", self._followup),
        ]

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
        launched: Launch | None = None
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
        elif body["type"] == LAUNCH_ACTIVITY:
            launched = Launch(
                f"i-{snowflake()}", interaction.channel_id, interaction.user_id, interaction.id
            )
            self.launches.append(launched)
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
        if launched is not None:
            answer["interaction"]["activity_instance_id"] = launched.instance_id
            answer["resource"] = {
                "type": body["type"],
                "activity_instance": {"id": launched.instance_id},
            }
        if request.query.get("with_response", "").lower() not in ("true", "1"):
            return web.Response(status=204)
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
