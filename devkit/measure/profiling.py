"""Where a bot process's CPU goes, by part of the click path (measured inside the bot's process).

The event loop's thread runs under cProfile; each function's own time goes to the part its file
belongs to (`PARTS`). Code that is no part's own (the standard library, asyncio, builtins) counts
for whoever called it, in proportion to the time of each caller's calls, up to the first
caller that has a part; time no part called (the loop itself) is the loop's. Each thread's CPU
time is read from its own clock, so the storage thread (the SQLite writes and commits) and the
engine's thread are figures of their own. cProfile slows Python calls more than C ones, so the
shares are approximate; the CPU figures they split are taken in runs without it.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import threading
import time
from typing import Any

LOOP = "discord.py and the loop"
# (part, path fragments of its files), the first match wins.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("save", ("/bot/storage/",)),
    ("translations", ("/bot/i18n/", "/gettext.py")),
    ("drawing", ("/bot/discord_ui/board.py", "/bot/discord_ui/grid.py", "endings.py")),
    ("rules and registry", ("/bot/games/", "/bot/live/", "/bot/compute/", "/engine/")),
    ("click handling", ("/bot/cogs/",)),
    ("metrics", ("/bot/metrics.py", "/prometheus_client/")),
    ("logging", ("/logging/",)),
    ("other bot code", ("/bot/",)),
    ("the floor's own code", ("/floors/game_bot.py", "/floors/store.py")),
    ("benchmark probes", ("/benchmarks/", "/devkit/")),
    (LOOP, ("/discord/", "/aiohttp/", "/yarl/", "/multidict/", "/selectors.py")),
)
Key = tuple[str, int, str]


def part_of(filename: str) -> str | None:
    """The part a file's code belongs to, or None for code that counts for its caller."""
    for part, fragments in PARTS:
        if any(fragment in filename for fragment in fragments):
            return part
    return None


def parts(stats: pstats.Stats) -> dict[str, float]:
    """Seconds of the profiled thread's time by part."""
    table: dict[Key, Any] = stats.stats  # type: ignore[attr-defined]
    shares: dict[Key, dict[str, float]] = {}

    def share(key: Key, seen: frozenset[Key]) -> dict[str, float]:
        own = part_of(key[0])
        if own is not None:
            return {own: 1.0}
        if key in shares:
            return shares[key]
        callers = {c: t for c, t in table[key][4].items() if c in table and c not in seen}
        total = sum(t[3] for t in callers.values())
        if not callers or total <= 0:
            return {LOOP: 1.0}
        found: dict[str, float] = {}
        for caller, timing in callers.items():
            for part, weight in share(caller, seen | {key}).items():
                found[part] = found.get(part, 0.0) + weight * timing[3] / total
        shares[key] = found
        return found

    seconds: dict[str, float] = {}
    for key, (_cc, _nc, own_time, _ct, _callers) in table.items():
        for part, weight in share(key, frozenset()).items():
            seconds[part] = seconds.get(part, 0.0) + own_time * weight
    return seconds


def thread_clocks() -> dict[str, float]:
    """CPU seconds of each live thread of this process, by name (the loop's is "main")."""
    clocks = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        name = "main" if thread is threading.main_thread() else thread.name.rsplit("_", 1)[0]
        try:
            spent = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except OSError:
            continue
        clocks[name] = clocks.get(name, 0.0) + spent
    return clocks


class Profile:
    """cProfile on the calling thread and every thread's CPU clock, from `start` to `stop`."""

    def __init__(self, *, profiled: bool) -> None:
        self.profiler = cProfile.Profile(time.thread_time) if profiled else None
        self.clocks: dict[str, float] = {}

    def start(self) -> None:
        self.clocks = thread_clocks()
        if self.profiler is not None:
            self.profiler.enable()

    def stop(self) -> dict[str, Any]:
        """Each thread's CPU seconds meanwhile and, when profiled, the loop thread's by part."""
        if self.profiler is not None:
            self.profiler.disable()
        now = thread_clocks()
        threads = {name: spent - self.clocks.get(name, 0.0) for name, spent in now.items()}
        found = parts(pstats.Stats(self.profiler)) if self.profiler is not None else {}
        dump = os.environ.get("PROFILE_DUMP")  # a file for pstats, to look closer
        if dump and self.profiler is not None:
            self.profiler.dump_stats(f"{dump}.{os.getpid()}")
        return {"threads": threads, "parts": found}
