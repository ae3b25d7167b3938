"""The soak's faults: a seeded schedule, printed so a run can be replayed, and the hands that
inject each fault into the running system (the shards' processes, PostgreSQL, the local
Discord)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.localdiscord import FakeDiscord
from devkit.postgres import PgServer
from devkit.wire.client import WireBot

KINDS = (
    "kill",  # SIGKILL of a shard's process, then a new one started
    "pause",  # SIGSTOP of a shard's process for longer than the gateway's heartbeat, SIGCONT
    "pg-stop",  # PostgreSQL stopped (immediate: as a crash) for a few seconds, then started
    "pg-restart",  # PostgreSQL restarted with a fast shutdown
    "http-5xx",  # Discord's REST answers 500, 502, 503 or 504 to half its calls for seconds
    "http-429",  # Discord's REST answers 429 to half its calls for a few seconds
    "drop-resume",  # a shard's gateway connection closed; it resumes its session
    "drop-identify",  # a shard's session invalidated; it identifies anew
)
PER_SHARD = {"kill", "pause", "drop-resume", "drop-identify"}
HTTP_SHARE = 0.5  # of Discord's REST calls an http fault fails


@dataclass
class Fault:
    """One fault of the schedule, and when it was in force."""

    at: float  # seconds after the faults begin
    kind: str
    shard: int
    seconds: float  # how long it lasts (0: a single blow)
    status: int = 0  # http-5xx: the status
    began: float = 0.0  # perf_counter when injected
    ended: float = 0.0  # perf_counter when lifted (the restart launched, the server started...)
    wall: tuple[float, float] = (0.0, 0.0)  # time.time() of both

    def describe(self) -> str:
        where = f" shard {self.shard}" if self.kind in PER_SHARD else ""
        status = f" ({self.status})" if self.status else ""
        lasting = f" for {self.seconds:.1f} s" if self.seconds else ""
        return f"+{self.at:6.1f} s  {self.kind}{where}{status}{lasting}"


def schedule(seed: int, span: float, *, heartbeat: float, shards: int = 2) -> list[Fault]:
    """Faults over `span` seconds, one at a time, every kind in turn in a shuffled order (each
    kind once before any twice), seeded."""
    rng = random.Random(seed)
    faults: list[Fault] = []
    order: list[str] = []
    at = rng.uniform(1.0, 4.0)
    while True:
        if not order:
            order = list(KINDS)
            rng.shuffle(order)
        kind = order.pop()
        seconds, status = 0.0, 0
        if kind == "pause":
            seconds = 1.5 * heartbeat + rng.uniform(1.0, 3.0)
        elif kind == "pg-stop":
            seconds = rng.uniform(2.0, 6.0)
        elif kind.startswith("http"):
            seconds = rng.uniform(3.0, 8.0)
            status = 429 if kind == "http-429" else rng.choice((500, 502, 503, 504))
        fault = Fault(round(at, 1), kind, rng.randrange(shards), round(seconds, 1), status)
        if fault.at + fault.seconds > span:
            return faults
        faults.append(fault)
        at = fault.at + fault.seconds + rng.uniform(4.0, 8.0)


class Injector:
    """Injects the faults into the shards, the database server and the local Discord."""

    def __init__(
        self,
        fake: FakeDiscord,
        server: PgServer,
        bots: list[WireBot],
        *,
        restarted: Callable[[int], None],
    ) -> None:
        self.fake = fake
        self.server = server
        self.bots = bots
        self.restarted = restarted  # told the shard whose new process is ready
        self.lives = [1] * len(bots)  # processes each shard has had

    async def run(self, faults: list[Fault], started: float) -> None:
        """Inject each fault at its time (seconds after `started`, a perf_counter)."""
        for fault in faults:
            await asyncio.sleep(max(0.0, started + fault.at - time.perf_counter()))
            fault.began, begun_wall = time.perf_counter(), time.time()
            await self.inject(fault)
            fault.wall = (begun_wall, time.time())
            if not fault.ended:
                fault.ended = time.perf_counter()

    async def inject(self, fault: Fault) -> None:
        bot = self.bots[fault.shard]
        process: Any = bot.process
        if fault.kind == "kill":
            process.send_signal(signal.SIGKILL)
            await process.wait()
            self.lives[fault.shard] += 1
            bot.log_path.rename(bot.log_path.with_suffix(f".{self.lives[fault.shard] - 1}.log"))
            fresh = WireBot(self.fake, bot.folder, *bot.options)
            self.bots[fault.shard] = fresh
            fault.ended = time.perf_counter()  # launched: the wait to answer counts from here
            await fresh.start()
            self.restarted(fault.shard)
        elif fault.kind == "pause":
            os.kill(process.pid, signal.SIGSTOP)
            await asyncio.sleep(fault.seconds)
            os.kill(process.pid, signal.SIGCONT)
        elif fault.kind == "pg-stop":
            await asyncio.to_thread(self.server.stop, "immediate")
            await asyncio.sleep(fault.seconds)
            await asyncio.to_thread(self.server.start)
        elif fault.kind == "pg-restart":
            await asyncio.to_thread(self.server.stop, "fast")
            await asyncio.to_thread(self.server.start)
        elif fault.kind.startswith("http"):
            # Half the calls, picked at random, as in an incident: a click's answer may fail
            # and the edit that would show its game go through, or the other way round.
            self.fake.fail_rest(fault.seconds, fault.status, share=HTTP_SHARE)
            await asyncio.sleep(fault.seconds)
        else:
            await self.fake.drop(fault.shard, resume=fault.kind == "drop-resume")


def usage(pid: int) -> tuple[int, int]:
    """(resident memory in bytes, open file descriptors) of a process."""
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) * 1024
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def descriptors(pid: int) -> Counter[str]:
    """A process's open descriptors by what they are; a TCP socket by its peer's port."""
    peers = {}
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                peers[fields[9]] = int(fields[2].rsplit(":", 1)[1], 16)
    found: Counter[str] = Counter()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                port = peers.get(target[8:-1])
                target = f"tcp to port {port}" if port else "socket"
            elif target.startswith("/"):
                target = "file"
            found[target.split(":")[0] if not target.startswith("tcp") else target] += 1
    return found
