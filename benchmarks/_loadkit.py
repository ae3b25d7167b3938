"""Measuring instruments for the load benchmark: real clocks, loop lag, response times, memory.

SimCord virtualizes ``time.monotonic`` (inside the bot), the loop's timers and
``discord.utils.utcnow``; nothing here trusts them. Latencies use ``time.perf_counter`` (never
patched), the loop-lag ticker schedules on the loop's own clock read outside the bot's scope
(which is the real monotonic clock), and CPU comes from ``time.process_time`` and, for the engine's
worker processes, ``/proc/<pid>/stat``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import multiprocessing
import os
import re
import sys
import threading
import time
import tracemalloc
import types
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import discord
from simcord import Env, MemberActor
from simcord import actors as _actors
from simcord import interactions as _interactions
from simcord._dpy_internals import real_monotonic
from simcord.backend import serializers
from simcord.components import walk_components
from simcord.enums import AppCommandType, ComponentType, InteractionType
from simcord.http import router as _router

now = time.perf_counter  # SimCord leaves it alone; checked by the smoke test
CELL = re.compile(r"ttt:(\d+):(\d+)$")
CONTROL = re.compile(r"ttt:(\d+):([a-z]+)$")
EPHEMERAL = 1 << 6


# ----------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(values: Sequence[float]) -> dict[str, float]:
    """p50, p99 and max of durations in seconds, as milliseconds."""
    return {
        "p50": percentile(values, 50) * 1e3,
        "p99": percentile(values, 99) * 1e3,
        "max": (max(values) if values else float("nan")) * 1e3,
        "n": len(values),
    }


# ------------------------------------------------------------------------------ loop lag


class LagProbe:
    """A ticker on the event loop: how late each 10 ms timer runs, in real time.

    It schedules with an empty context, so SimCord neither tracks it as bot work (settling never
    waits for it) nor virtualizes its timers; ``loop.time()`` outside the bot's scope is the real
    monotonic clock, and the lag is read with that same clock.
    """

    def __init__(self, interval: float = 0.010) -> None:
        self.interval = interval
        self.samples: list[tuple[float, float]] = []  # (perf_counter at run, lag in s)
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start ticking on the running loop."""
        self._loop = asyncio.get_running_loop()
        self._arm(real_monotonic() + self.interval)

    def _arm(self, due: float) -> None:
        assert self._loop is not None
        self._handle = self._loop.call_at(due, self._tick, due, context=contextvars.Context())

    def _tick(self, due: float) -> None:
        ran = real_monotonic()
        self.samples.append((now(), max(0.0, ran - due)))
        self._arm(max(due + self.interval, ran + self.interval / 2))

    def stop(self) -> None:
        """Stop ticking."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def lags(self, start: float = float("-inf"), end: float = float("inf")) -> list[float]:
        """Lags of the ticks that ran between two perf_counter readings."""
        return [lag for at, lag in self.samples if start <= at <= end]


class GcWatch:
    """Times the garbage collector's pauses (a cause of loop lag that is nobody's code)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = now()
        else:
            self.pauses.append(now() - self._started)

    def start(self) -> None:
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)


class StoreWatch:
    """Times the bot's game saves: on the storage thread (the SQLite work of one transaction,
    fsync included, for all the saves written together) and as the event loop awaits them
    (queueing behind the transaction being written included).

    Wraps the store instance's own methods for one run; the bot's code is unchanged.
    """

    def __init__(self, store: Any) -> None:
        self.store = store
        self.service: list[float] = []
        self.awaited: list[float] = []

    def start(self) -> None:
        store, service, awaited = self.store, self.service, self.awaited
        work, save = store._save_games, store.save_game

        def timed_work(games: Any) -> None:
            started = now()
            try:
                work(games)
            finally:
                service.append(now() - started)

        async def timed_save(game: Any) -> None:
            started = now()
            try:
                await save(game)
            finally:
                awaited.append(now() - started)

        store._save_games, store.save_game = timed_work, timed_save

    def stop(self) -> None:
        for name in ("_save_games", "save_game"):
            self.store.__dict__.pop(name, None)


