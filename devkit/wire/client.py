"""The load benchmark against a Discord of our own on 127.0.0.1, the bot in a process of its own.

The benchmark's process runs the local Discord (`devkit/localdiscord`) and the players; the
bot runs in a child process (`bot_process.py`), the real bot with the real discord.py, talking HTTP
and a websocket to the local Discord. So the bot's loop lag, CPU and memory are its own: nothing of
the simulation shares its process, its event loop or its garbage collector. On a machine with two
cores the players and the fake Discord have one, the bot (and its storage thread and engine workers)
the other, as far as the scheduler keeps them apart.

Acknowledgements are timed in the benchmark's process, from the INTERACTION_CREATE frame
written to the gateway socket to the bot's callback request parsed by the server: the
gateway's and the HTTP round trip's cost is in every figure, as with a real Discord (minus the
internet), and so is any delay of the benchmark's own loop in noticing the request.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from devkit.localdiscord import FakeDiscord
from devkit.measure.scenario import (
    AGAINST,
    Game,
    Players,
    Run,
    build_world,
    world_options,
)
from devkit.measure.traffic import play_mode

BOT_SCRIPT = Path(__file__).with_name("bot_process.py")
_databases = itertools.count(1)
START_TIMEOUT = 120.0  # seconds for the bot to start (engine pool warm-up included)


class WireBot:
    """The bot's process: started, commanded over stdin/stdout, stopped; its log kept."""

    def __init__(
        self, fake: FakeDiscord, folder: Path, *options: str, script: Path = BOT_SCRIPT
    ) -> None:
        self.fake = fake
        self.folder = folder
        self.script = script  # the project's bot, or the floor
        self.options = options  # --database-url URL, --shards COUNT:ID
        shard = (
            options[options.index("--shards") + 1].replace(":", "-")
            if "--shards" in options
            else ""
        )
        self.log_path = folder / f"bot{shard}.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log_path, "wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(self.script),
                str(self.fake.port),
                str(self.folder),
                *self.options,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                limit=256 * 1024 * 1024,  # the "end" answer holds every lag sample
            )
        try:
            answer = await self._answer(START_TIMEOUT)
        except TimeoutError:
            answer = {"timeout": START_TIMEOUT}
        if not answer.get("ready"):
            await self.stop()
            raise RuntimeError(f"the bot did not start ({answer}); its log ends:\n{self.log()}")

    async def _answer(self, timeout: float) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"the bot's process ended; its log ends:\n{self.log()}")
        result: dict[str, Any] = json.loads(line)
        return result

    async def command(self, name: str, timeout: float = 300.0) -> dict[str, Any]:
        """Send one command; its answer."""
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(name.encode() + b"\n")
        await self.process.stdin.drain()
        return await self._answer(timeout)

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.write(b"stop\n")
            await self.process.stdin.drain()
        try:
            await asyncio.wait_for(self.process.wait(), 30.0)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def log(self, tail: int = 3000) -> str:
        """The end of the bot's log."""
        return self.log_path.read_text(errors="replace")[-tail:] if self.log_path.exists() else ""

    def errors(self) -> list[str]:
        """The log lines of the bot that are errors (warnings and errors, tracebacks' heads)."""
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(errors="replace").splitlines()
        return [line for line in lines if line.startswith(("ERROR", "CRITICAL", "Traceback"))]


class WireDriver(Players):
    """The players, through the fake Discord's gateway."""

    def __init__(self, fake: FakeDiscord, *, max_plies: int) -> None:
        super().__init__(max_plies=max_plies)
        self.fake = fake
        self.timings = fake.timings
        self.listeners = fake.listeners

    async def _emit_slash(self, game: Game) -> int:
        return await self.fake.slash(game.human, game.channel, "tictactoe", **game.slash_options())

    async def _emit_click(self, game: Game, player: Any, custom_id: str, kind: str) -> int:
        assert game.message_id is not None
        return await self.fake.click(kind, player, game.channel, game.message_id, custom_id)

    def _components(self, game: Game) -> list[Any]:
        assert game.message_id is not None
        components: list[Any] = self.fake.messages[game.message_id]["components"]
        return components

    def _response_message(self, interaction_id: int) -> int | None:
        interaction = self.fake.interactions.get(interaction_id)
        if interaction is None or interaction.timing.ephemeral:
            return None
        return interaction.message_id


