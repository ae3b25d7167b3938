"""The bot in a process of its own, against the load benchmark's Discord on 127.0.0.1.

    python devkit/wire/bot_process.py PORT FOLDER [-v] [--database-url URL] [--shards COUNT:IDS]
                                   [--gc A,B,C] [--without-speed] [--without PART[,PART]]
                                   [--profile] [--metrics] [--log-times] [--pictures]
                                   [--warm-pictures GAMES --size N]
                                   [--sync normal|full]

FOLDER receives the SQLite file (or the log only, with ``--database-url``: PostgreSQL), its
durability ``--sync``'s (``DATABASE_SYNC``; the bot's default without it); -v logs
at DEBUG level; ``--shards 2:1`` runs shard 1 of 2 (an AutoShardedBot); ``--gc 700,10,10`` sets
the collector's thresholds the bot sets once ready, in place of its own; ``--without-speed``
hides discord.py's speed packages (orjson, zstandard, Brotli, aiodns) from this process, as if
they were not installed; ``--without`` takes parts of the bot's per-click savings away, to
measure what each gives (`savings.WITHOUT`); ``--profile`` runs the event loop's thread under
cProfile between ``begin`` and ``end`` and reports its time by part of the click path
(`measure.profiling`);
``--pictures`` draws every board as a picture (as if each server had set ``board_style``
picture), and the run's figures then say what the picture cache holds at its end, once the
drawing thread has drawn every picture asked for (its CPU counted in the run's);
``--warm-pictures GAMES`` draws the positions of that many random games of ``--size`` before
the run (a bot that has been running keeps its pictures' strips);
``--metrics`` keeps the Prometheus metrics (on a free port), as ``METRICS_PORT`` does;
``--log-times`` starts each log line with its time (seconds since the epoch), so a reader can
tell which lines came during a fault it injected.

The real bot (``create_bot``,
discord.py's HTTP client and gateway) with two things changed: discord.py's API base and
gateway address point at the local server. Nothing of SimCord or the players is in this
process. The benchmark drives it with one-line commands on stdin and reads one JSON line per
command on stdout:

- ``begin``: start the loop-lag probe, the GC watch and the save timings, note the CPU clocks;
  ``begin-cpu``: the same without the loop-lag probe, for a run that reports no loop lag (the
  probe's 10 ms ticker costs an idle process 8 to 15 ms of CPU a second, the bot's and the
  floor's alike: at people's pace a quarter to a half of a run's CPU);
- ``end``: stop them and report (loop lag, GC pauses, saves, CPU of this process, of each of
  its threads and of the engine's worker processes);
- ``memory-begin`` / ``memory-end``: traced memory by owner and memory reachable from the bot,
  before and after (the benchmark divides by the games that went live in between);
- ``rss``: the process's resident memory;
- ``stop``: close the bot and exit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

SPEED_PACKAGES = ("orjson", "zstandard", "brotli", "brotlicffi", "aiodns")
# Hidden before discord.py and aiohttp look for them: the imports below come after this.
if "--without-speed" in sys.argv:
    for package in SPEED_PACKAGES:
        sys.modules[package] = None  # type: ignore[assignment]  # "import" then fails

import discord  # noqa: E402
import yarl  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot import client  # noqa: E402
from bot.assembly import create_bot  # noqa: E402
from bot.compute import drawing  # noqa: E402
from bot.config import Settings, Shards, default_engine_workers  # noqa: E402
from devkit.localdiscord import TOKEN  # noqa: E402  (the token the local Discord takes)
from devkit.measure import instruments as measure  # noqa: E402
from devkit.measure import memory  # noqa: E402
from devkit.measure.profiling import Profile  # noqa: E402
from devkit.wire.savings import without  # noqa: E402


def settings_for(
    folder: Path, *, database_url: str | None = None, shards: str | None = None
) -> Settings:
    """The bot's settings with long deadlines, so no timeout fires during a run."""
    count, _, ids = (shards or "").partition(":")
    return Settings(
        database_url=database_url,
        shards=Shards(count=int(count), ids=(int(ids),), auto=True) if shards else Shards(),
        token=TOKEN,
        database_path=folder / "tictactoe.db",
        engine_workers=default_engine_workers(),
        challenge_timeout=3600.0,
        turn_timeout=86400.0,
        challenge_cooldown=0.0,
    )


