"""The command tree: refuses a garbled command before discord.py parses its options, is the
one error handler of every slash command, answers the app's Entry Point command, and keeps that
command through the global sync (``entry_point``).

discord.py turns the options of a slash command into Python values before any command code
runs, and a malformed option (a user id that is not a number, an option without a type) makes
it raise outside every error handler: the user would see "This interaction failed". Discord
never sends such options, but a modified client can, so they are checked first.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.abc import Snowflake

from bot.discord_ui import entry_point, replies
from bot.i18n import N_, Text

log = logging.getLogger(__name__)

GARBLED = N_("That command arrived garbled, so I did nothing. Please run it again.")
SNOWFLAKE_TYPES = frozenset({6, 7, 8, 9})  # user, channel, role, mentionable
KINDS = {
    3: N_("text"),
    4: N_("a number"),
    5: N_("a yes/no"),
    6: N_("a user"),
    7: N_("a channel"),
    8: N_("a role"),
}
# Outside the sentence they go into: pybabel extract does not find a call inside a marked call.
OTHER_KIND = N_("something else")
SOME_ID = N_("an id")
NESTING_TYPES = frozenset({1, 2})  # subcommand, subcommand group
INVALID_FORM = 50035  # Discord's code for a payload it refuses (a sync's: a command's own fault)


def well_formed(options: Any) -> bool:
    """True when every option has a name and a type, and every id option holds an id."""
    if options is None:
        return True
    if not isinstance(options, list):
        return False
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            return False
        kind = option.get("type")
        if not isinstance(kind, int) or isinstance(kind, bool):
            return False
        if kind in NESTING_TYPES and not well_formed(option.get("options")):
            return False
        if kind in SNOWFLAKE_TYPES and not str(option.get("value", "")).isdigit():
            return False
    return True


class CheckedTree(app_commands.CommandTree[Any]):
    """A command tree that answers a malformed or failed command, and the app's Entry Point
    command, instead of failing in silence; its global sync keeps that command."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        """Log the cause (one line if Discord failed or could not be reached: no bug) and
        apologize privately, whether or not the command had answered."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = getattr(interaction.command, "name", "?")
        if replies.discords_trouble(cause):
            log.warning(
                "/%s: Discord failed or could not be reached: %s", name, replies.describe(cause)
            )
        else:
            log.error("/%s failed", name, exc_info=cause)
        await replies.apologize(interaction)

    async def sync(self, *, guild: Snowflake | None = None) -> list[app_commands.AppCommand]:
        """Sync as discord.py does; globally, with the app's Entry Point command sent back as it
        is, so that Discord keeps it (``entry_point``)."""
        application_id = self.client.application_id
        if guild is not None or application_id is None:
            return await super().sync(guild=guild)
        kept = await entry_point.kept(self._http, application_id)
        commands = self._get_all_commands(guild=None)
        translator = self.translator
        payload = [
            await c.get_translated_payload(self, translator) if translator else c.to_dict(self)
            for c in commands
        ]
        try:
            data = await self._http.bulk_upsert_global_commands(
                application_id, payload=payload + kept
            )
        except discord.HTTPException as error:
            if error.status == 400 and error.code == INVALID_FORM:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]

    async def on_entry_point(self, interaction: discord.Interaction[Any], /) -> None:
        """Answer the app's Entry Point command: privately, that there is no Activity yet."""
        await replies.tell_safely(interaction, entry_point.NO_ACTIVITY)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        data: Any = interaction.data or {}
        if interaction.type is not discord.InteractionType.application_command:
            return True
        if entry_point.is_entry_point(interaction):  # discord.py's tree knows no type 4
            await self.on_entry_point(interaction)
            return False
        refusal = GARBLED if not well_formed(data.get("options")) else self._mistyped(data)
        if refusal is None:
            return True
        log.warning("garbled /%s from user %s refused", data.get("name"), interaction.user.id)
        await replies.tell(interaction, refusal)
        return False

    def _mistyped(self, data: Any) -> Text | None:
        """Why the command cannot be run as sent, if it cannot: a (sub)command this bot does not
        have, or an id option (a user, say) holding a value of another type, which the command
        would get as a bare string where it needs an object."""
        try:
            command, options = self._get_app_command_options(data)
        except app_commands.CommandNotFound as error:
            return _unknown(error)
        except app_commands.AppCommandError:
            return None  # on_error answers it
        for option in options:
            parameter = command.get_parameter(option["name"])
            expected = parameter.type.value if parameter is not None else None
            if expected in SNOWFLAKE_TYPES and option["type"] != expected:
                return N_(
                    "The option {name} arrived as {got} where {wanted} was expected, "
                    "so I did nothing.",
                    name=Text(option["name"]),  # in the reader's language, as Discord shows it
                    got=KINDS.get(option["type"], OTHER_KIND),
                    wanted=KINDS.get(expected, SOME_ID),
                )
        return None


def _unknown(error: app_commands.CommandNotFound) -> Text:
    """The answer to a command (or subcommand) this bot does not have."""
    if error.parents:
        return N_(
            "/{parent} has no subcommand {name}: run /{parent} and pick its options.",
            parent=Text(" ".join(error.parents)),  # the command's name in the reader's language
            name=error.name,
        )
    return N_("I have no command /{name}; type / to see the commands I have.", name=error.name)
