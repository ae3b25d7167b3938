"""Interactions a normal client would never send: forged button ids and raw command options.

SimCord's actors check what they send (a click needs a button with that custom id on the
message; a slash option must be one of its choices and within its range), which is what a test
usually wants. A modified client, or a stale one, is not held to that: these helpers build the
same INTERACTION_CREATE payloads the actors build, minus the checks, and settle once.
"""

from __future__ import annotations

from typing import Any

from simcord import Env, InteractionResult, MemberActor
from simcord import actors as _actors
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import AppCommandType, ComponentType, InteractionType


async def forged_click(
    env: Env, actor: MemberActor, message: Any, custom_id: str, *, channel: ChannelHandle
) -> InteractionResult:
    """`actor` clicks a button with `custom_id` on `message`, whether or not it has one.

    `channel` is where the interaction comes from (normally the message's own channel; another
    one forges a click on a board from elsewhere).
    """
    env._begin_operation("forged_click")
    try:
        stored = env.backend.get_message(message.channel.id, message.id)
        data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        return await _actors._dispatch_actor_interaction(
            actor,
            InteractionType.MESSAGE_COMPONENT,
            channel,
            data,
            extra={"message": dict(serializers.message_payload(env.backend, stored))},
            source_message_id=stored.id,
        )
    finally:
        env._end_operation()


async def raw_slash(
    env: Env,
    actor: MemberActor,
    channel: ChannelHandle,
    name: str,
    options: list[dict[str, Any]],
    *,
    resolved: dict[str, Any] | None = None,
) -> InteractionResult:
    """Run `/name` with option payloads exactly as given (any value, any type)."""
    env._begin_operation("raw_slash")
    try:
        root = _actors._resolve_visible_command(actor, channel.id, name, AppCommandType.CHAT_INPUT)
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": AppCommandType.CHAT_INPUT,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        return await _actors._dispatch_actor_interaction(
            actor, InteractionType.APPLICATION_COMMAND, channel, data
        )
    finally:
        env._end_operation()


def user_resolved(env: Env, user_id: int, *, guild_id: int | None = None) -> dict[str, Any]:
    """The `resolved` block for a user option: the user, and their member entry if any."""
    backend = env.backend
    out: dict[str, Any] = {
        "users": {str(user_id): dict(serializers.user_payload(backend.get_user(user_id)))}
    }
    if guild_id is not None:
        guild = backend.get_guild(guild_id)
        if user_id in guild.members:
            member = serializers.member_payload(
                backend, guild, guild.members[user_id], with_user=False
            )
            out["members"] = {str(user_id): dict(member)}
    return out
