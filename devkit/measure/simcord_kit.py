"""The load benchmark's SimCord side: emitting actions, timing the answers, keeping SimCord light.

The instruments that do not depend on SimCord are in `devkit.measure.instruments` and are
re-exported here. SimCord virtualizes ``time.monotonic`` (inside the bot), the loop's timers and
``discord.utils.utcnow``; nothing here trusts them. Latencies use ``time.perf_counter`` (never
patched), the loop-lag ticker schedules on the loop's own clock read outside the bot's scope (which
is the real monotonic clock), and CPU comes from ``time.process_time`` and, for the engine's worker
processes, ``/proc/<pid>/stat``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from typing import Any, ClassVar

from simcord import Env, MemberActor
from simcord import actors as _actors
from simcord import interactions as _interactions
from simcord._dpy_internals import real_monotonic
from simcord.backend import serializers
from simcord.enums import AppCommandType, ComponentType, InteractionType
from simcord.http import router as _router

from devkit.measure import instruments
from devkit.measure.boards import Board, read_board  # noqa: F401  (re-exported for the benchmark's modes)
from devkit.measure.instruments import (  # noqa: F401  (re-exported for the benchmark's modes)
    EPHEMERAL,
    GcWatch,
    Sampler,
    StoreWatch,
    Timing,
    chunks,
    engine_pids,
    now,
    percentile,
    process_cpu,
    retire_engine,
    summary_ms,
)
from devkit.measure.memory import (  # noqa: F401  (re-exported for the benchmark's modes)
    owned_bytes,
    reachable_bytes,
    rss_bytes,
    start_tracing,
)


class LagProbe(instruments.LagProbe):
    """The loop-lag ticker on SimCord's saved real monotonic clock."""

    clock = staticmethod(real_monotonic)


# ------------------------------------------------------------------------- interactions


class Responses:
    """Timestamps every interaction SimCord emits and every answer the bot sends to it.

    Emission is observed just before the INTERACTION_CREATE goes to discord.py; answers are
    timed as they reach SimCord's route handlers (POST .../callback, PATCH .../@original, POST
    /webhooks/{id}/{token} for followups, PATCH /channels/{id}/messages/{id}) and recorded once
    the route accepted them. Listeners (per channel) are woken on any answer.
    """

    ROUTES: ClassVar[dict[tuple[str, str], str]] = {
        ("POST", "interactions/{interaction_id}/{token}/callback"): "ack",
        ("PATCH", "webhooks/{webhook_id}/{token}/messages/@original"): "edit",
        ("POST", "webhooks/{webhook_id}/{token}"): "followup",
        ("PATCH", "channels/{channel_id}/messages/{message_id}"): "channel_edit",
    }

    def __init__(self, env: Env) -> None:
        self.env = env
        self.timings: dict[int, Timing] = {}
        self.pending_kind: str = "?"
        self.listeners: dict[int, asyncio.Event] = {}
        self._by_token: dict[str, int] = {}
        self._patched: list[tuple[list[Any], int, tuple[Any, Any]]] = []
        self._unregister = env._register_dispatch_observer(self._emitted)
        for (method, template), what in self.ROUTES.items():
            entries = _router._ROUTES.get(method, [])
            for index, (segments, handler) in enumerate(entries):
                if "/".join(segments) == template:
                    self._patched.append((entries, index, (segments, handler)))
                    entries[index] = (segments, self._wrap(handler, what))

    def close(self) -> None:
        """Put SimCord's routes back."""
        self._unregister()
        for entries, index, original in reversed(self._patched):
            entries[index] = original
        self._patched.clear()

    def _emitted(self, record: Any) -> None:
        self.timings[record.id] = Timing(self.pending_kind, record.channel_id, now())
        self._by_token[record.token] = record.id

    def _wrap(self, handler: Any, what: str) -> Any:
        def timed(ctx: Any) -> Any:
            at = now()  # the bot's request has reached "Discord"
            result = handler(ctx)  # SimCord's own work for it is not the bot's latency
            timing = None
            if what == "channel_edit":
                channel_id = ctx.int_arg("channel_id")
            else:
                iid = self._by_token.get(ctx.args.get("token", ""))
                timing = self.timings.get(iid) if iid is not None else None
                channel_id = timing.channel_id if timing is not None else 0
            if timing is not None:
                if what == "ack":
                    body = ctx.body()
                    timing.acked = at
                    timing.ack_type = body.get("type")
                    flags = int((body.get("data") or {}).get("flags") or 0)
                    timing.ephemeral = bool(flags & EPHEMERAL)
                elif what == "edit":
                    timing.edits.append(at)
                else:
                    timing.followups.append(at)
            event = self.listeners.get(channel_id)
            if event is not None:
                event.set()
            return result

        return timed


# ----------------------------------------------------------------------- emitting actions


def message_of(env: Env, channel_id: int, message_id: int) -> Any:
    """SimCord's stored message (the world's truth, not the bot's cache)."""
    return env.backend.get_message(channel_id, message_id)


def emit_click(env: Env, actor: MemberActor, stored: Any, custom_id: str) -> int:
    """Emit one button click exactly as ``MemberActor.click`` builds it, without settling."""
    backend = env.backend
    button = _actors._find_component(
        stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=None
    )
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    if button.get("id") is not None:
        data["id"] = button["id"]
    record, payload = _interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return record.id


def emit_slash(env: Env, actor: MemberActor, channel: Any, name: str, **options: Any) -> int:
    """Emit one slash command exactly as ``MemberActor.slash`` builds it, without settling."""
    root = _actors._resolve_visible_command(actor, channel.id, name, AppCommandType.CHAT_INPUT)
    leaf_options, resolved = _interactions.build_options(
        actor, name, root, options, channel_id=channel.id
    )
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": leaf_options,
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = _interactions.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    env._notify_dispatch_observers(record)
    env.backend.emit("INTERACTION_CREATE", payload)
    return record.id


def lighten_simcord() -> None:
    """Make SimCord compare its callback records by identity, as it means to.

    SimCord keeps one record per pending bot callback or timer (500 live games mean 500
    sleeping deadline timers) and removes a record from that list each time a callback runs;
    the dataclass's generated ``__eq__`` compares every field of every record ahead of it. That
    simulation cost grows with the number of games and is not the bot's, so it is removed.
    """
    from simcord._runtime import _CallbackRecord

    _CallbackRecord.__eq__ = object.__eq__  # type: ignore[assignment,method-assign]
    _CallbackRecord.__hash__ = object.__hash__  # type: ignore[assignment,method-assign]


async def settle(env: Env, timeout: float) -> None:
    """Wait until the bot has nothing runnable left (its engine work included)."""
    env._begin_operation("load.settle")
    try:
        await env._settle_internal(timeout=timeout)
    finally:
        env._end_operation()


def forget_transcript(env: Env) -> None:
    """Drop SimCord's request log and transcript, which grow with every call."""
    env.backend.http_requests.clear()
    env.backend.transcript.clear()


class Janitor:
    """Empties SimCord's request log and transcript every `every` seconds during a run.

    Both keep every payload (a 5x5 board message is a few hundred objects), so over a run of
    500 games they grow to millions of objects, and each full garbage collection, which walks
    them all, then stalls the loop for seconds: the simulation's cost, not the bot's. Runs in
    an empty context so SimCord does not count it as the bot's work.
    """

    def __init__(self, env: Env, every: float = 0.2) -> None:
        self.env = env
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), context=contextvars.Context())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            forget_transcript(self.env)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        forget_transcript(self.env)