class Control:
    """Carries out the benchmark's commands inside the bot's process."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.probe = measure.LagProbe()
        self.collector = measure.GcWatch()
        self.saves = measure.StoreWatch(getattr(bot, "store", None))
        self.clocks: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
        self.profile = Profile(profiled=False)
        self.memory: tuple[dict[str, int], tuple[int, int], int] | None = None

    def begin(self, *, lag: bool = True) -> dict[str, Any]:
        self.probe = measure.LagProbe()
        self.collector = measure.GcWatch()
        self.saves = measure.StoreWatch(getattr(self.bot, "store", None))
        self.profile = Profile(profiled="--profile" in sys.argv)
        if lag:
            self.probe.start()
        self.collector.start()
        self.saves.start()
        self.profile.start()
        self.clocks = (
            measure.now(),
            time.process_time(),
            time.thread_time(),
            measure.process_cpu(measure.engine_pids(self.bot)),
            search_cpu(self.bot),
        )
        return {"ok": True}

    def end(self) -> dict[str, Any]:
        drain_pictures(self.bot)  # the pictures the run asked for count in its CPU
        wall0, cpu0, main0, engine0, search0 = self.clocks
        searched = search_cpu(self.bot) - search0
        profile = self.profile.stop()
        self.probe.stop()
        self.collector.stop()
        self.saves.stop()
        return {
            "wall": measure.now() - wall0,
            "cpu": time.process_time() - cpu0 - searched,
            "main_cpu": time.thread_time() - main0,
            "engine_cpu": measure.process_cpu(measure.engine_pids(self.bot)) - engine0 + searched,
            "lags": self.probe.lags(),
            "gc_pauses": self.collector.pauses,
            "save_service": self.saves.service,
            "save_awaited": self.saves.awaited,
            **profile,  # each thread's CPU; with --profile, the loop thread's by part
            "setup": {  # what the variants of `floors.compare.compare_variants` change
                "pictures": picture_cache(self.bot),
                "gc_threshold": gc.get_threshold(),
                "json": "orjson" if discord.utils.HAS_ORJSON else "json",
                "gateway": discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE,
            },
        }

    def memory_begin(self) -> dict[str, Any]:
        held = memory.reachable_bytes(self.bot)
        tracked = len(gc.get_objects())
        memory.start_tracing()
        self.memory = (memory.owned_bytes(), held, tracked)
        return {"ok": True}

    def memory_end(self) -> dict[str, Any]:
        assert self.memory is not None, "memory-begin first"
        before, held0, tracked0 = self.memory
        after = memory.owned_bytes()
        tracemalloc.stop()
        held1 = memory.reachable_bytes(self.bot)
        return {
            "owned": {k: after.get(k, 0) - before.get(k, 0) for k in after.keys() | before},
            "held_bytes": held1[0] - held0[0],
            "held_objects": held1[1] - held0[1],
            "gc_objects": len(gc.get_objects()) - tracked0,
        }


async def serve(control: Control, stopped: asyncio.Event) -> None:
    """Read commands from stdin (in a thread) and answer each on stdout."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line.strip())
        loop.call_soon_threadsafe(lines.put_nowait, "stop")

    threading.Thread(target=read, name="control", daemon=True).start()
    actions = {
        "begin": control.begin,
        "begin-cpu": lambda: control.begin(lag=False),
        "end": control.end,
        "memory-begin": control.memory_begin,
        "memory-end": control.memory_end,
        "rss": lambda: {"rss": memory.rss_bytes()},
    }
    while True:
        command = await lines.get()
        if command == "stop":
            stopped.set()
            return
        answer = actions[command]() if command in actions else {"error": command}
        print(json.dumps(answer), flush=True)


