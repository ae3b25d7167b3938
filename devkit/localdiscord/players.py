"""What the people of the local Discord do: run a slash command, click a button, choose in a
select menu, run the app's Entry Point command, each one INTERACTION_CREATE on the gateway, as
Discord sends it for the place it happens in (a server with the bot, one without it, the bot's
DM, a DM or group DM between people) and for whoever authorised the command there.
"""

from __future__ import annotations

from typing import Any

from devkit.localdiscord.commands import APP_HANDLER
from devkit.localdiscord.model import (
    ALL_PERMISSIONS,
    BOT_DM,
    BUTTON,
    GUILD,
    MANAGE_GUILD,
    PRIVATE_CHANNEL,
    STRING_SELECT,
    USE_EXTERNAL_APPS,
    Channel,
    Guild,
    Interaction,
    Launch,
    Timing,
    User,
    member_payload,
    now,
    snowflake,
)


class Players:
    """The players' half of ``FakeDiscord`` (which holds the world and the gateway)."""

    bot_user: User
    application_id: int
    guilds: dict[int, Guild]
    messages: dict[int, dict[str, Any]]
    interactions: dict[int, Interaction]
    timings: dict[int, Timing]
    commands: dict[str, dict[str, Any]]
    launches: list[Launch]
    owners_of: dict[int, dict[str, str]]
    entry_point: dict[str, Any] | None  # ``commands.Commands``': the app's, if it has one

    def clock(self) -> float: ...
    def shard_of(self, guild_id: int) -> int: ...
    async def _dispatch(self, shard: int, name: str, data: Any, stamp: Any = None) -> None: ...

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
        locale: str = "en-US",
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
            "locale": locale,
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
            user_id=user.id,
        )
        self.timings[iid] = timing
        shard = 0 if guild is None else self.shard_of(guild.id)

        def stamp() -> None:
            timing.emitted = now()

        await self._dispatch(shard, "INTERACTION_CREATE", payload, stamp)
        return iid

    async def slash(self, user: User, channel: Channel, name: str, **options: Any) -> int:
        """A slash command with options given as Python values (a `User` for a user option, a
        `Channel` for a channel option);
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
            elif isinstance(value, Channel):  # a channel option: resolved as Discord sends it
                sent.append({"name": key, "type": kinds[key], "value": str(value.id)})
                payload = dict(value.payload(), permissions=str(ALL_PERMISSIONS))
                resolved.setdefault("channels", {})[str(value.id)] = payload
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

    async def launch(self, user: User, channel: Channel, *, locale: str = "en-US") -> int | None:
        """Run the app's Entry Point command (from the App Launcher, Discord set to `locale`): an
        interaction the bot answers (its id) if the command's handler is the app's, else Discord
        launches the Activity itself and the bot hears nothing (None)."""
        command = self.entry_point
        assert command is not None, "the app has no Entry Point command: enable_activities()"
        if command.get("handler") != APP_HANDLER:
            self.launches.append(Launch(f"i-{snowflake()}", channel.id, user.id, None))
            return None
        data = {"id": command["id"], "name": command["name"], "type": command["type"]}
        return await self.emit("entry point", user, channel, 2, data, locale=locale)
