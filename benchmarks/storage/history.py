"""A player's history and rating chart: the time to read a page of a player's games from a
SQLite file of many games, with the players' indexes (schema 8) and without them (as in schema
7); the time to read a player's rating history; and the time, CPU and bytes of a rating chart.

    python benchmarks/storage/history.py [--games 100000] [--players 2000] [--repeats 7] [--seed 1]

Games are between random pairs of players in one server, each finished; the page is the 11
newest games of a random player (a page and one more, as the command reads). Each figure is the
median over the repeats, a different player each.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.assembly import STEPS, sqlite_store
from bot.games.record import Ending, GameRecord, Status
from bot.history.chart import chart
from bot.history.store import HistoryStore
from bot.storage import schema

GUILD = 1


def fill(path: Path, games: int, players: int, rng: random.Random) -> None:
    """A schema 8 file of `games` finished games and their rating history, written directly."""
    conn = sqlite3.connect(path)
    schema.migrate(conn, STEPS)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rows, history = [], []
    for gid in range(1, games + 1):
        x, o = rng.sample(range(1, players + 1), 2)
        at = start + timedelta(minutes=gid)
        game = GameRecord(
            id=gid,
            guild_id=GUILD,
            channel_id=5,
            x_id=x,
            o_id=o,
            challenger_id=x,
            moves=(0, 3, 1, 4, 2),
            status=Status.FINISHED,
            ending=Ending.WIN,
            winner="X",
            created_at=at,
        )
        rows.append(schema.to_row(game))
        for user in (x, o):
            history.append(
                (GUILD, user, "classic", gid, 1500 + rng.uniform(-200, 200), schema.iso(at))
            )
    places = ", ".join("?" * schema.WIDTH)
    conn.executemany(f"INSERT INTO games ({schema.COLUMNS}) VALUES ({places})", rows)
    conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?)", history)
    conn.commit()
    conn.close()


async def page_times(path: Path, players: int, repeats: int, rng: random.Random) -> list[float]:
    store = sqlite_store(path)
    await store.open()
    try:
        times = []
        for _ in range(repeats):
            player = rng.randint(1, players)
            began = time.perf_counter()
            found = await HistoryStore(store).player_games(GUILD, player, limit=11)
            times.append(time.perf_counter() - began)
            assert found, "every player has games"
        return times
    finally:
        await store.close()


async def history_times(
    path: Path, players: int, repeats: int, rng: random.Random
) -> tuple[list[float], int]:
    store = sqlite_store(path)
    await store.open()
    try:
        times, points = [], 0
        for _ in range(repeats):
            began = time.perf_counter()
            series = await HistoryStore(store).rating_history(GUILD, rng.randint(1, players))
            times.append(time.perf_counter() - began)
            points = max(points, sum(len(v) for v in series.values()))
        return times, points
    finally:
        await store.close()


def chart_figures(repeats: int, rng: random.Random) -> tuple[float, float, int]:
    """Median wall and CPU seconds, and bytes, of a chart of 200 classic and 80 ultimate points."""
    walls, cpus, size = [], [], 0
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for _ in range(repeats):
        series = {
            kind: [(start + timedelta(hours=i), 1500 + rng.uniform(-150, 150)) for i in range(n)]
            for kind, n in (("classic", 200), ("ultimate", 80))
        }
        wall, cpu = time.perf_counter(), time.process_time()
        data = chart(series)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        size = max(size, len(data))
    return statistics.median(walls), statistics.median(cpus), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        fill(path, args.games, args.players, rng)
        indexed = asyncio.run(page_times(path, args.players, args.repeats, rng))
        ratings, points = asyncio.run(history_times(path, args.players, args.repeats, rng))
        conn = sqlite3.connect(path)
        conn.execute("DROP INDEX games_x_player")
        conn.execute("DROP INDEX games_o_player")
        conn.commit()
        conn.close()
        bare = asyncio.run(page_times(path, args.players, args.repeats, rng))
    ms = lambda xs: f"{statistics.median(xs) * 1000:.2f} ms"  # noqa: E731
    print(f"{args.games:,} games, {args.players:,} players, median of {args.repeats}")
    print(
        f"a page of a player's games: {ms(indexed)} with the players' indexes, {ms(bare)} without"
    )
    print(f"a player's rating history (up to {points} points): {ms(ratings)}")
    wall, cpu, size = chart_figures(args.repeats, rng)
    print(
        f"a rating chart of 280 points: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU, "
        f"{size:,} bytes"
    )


if __name__ == "__main__":
    main()