def search_cpu(bot: Any) -> float:
    """CPU seconds of the engine's searches run in the bot's own threads (ultimate's compiled
    search: ``EngineRunner.search_cpu``; the floor's ``FloorEngine.search_cpu``)."""
    return float(getattr(getattr(bot, "engine", None), "search_cpu", 0.0))


def option(name: str) -> str | None:
    """The value after ``name`` on the command line, if given."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def collector() -> tuple[int, int, int]:
    """The collector's thresholds of this run: ``--gc``'s, else the bot's own."""
    given = option("--gc")
    if not given:
        return client.GC_THRESHOLDS
    a, b, c = (int(part) for part in given.split(","))
    return a, b, c


def project_bot(folder: Path) -> discord.Client:
    """The project's bot as the benchmark runs it (the database and shards from the command
    line), its heap frozen once ready as the bot's own start does."""
    settings = settings_for(
        folder, database_url=option("--database-url"), shards=option("--shards")
    )
    if (sync := option("--sync")) is not None:  # DATABASE_SYNC
        settings = dataclasses.replace(settings, database_sync=sync)
    if "--metrics" in sys.argv:  # served on a free port, as METRICS_PORT would
        settings = dataclasses.replace(settings, metrics_port=0)
    client.GC_THRESHOLDS = collector()  # what the bot sets once ready, as its own start does
    if "--pictures" in sys.argv:  # every server's boards default to pictures
        from bot.games import look

        look.DEFAULT = dataclasses.replace(look.DEFAULT, style="picture")
    bot = create_bot(settings, freeze_heap=True)
    for part in (option("--without") or "").split(","):
        without(bot, part)
    return bot


def drain_pictures(bot: discord.Client) -> None:
    """Wait until the drawing thread has drawn every picture asked for (with --pictures)."""
    if "--pictures" in sys.argv:
        drawing.drain(timeout=600)


def picture_cache(bot: discord.Client) -> dict[str, int] | None:
    """What the bot's picture cache holds now (with --pictures): pictures, bytes, hits, misses,
    and the answers that showed the emoji board while their picture was still being drawn."""
    clicks: Any = bot.get_cog("ClickCog") if "--pictures" in sys.argv else None  # type: ignore[attr-defined]
    if clicks is None:
        return None
    cache = drawing.CACHE
    return {
        "pictures": len(cache),
        "bytes": cache.held,
        "hits": cache.hits,
        "misses": cache.misses,
        "late": clicks.flow.showing.painter.late,
    }


async def run(bot: discord.Client) -> None:
    stopped = asyncio.Event()
    async with bot:
        connection = asyncio.create_task(bot.start(TOKEN))
        await bot.wait_until_ready()
        print(json.dumps({"ready": True}), flush=True)
        await serve(Control(bot), stopped)
        await bot.close()
        await connection


def main(make: Callable[[Path], discord.Client] | None = None) -> None:
    """Run a bot (the project's, unless `make` builds another) against the local Discord."""
    port, folder = int(sys.argv[1]), Path(sys.argv[2])
    level = logging.DEBUG if "-v" in sys.argv else logging.WARNING
    stamp = "%(created).3f " if "--log-times" in sys.argv else ""
    logging.basicConfig(level=level, format=stamp + "%(levelname)s %(name)s: %(message)s")
    base = f"http://127.0.0.1:{port}/api/v10"
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    if (warm := option("--warm-pictures")) is not None:
        warm_pictures(int(warm), int(option("--size") or 3))
    asyncio.run(run((make or project_bot)(folder)))


def warm_pictures(games: int, size: int) -> None:
    """Draw every position of `games` random games of `size` (3 in a row) before the run, as
    a bot that has been running has drawn pictures before it (the strips they leave kept:
    ``bot.pictures.png``); none of them is a position of the run's (another seed)."""
    import random

    from bot.pictures import board_png
    from bot.pictures.animation import positions
    from devkit.random_game import played

    rng = random.Random(-1)
    for _ in range(games):
        for position in positions(played("classic", size, 3, rng, size * size)):
            board_png(position)


if __name__ == "__main__":
    main()
