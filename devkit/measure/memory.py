"""Memory by owner: whose code allocated a block (the bot, the engine, discord.py, SimCord, the
benchmark's players), what the bot holds, the process's resident size; and where a function
lives, for the CPU sampler (devkit.measure.instruments)."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import os
import sys
import threading
import tracemalloc
import types
from pathlib import Path
from typing import Any

import discord


def _package_folder(name: str) -> str:
    """Where a package lives, without importing it ("<absent>" if it is not installed)."""
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec is not None and spec.origin else f"<{name} absent>"


CHECKOUT = Path(__file__).resolve().parents[2]
# Where each owner's files are (a folder, or several).
ROOTS: dict[str, str | tuple[str, ...]] = {
    "driver": (str(CHECKOUT / "benchmarks"), str(CHECKOUT / "devkit")),  # the players
    "bot": str(CHECKOUT / "bot"),
    "engine": str(CHECKOUT / "engine"),
    "discord": os.path.dirname(discord.__file__),
    "simcord": _package_folder("simcord"),
}


def code_place(code: Any) -> str:
    """A function as ``file:line name``, the file relative to its package's folder."""
    return f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"


def root_of(filename: str) -> str | None:
    for name, root in ROOTS.items():
        if filename.startswith(root):
            return name
    return None


def owner_of(traceback: tracemalloc.Traceback) -> str:
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
    """Live traced bytes per owner (see `owner_of`), after a full collection."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    totals: dict[str, int] = {}
    for stat in snapshot.statistics("traceback"):
        owner = owner_of(stat.traceback)
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
    return type(obj).__module__.split(".", 1)[0] in ("simcord", "benchmarks", "devkit")


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