async def connected(fake: FakeDiscord, bots: list[WireBot]) -> None:
    await asyncio.gather(*(bot.start() for bot in bots))
    await asyncio.wait_for(fake.synced.wait(), 10.0)
    await asyncio.wait_for(fake.connected.wait(), 10.0)


async def fresh_database(args: argparse.Namespace) -> str | None:
    """A new empty PostgreSQL database for one run (None: the bot uses a SQLite file)."""
    url: str | None = getattr(args, "postgres_url", None)
    if url is None:
        return None
    import asyncpg

    name = f"load_{next(_databases)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return url.rsplit("/", 1)[0] + "/" + name


def bot_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The project bot's options the command line asks for (its collector thresholds)."""
    gc = getattr(args, "gc", None)
    return ("--gc", gc) if gc else ()


def bots_for(
    fake: FakeDiscord,
    folder: Path,
    url: str | None,
    processes: int,
    script: Path = BOT_SCRIPT,
    extra: tuple[str, ...] = (),
) -> list[WireBot]:
    """The bot's processes: one, or one per shard of ``processes`` (PostgreSQL needed), each
    given the `extra` command-line options of `bot_process.py`."""
    options = (*(("--database-url", url) if url else ()), *extra)
    if processes == 1:
        return [WireBot(fake, folder, *options, script=script)]
    if url is None:
        raise SystemExit("--processes 2 needs --database postgres: shards share one database")
    fake.shard_count = processes
    return [
        WireBot(fake, folder, *options, "--shards", f"{processes}:{i}") for i in range(processes)
    ]


async def wire_run(
    mode: str,
    n: int,
    size: int,
    args: argparse.Namespace,
    *,
    script: Path = BOT_SCRIPT,
    extra: tuple[str, ...] | None = None,
    vs_bot: bool | None = None,
) -> Run:
    """One mode on N games of one size: a fresh fake Discord, world, database and bot process
    (or processes, one per shard: their figures are put together). `script` is the bot: the
    project's, or the floor's; `extra` its options (`bot_options(args)` unless given); `vs_bot`
    True or False plays only games against the bot, or only between people (N of them)."""
    rng = random.Random(args.seed * 1000 + n * 10 + size)
    fake = FakeDiscord()
    await fake.start()
    url = await fresh_database(args)
    processes = getattr(args, "processes", 1)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        options = bot_options(args) if extra is None else extra
        bots = bots_for(fake, Path(folder), url, processes, script, options)
        if mode == "alone":  # n games against the bot, so twice the channels
            vs_bot = True
        if vs_bot is None:  # --against: only games against the bot, or between people
            vs_bot = AGAINST[getattr(args, "against", "mixed")]
        if vs_bot is None:
            games = build_world(fake, n, size, **world_options(args))
        else:  # half the world's games are against the bot, so twice the channels
            world = build_world(fake, 2 * n, size, **world_options(args))
            games = [g for g in world if g.vs_bot == vs_bot]
        run = Run(mode, size, n, discord="local" if processes == 1 else f"local x{processes}")
        try:
            await connected(fake, bots)
            driver = WireDriver(fake, max_plies=args.max_plies)
            await asyncio.gather(*(bot.command("begin") for bot in bots))
            await play_mode(mode, driver, games, rng=rng, args=args)
            ends = await asyncio.gather(*(bot.command("end") for bot in bots))
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
            await fake.close()
        run.errors = [e for bot in bots for e in bot.errors()]
        run.errors += [f"unexpected request: {r}" for r in fake.unexpected]
    run.wall = max(m["wall"] for m in ends)
    run.setup = ends[0].get("setup", {})
    run.threads = {
        name: sum(m.get("threads", {}).get(name, 0.0) for m in ends)
        for name in {name for m in ends for name in m.get("threads", {})}
    }
    run.parts = ends[0].get("parts", {})
    run.cpu = sum(m["cpu"] + m["engine_cpu"] for m in ends)
    run.engine_cpu = sum(m["engine_cpu"] for m in ends)
    run.main_cpu = sum(m["main_cpu"] for m in ends)
    run.lags = [lag for m in ends for lag in m["lags"]]
    run.gc_pauses = [p for m in ends for p in m["gc_pauses"]]
    run.save_service = [t for m in ends for t in m["save_service"]]
    run.save_awaited = [t for m in ends for t in m["save_awaited"]]
    run.timings = list(fake.timings.values())
    run.moves = sum(g.plies for g in games)
    run.finished = sum(g.over for g in games)
    run.stuck = sum(g.stuck for g in games)
    return run
