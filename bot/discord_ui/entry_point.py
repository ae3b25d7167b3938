"""The app's Entry Point command: the command Discord gives an app once Activities are enabled
for it (type 4, PRIMARY_ENTRY_POINT), which opens the app's Activity from the App Launcher.

Discord refuses, whole, a bulk overwrite of the global commands that leaves it out (400, 50240),
and discord.py's ``tree.sync()`` sends the tree's own commands only: so the global sync reads
the app's commands first and sends its Entry Point command back as Discord holds it (`kept`):
the same command, its id included, through every start. An app without Activities has none, and
its sync is what it always was.

discord.py 2.7.1 knows no command type 4: an Entry Point interaction that got past the tree's
check would raise ``ValueError: 4 is not a valid AppCommandType`` (as it does when the command
is named like a slash command of the bot's). The tree's check hands it to its ``on_entry_point``
instead (`is_entry_point`), which answers privately (`NO_ACTIVITY`) until the bot has an
Activity. An Entry Point command whose handler is Discord's (DISCORD_LAUNCH_ACTIVITY, the
default) never reaches the bot: Discord launches the Activity itself.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import HTTPClient, Route

from bot.i18n import N_

PRIMARY_ENTRY_POINT = 4  # the command type of an Entry Point command
# What a bulk overwrite takes of a command (Discord's fields to create one, and its id); the
# rest of what Discord answers (its version, application id) is Discord's own.
FIELDS = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "default_member_permissions",
    "nsfw",
    "integration_types",
    "contexts",
    "handler",
)
NO_ACTIVITY = N_(
    "There is no Activity to open here yet: play with /tictactoe, and its board opens in the chat."
)


async def kept(http: HTTPClient, application_id: int) -> list[dict[str, Any]]:
    """The app's Entry Point command as a bulk overwrite of its global commands must send it
    back, with every localization (none: the app has no Activity)."""
    route = Route("GET", "/applications/{application_id}/commands", application_id=application_id)
    commands: list[dict[str, Any]] = await http.request(
        route, params={"with_localizations": "true"}
    )
    return [
        {field: command[field] for field in FIELDS if field in command}
        for command in commands
        if command.get("type") == PRIMARY_ENTRY_POINT
    ]


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is the app's Entry Point command, run from the App Launcher."""
    if interaction.type is not discord.InteractionType.application_command:
        return False
    data: Any = interaction.data or {}
    return isinstance(data, dict) and data.get("type") == PRIMARY_ENTRY_POINT
