"""The application's commands on the local Discord: its global commands (read, and overwritten
whole as ``tree.sync()`` does), its commands in each server, and the Entry Point command an app
gets when Activities are enabled for it (`enable_activities`).

As Discord does it: a bulk overwrite keeps the id of each command it names again (by id, or by
name and type) and deletes those it leaves out; a global overwrite that leaves out the app's
Entry Point command is refused whole (400, 50240), and a server's commands cannot hold one; the
global commands are read with their localization dictionaries only when asked
(``with_localizations``), else with the English name and description only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from devkit.localdiscord.model import snowflake
from devkit.localdiscord.rest import _error, _json

CHAT_INPUT, PRIMARY_ENTRY_POINT = 1, 4  # command types
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2  # who answers an Entry Point command
ENTRY_POINT_LEFT_OUT = (
    400,
    50240,
    "You cannot remove this app's Entry Point command in a bulk update operation",
)
INVALID_FORM = (400, 50035, "Invalid Form Body")
LOCALIZED = ("name_localizations", "description_localizations")


class Commands:
    """The commands half of ``FakeDiscord``."""

    application_id: int
    # The chat-input commands by name, global and the servers' alike: what the players run.
    commands: dict[str, dict[str, Any]]
    global_commands: dict[int, dict[str, Any]]  # id -> the command as Discord stores it
    guild_commands: dict[int, dict[int, dict[str, Any]]]  # server -> id -> command
    synced: asyncio.Event  # the bot put its commands

    def command_routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("GET", "/applications/{app}/commands", self._get_global_commands),
            ("PUT", "/applications/{app}/commands", self._put_global_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_guild_commands),
        ]

    @property
    def entry_point(self) -> dict[str, Any] | None:
        """The app's Entry Point command, if it has one."""
        return next(
            (c for c in self.global_commands.values() if c["type"] == PRIMARY_ENTRY_POINT), None
        )

    def enable_activities(
        self, *, handler: int = DISCORD_LAUNCH_ACTIVITY, **fields: Any
    ) -> dict[str, Any]:
        """Give the app its Entry Point command, as enabling Activities in the Developer Portal
        does: "launch", which Discord answers itself (`handler`), unless `fields` say otherwise."""
        assert self.entry_point is None, "an app has one Entry Point command"
        command = self._stored(
            {
                "type": PRIMARY_ENTRY_POINT,
                "name": "launch",
                "description": "Launch an Activity",
                "handler": handler,
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
                **fields,
            },
            None,
        )
        self.global_commands[int(command["id"])] = command
        return command

    def _stored(self, command: dict[str, Any], kept: dict[str, Any] | None) -> dict[str, Any]:
        """A command as Discord stores it; overwriting `kept`, it keeps its id, and its version
        too if nothing else changed."""
        stored = dict(command, application_id=str(self.application_id))
        stored.setdefault("type", CHAT_INPUT)
        stored.setdefault("default_member_permissions", None)
        stored.setdefault("description", "")
        stored.setdefault("nsfw", False)
        stored["id"] = kept["id"] if kept is not None else str(snowflake())
        stored["version"] = kept["version"] if kept is not None else str(snowflake())
        if stored != kept:
            stored["version"] = str(snowflake())
        return stored

    def _overwritten(
        self, existing: dict[int, dict[str, Any]], sent: list[dict[str, Any]]
    ) -> dict[int, dict[str, Any]]:
        """The commands after a bulk overwrite: each one sent keeps the id of the one it names
        (by id, or by name and type), the others are new; those not sent are gone."""
        by_name = {(c["name"], c["type"]): c for c in existing.values()}
        after: dict[int, dict[str, Any]] = {}
        for command in sent:
            kind = command.get("type", CHAT_INPUT)
            kept = existing.get(int(command.get("id") or 0)) or by_name.get((command["name"], kind))
            stored = self._stored({k: v for k, v in command.items() if k != "id"}, kept)
            after[int(stored["id"])] = stored
        return after

    async def _get_global_commands(self, request: web.Request) -> web.Response:
        localized = request.query.get("with_localizations", "").lower() in ("true", "1")
        answer = []
        for command in self.global_commands.values():
            if not localized:
                command = {k: v for k, v in command.items() if k not in LOCALIZED}
            answer.append(command)
        return _json(answer)

    async def _put_global_commands(self, request: web.Request) -> web.Response:
        sent: list[dict[str, Any]] = await request.json()
        if sum(c.get("type") == PRIMARY_ENTRY_POINT for c in sent) > 1:
            return _error(*INVALID_FORM)  # one Entry Point command an app
        after = self._overwritten(self.global_commands, sent)
        entry_point = self.entry_point
        if entry_point is not None and int(entry_point["id"]) not in after:
            return _error(*ENTRY_POINT_LEFT_OUT)  # refused whole: nothing changes
        self.global_commands = after
        return self._synced(list(after.values()))

    async def _put_guild_commands(self, request: web.Request) -> web.Response:
        sent: list[dict[str, Any]] = await request.json()
        if any(c.get("type") == PRIMARY_ENTRY_POINT for c in sent):
            return _error(*INVALID_FORM)  # an Entry Point command is global only
        guild = int(request.match_info["guild"])
        after = self._overwritten(self.guild_commands.get(guild, {}), sent)
        self.guild_commands[guild] = after
        return self._synced(list(after.values()))

    def _synced(self, commands: list[dict[str, Any]]) -> web.Response:
        for command in commands:
            if command["type"] == CHAT_INPUT:
                self.commands[command["name"]] = command
        self.synced.set()
        return _json(commands)
