"""Several button clicks (and reactions) that reach the bot at the same instant.

SimCord's actors settle the event loop after each action, and refuse to overlap, which is what
a test usually wants. A race needs the opposite: every INTERACTION_CREATE delivered before the
bot runs any of them, then one settle. This builds each click exactly as `MemberActor.click`
does (same payload, same checks), emits them all, and settles once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcord import Env, InteractionResult, MemberActor
from simcord import actors as _actors
from simcord import interactions as _interactions
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType

Click = tuple[MemberActor, Any, str]  # who, which message, which custom_id
Reaction = tuple[MemberActor, Any, str]  # who, on which message, which emoji


def _emit_click(actor: MemberActor, message: Any, custom_id: str) -> InteractionResult:
    env = actor._env
    backend = env.backend
    stored = _actors._visible_message(actor, message)
    button = _actors._find_component(
        stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=None
    )
    data: dict[str, Any] = {
        "custom_id": button["custom_id"],
        "component_type": ComponentType.BUTTON,
    }
    if button.get("id") is not None:
        data["id"] = button["id"]
    guild = getattr(actor, "guild", None)
    channel = ChannelHandle(env, guild, backend.get_channel(stored.channel_id))
    _actors._check_actor_channel(actor, channel)
    record, payload = _interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=channel.id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


async def click_together(
    env: Env,
    clicks: Sequence[Click],
    *,
    reactions: Sequence[Reaction] = (),
    timeout: float | None = None,
) -> list[InteractionResult]:
    """Deliver every click and reaction before the bot handles any, then wait for the bot to
    finish. A reaction is added as `MemberActor.react` adds it (MESSAGE_REACTION_ADD)."""
    env._begin_operation("click_together")
    try:
        results = [_emit_click(actor, message, custom_id) for actor, message, custom_id in clicks]
        for actor, message, emoji in reactions:
            stored = _actors._visible_message(actor, message)
            env.backend.set_reaction(stored.channel_id, stored.id, emoji, actor.id, True)
        await env._settle_internal(timeout=timeout, dispatch="INTERACTION_CREATE")
        return results
    finally:
        env._end_operation()
