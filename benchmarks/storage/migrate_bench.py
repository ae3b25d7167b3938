"""migrate-db speed: a SQLite file with 1,000 live and 20,000 finished games copied into
PostgreSQL (figures printed, nothing asserted).

    python benchmarks/storage/migrate_bench.py [--live 1000] [--finished 20000] [--to postgresql://...]

Without ``--to`` it starts a PostgreSQL server of its own on 127.0.0.1 (Debian's ``postgresql``
package, as the tests do; ``fsync`` off, so the figure leaves out the disk's flush at commit).
It times three runs through ``tictactoe-bot migrate-db`` in a process of its own: the copy into
an empty database, a second run (nothing to do), and a copy with ``--force`` over the first.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.storage.storage_bench import new_game
from bot.assembly import sqlite_store
from bot.games.record import Ending, Status

ROOT = Path(__file__).resolve().parents[2]


async def build(path: Path, live: int, finished: int) -> float:
    """Write the file: finished games first (their results counted), then the live ones."""
    start = time.perf_counter()
    store = sqlite_store(path)
    await store.open()
    rng = random.Random(3)
    games = []
    for gid in range(1, live + finished + 1):
        game = new_game(gid, rng)
        game = dataclasses.replace(
            game,
            moves=tuple(rng.sample(range(game.size * game.size), rng.randrange(0, 6))),
            deadline=datetime.now(UTC) + timedelta(days=1, seconds=rng.randrange(300)),
        )
        if gid <= finished:
            winner = rng.choice(("X", "O", None))
            ending = Ending.DRAW if winner is None else Ending.WIN
            game = dataclasses.replace(
                game, status=Status.FINISHED, ending=ending, winner=winner, deadline=None
            )
        games.append(game)
    for at in range(0, len(games), 256):  # saves queued together share a commit
        await asyncio.gather(*(store.save_game(g) for g in games[at : at + 256]))
    await store.close()
    return time.perf_counter() - start


def migrate(path: Path, url: str, *extra: str) -> tuple[float, str]:
    """Seconds for one ``migrate-db`` process, and the line it printed."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--from", str(path), "--to", url, *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip())
    return seconds, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", type=int, default=1000)
    parser.add_argument("--finished", type=int, default=20000)
    parser.add_argument("--to", default=None, help="an empty PostgreSQL database (default: own)")
    args = parser.parse_args()
    server = None
    url = args.to
    if url is None:
        from devkit.postgres import remove, start_server

        server = start_server()
        url = server.admin_url
    try:
        with tempfile.TemporaryDirectory() as name:
            path = Path(name) / "big.db"
            built = asyncio.run(build(path, args.live, args.finished))
            size = path.stat().st_size / 2**20
            print(
                f"SQLite file: {args.live} live + {args.finished} finished games, "
                f"{size:.1f} MiB, built in {built:.1f} s"
            )
            for label, extra in (("first copy", ()), ("second run", ()), ("--force", ("--force",))):
                seconds, line = migrate(path, url, *extra)
                print(f"{label}: {seconds:.2f} s for the whole process; it says: {line}")
    finally:
        if server is not None:
            remove(server)


if __name__ == "__main__":
    main()
