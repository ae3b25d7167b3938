"""Storage speed, measured on a real SQLite file (figures printed, nothing asserted).

    python benchmarks/storage/storage_bench.py [--saves 3000] [--live 1000] [--finished 20000]
                                               [--dir D] [--postgres [URL]]

1. Storage time per move: ``save_game`` of an active game after each move, as the bot does,
   awaited from the event loop (so the hop to the storage thread is included), and the CPU of
   the process a save, with each ``DATABASE_SYNC`` (the default first). Target: p99 at most 5 ms.
2. Start-up: a fresh ``SQLiteStore`` on a file holding ``--live`` live games (and ``--finished``
   finished ones), timed through ``open()`` + ``live_games()``.
3. The whole bot's start-up to ready on that file, through SimCord (discord.py's real login,
   setup_hook, cog load with every live game and its deadline re-armed, engine workers started,
   commands synced, READY): median of ``--starts`` starts. Target: at most 2 s.

The file lives in a temporary folder (or ``--dir``: pick one on the disk the bot will use, since
the disk sets the cost); 2 and 3 use the bot's default ``DATABASE_SYNC``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from bot.assembly import create_bot, postgres_store, sqlite_store
from bot.config import DEFAULT_SYNC, SYNC_MODES, Settings
from bot.games.record import Ending, GameRecord, Status


def percentile(samples: list[float], fraction: float) -> float:
    """The sample at ``fraction`` of the sorted list (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def new_game(gid: int, rng: random.Random) -> GameRecord:
    """A fresh game between two people on a random board size."""
    size = rng.choice((3, 4, 5))
    return GameRecord(
        id=gid,
        guild_id=rng.randrange(10**17, 10**18),
        channel_id=rng.randrange(10**17, 10**18),
        x_id=rng.randrange(1, 500),
        o_id=rng.randrange(500, 1000),
        challenger_id=1,
        size=size,
        k=3 if size == 3 else 4,
        message_id=rng.randrange(10**17, 10**18),
    )


async def per_move(
    folder: Path, saves: int, url: str | None = None, sync: str = DEFAULT_SYNC
) -> list[float]:
    """Milliseconds per save_game, over games played move by move until ``saves`` saves
    (on PostgreSQL at ``url`` if given, else on a SQLite file with ``DATABASE_SYNC`` `sync`)."""
    store: Any = sqlite_store(folder / "moves.db", sync=sync)
    if url is not None:
        store = postgres_store(url)
    await store.open()
    rng = random.Random(1)
    times: list[float] = []
    try:
        while len(times) < saves:
            game = new_game(await store.next_game_id(), rng)
            cells = list(range(game.size * game.size))
            rng.shuffle(cells)
            for cell in cells[: rng.randrange(5, len(cells) + 1)]:
                game = dataclasses.replace(game, moves=(*game.moves, cell))
                start = time.perf_counter()
                await store.save_game(game)
                times.append((time.perf_counter() - start) * 1000)
            game = dataclasses.replace(
                game, status=Status.FINISHED, ending=Ending.DRAW, winner=None
            )
            await store.save_game(game)  # the finishing save counts stats: not a plain move
    finally:
        await store.close()
    return times[:saves]


async def startup(folder: Path, live: int, finished: int) -> tuple[float, float, int]:
    """Seconds to open a file holding ``live`` live games, and to load them."""
    path = folder / "startup.db"
    store = sqlite_store(path)
    await store.open()
    rng = random.Random(2)
    for gid in range(1, live + finished + 1):
        game = new_game(gid, rng)
        game = dataclasses.replace(
            game,
            moves=tuple(rng.sample(range(game.size * game.size), rng.randrange(0, 6))),
            # A live game's clock runs: its deadline is re-armed at start-up.
            deadline=datetime.now(UTC) + timedelta(days=1, seconds=rng.randrange(300)),
        )
        if gid > live:
            game = dataclasses.replace(game, status=Status.FINISHED, ending=Ending.WIN, winner="X")
        await store.save_game(game)
    await store.close()

    fresh = sqlite_store(path)
    start = time.perf_counter()
    await fresh.open()
    opened = time.perf_counter()
    games = await fresh.live_games()
    loaded = time.perf_counter()
    await fresh.close()
    return opened - start, loaded - opened, len(games)


async def bot_start(path: Path) -> tuple[float, int]:
    """Seconds from a new bot to READY on the file at ``path``, and the live games it loaded."""
    settings = Settings(token="benchmark.bot.token", database_path=path, engine_workers=1)
    bot = create_bot(settings)
    start = time.perf_counter()
    try:
        async with simcord.run(bot, check_errors=False):
            ready = time.perf_counter()
            cog: Any = bot.get_cog("GameCog")
            loaded = len(cog.live.games.live())
    finally:
        await bot.release()
    return ready - start, loaded


async def postgres_per_move(url: str, saves: int) -> None:
    """Print save_game per move on PostgreSQL (a server of its own on 127.0.0.1 for "own")."""
    server = None
    if url == "own":
        from devkit.postgres import start_server

        server = start_server()
        url = server.admin_url
    try:
        times = await per_move(Path(), saves, url)
    finally:
        if server is not None:
            from devkit.postgres import remove

            remove(server)
    print(
        f"PostgreSQL save_game per move over {len(times)} saves: "
        f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
        f"max {max(times):.2f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=3000)
    parser.add_argument("--live", type=int, default=1000)
    parser.add_argument("--finished", type=int, default=20000)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="own",
        default=None,
        metavar="URL",
        help="also time save_game on PostgreSQL (an empty database; default: a server of its own)",
    )
    args = parser.parse_args()
    if args.postgres is not None:
        await postgres_per_move(args.postgres, args.saves)
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = Path(name)
        print(f"SQLite file in {folder} (WAL)")
        for sync in (DEFAULT_SYNC, *(s for s in SYNC_MODES if s != DEFAULT_SYNC)):
            cpu = time.process_time()
            times = await per_move(folder / sync, args.saves, sync=sync)
            cpu = (time.process_time() - cpu) * 1000 / len(times)
            print(
                f"save_game per move over {len(times)} saves, DATABASE_SYNC={sync}: "
                f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
                f"max {max(times):.2f} ms (target p99 <= 5 ms); the process's CPU {cpu:.3f} ms "
                "a save"
            )
        opened, loaded, count = await startup(folder, args.live, args.finished)
        print(
            f"start-up with {count} live games (+{args.finished} finished): "
            f"open {opened * 1000:.1f} ms, live_games {loaded * 1000:.1f} ms, "
            f"total {(opened + loaded) * 1000:.1f} ms"
        )
        starts = [await bot_start(folder / "startup.db") for _ in range(args.starts)]
        seconds = [t for t, _ in starts]
        print(
            f"bot start-up to READY with {starts[0][1]} live games "
            f"(SimCord, {len(starts)} starts): "
            f"median {statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms"
            " (target at most 2 s)"
        )


if __name__ == "__main__":
    asyncio.run(main())