# ------------------------------------------------------------------ where the CPU goes


class Sampler:
    """Samples the event loop thread's stack every few ms: whose code is it running?

    A sample belongs to the innermost frame in bot/, engine/, discord/, simcord/ or benchmarks/
    (the simulated players, "driver"); "loop" is asyncio and the rest of the standard library,
    "idle" is waiting in the selector. It separates SimCord's simulation cost from the bot's and
    discord.py's.
    """

    def __init__(self, interval: float = 0.004) -> None:
        self.interval = interval
        self.counts: dict[str, int] = {}
        # (owner, innermost function in the owner's code, innermost function overall)
        self.places: dict[tuple[str, str, str], int] = {}
        self._target = threading.get_ident()
        self._switch = sys.getswitchinterval()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="load-sampler", daemon=True)

    def start(self) -> None:
        """Start sampling the calling thread.

        The sampler needs the GIL to look; with the default 5 ms switch interval it would get it
        mostly when the loop thread gives it up in a system call (os.urandom, a socket read),
        and those places would swamp the counts. A short interval lets it in at any bytecode.
        """
        self._target = threading.get_ident()
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(0.0002)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            frame = sys._current_frames().get(self._target)
            if frame is None:
                continue
            code = frame.f_code
            if code.co_name in ("select", "poll") and "selectors" in code.co_filename:
                self.counts["idle"] = self.counts.get("idle", 0) + 1
                continue
            innermost, owner, place = _place(code), "loop", ""
            while frame is not None:
                found = _root_of(frame.f_code.co_filename)
                if found is not None:
                    owner, place = found, _place(frame.f_code)
                    break
                frame = frame.f_back
            self.counts[owner] = self.counts.get(owner, 0) + 1
            key = (owner, place, innermost)
            self.places[key] = self.places.get(key, 0) + 1

    def hot(self, top: int = 25) -> list[tuple[float, str, str, str]]:
        """The most sampled places: (share of busy samples, owner, its function, innermost)."""
        total = sum(self.places.values()) or 1
        ranked = sorted(self.places.items(), key=lambda item: -item[1])[:top]
        return [(count / total, *key) for key, count in ranked]

    def shares(self) -> dict[str, float]:
        """Fraction of the busy (non-idle) samples per owner."""
        busy = {k: v for k, v in self.counts.items() if k != "idle"}
        total = sum(busy.values()) or 1
        return {k: v / total for k, v in sorted(busy.items())}


# ------------------------------------------------------------------------- interactions


@dataclass
class Timing:
    """One interaction, from emission to the bot's answers, in perf_counter seconds."""

    kind: str
    channel_id: int
    emitted: float
    acked: float | None = None
    ack_type: int | None = None
    ephemeral: bool = False
    edits: list[float] = field(default_factory=list)  # edits of the original response
    followups: list[float] = field(default_factory=list)

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked is None else self.acked - self.emitted


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


# ---------------------------------------------------------------------------- board state


@dataclass
class Board:
    """What a board message shows, read from its components."""

    game_id: int | None
    cells: int  # cell buttons on the message
    taken: int  # cells holding a mark
    free: list[int]  # clickable cells
    controls: set[str]

    @property
    def challenge(self) -> bool:
        return "accept" in self.controls

    @property
    def over(self) -> bool:
        return self.cells > 0 and not self.free and "resign" not in self.controls


def read_board(components: Iterable[Any]) -> Board:
    """Parse a stored message's components, walking Components V2 layouts."""
    game_id = None
    cells = taken = 0
    free: list[int] = []
    controls: set[str] = set()
    for component in walk_components(list(components)):
        if component.get("type") != ComponentType.BUTTON:
            continue
        custom_id = component.get("custom_id") or ""
        if match := CELL.match(custom_id):
            game_id = int(match[1])
            cells += 1
            if component.get("emoji"):
                taken += 1
            elif not component.get("disabled"):
                free.append(int(match[2]))
        elif match := CONTROL.match(custom_id):
            game_id = int(match[1])
            if not component.get("disabled"):
                controls.add(match[2])
    return Board(game_id, cells, taken, free, controls)


