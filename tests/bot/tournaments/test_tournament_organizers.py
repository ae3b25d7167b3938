"""Who may create a tournament, driven through SimCord: members with Manage Server, and members
with the role a server names with ``/tictactoe-settings set tournament_role``; anyone else is
refused privately, told who may (naming the role once one is set)."""

from __future__ import annotations

from typing import Any

from simcord import Env

from tests.bot.test_server_settings import server_with_admin

COMMAND = "tictactoe-tournament create"


def said(result: Any) -> str:
    """Every word of an interaction's private answer: its response and follow-ups."""
    parts = [result.response.content or "" if result.response else ""]
    parts += [getattr(f, "content", "") or "" for f in result.followups]
    return "\n".join(parts)


async def test_a_named_role_may_create_tournaments(simcord_env: Env) -> None:
    guild, channel, admin, (dave,) = server_with_admin(simcord_env, "dave")
    organizers = guild.create_role("organizers")
    carol = guild.add_member(simcord_env.create_user("carol"), roles=[organizers])

    refused = await carol.slash(channel, COMMAND, format="swiss")
    assert refused.ephemeral and "Manage Server permission can create" in said(refused)

    done = await admin.slash(channel, "tictactoe-settings set", tournament_role=organizers)
    assert "Role that may create tournaments: <@&" in said(done)

    made = await carol.slash(channel, COMMAND, format="swiss")
    assert made.ephemeral and "Tournament created" in said(made), said(made)
    other = await dave.slash(channel, COMMAND, format="arena")
    assert other.ephemeral and f"<@&{organizers.id}> role" in said(other)