# --------------------------------------------------------------------------------- memory


ROOTS = {
    "driver": str(Path(__file__).resolve().parent),  # this benchmark's own players
    "bot": str(Path(__file__).resolve().parents[1] / "bot"),
    "engine": str(Path(__file__).resolve().parents[1] / "engine"),
    "discord": os.path.dirname(discord.__file__),
    "simcord": os.path.dirname(os.path.dirname(_router.__file__)),
}


def _place(code: Any) -> str:
    """A function as ``file:line name``, the file relative to its package's folder."""
    return f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"


def _root_of(filename: str) -> str | None:
    for name, root in ROOTS.items():
        if filename.startswith(root):
            return name
    return None


def _owner(traceback: tracemalloc.Traceback) -> str:
    """Whose memory a block is: the innermost frame in bot/, engine/, discord/ or simcord/.

    Frames elsewhere (the standard library, dataclass-generated code) are skipped, so a
    dataclass copied by bot code counts as the bot's, and a payload dict SimCord builds counts
    as SimCord's even when discord.py later keeps a reference to it.
    """
    for frame in traceback:  # innermost first
        for name, root in ROOTS.items():
            if frame.filename.startswith(root):
                return name
    return "other"


def start_tracing(frames: int = 12) -> None:
    """Trace allocations with enough stack to find their owner."""
    gc.collect()
    tracemalloc.start(frames)


def owned_bytes() -> dict[str, int]:
    """Live traced bytes per owner (see `_owner`), after a full collection."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    totals: dict[str, int] = {}
    for stat in snapshot.statistics("traceback"):
        owner = _owner(stat.traceback)
        totals[owner] = totals.get(owner, 0) + stat.size
    return totals


def _foreign(obj: Any) -> bool:
    """Not the bot's state: code and types, the event loop, SimCord's objects (its world)."""
    if isinstance(
        obj,
        type
        | types.ModuleType
        | types.FunctionType
        | types.BuiltinFunctionType
        | types.CodeType
        | asyncio.AbstractEventLoop
        | threading.Thread,
    ):
        return True
    return type(obj).__module__.split(".", 1)[0] in ("simcord", "benchmarks")


def reachable_bytes(root: Any) -> tuple[int, int]:
    """(bytes, objects) reachable from `root` without passing through `_foreign` objects.

    A second view of the bot's memory, by what it holds rather than who allocated it: the
    walk starts at the bot and stops at SimCord's objects (its HTTP client and gateway lead to
    the simulated world), the event loop (it leads to every task, the players' included) and
    code. Sizes are ``sys.getsizeof`` of each object once (allocator slack not included).
    """
    gc.collect()
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or _foreign(obj):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total, len(seen)


def rss_bytes() -> int:
    """Resident set size of this process."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# ------------------------------------------------------------------------------------ cpu


def process_cpu(pids: Iterable[int]) -> float:
    """User + system CPU seconds of other processes (the engine's workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def engine_pids(bot: Any) -> list[int]:
    """Pids of the bot's engine worker processes, if it runs a process pool."""
    pool = getattr(getattr(bot, "engine", None), "_processes", None)
    return list(getattr(pool, "_processes", None) or {})


def retire_engine(pool: Any) -> None:
    """Join and reap a finished bot's engine workers before the next bot starts its pool.

    A later pool's first ``Process.start()`` polls every earlier child with
    ``multiprocessing.connection.wait(0)``, a loop that ends only when ``time.monotonic()``
    moves; inside the bot's scope SimCord freezes that clock, so a worker left unjoined would
    make the next bot's start-up spin forever. Called outside the bot's scope, where the clock
    is real; harmless when the bot's close() already joined them.
    """
    if pool is not None:
        pool.shutdown(wait=True)
    multiprocessing.active_children()  # reaps every child that has exited


def chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    """Consecutive slices of at most `size` items."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
