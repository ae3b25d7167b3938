"""``tictactoe-bot migrate-db``: copy a SQLite file (games, stats, ratings, id counter, puzzles,
tournaments) into PostgreSQL in one transaction, verify the counts, and change nothing if anything
differs.

A target that already holds games is refused, unless it holds exactly what the file holds (a
second run: nothing to do) or ``--force`` is given (its games, stats and ratings are replaced).
Stop the bot first: games played during the copy would be left behind.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.config import database_path
from bot.storage import history_sql, pg_schema, schema, tournament_sql
from bot.storage.base import StorageError

# One query that both databases answer alike: what must be the same after the copy.
COUNTS = (
    "SELECT (SELECT COUNT(*) FROM games WHERE status IN ('challenge', 'active')), "
    "(SELECT COUNT(*) FROM games WHERE status NOT IN ('challenge', 'active')), "
    "(SELECT COUNT(*) FROM records), (SELECT COUNT(*) FROM ratings), "
    "(SELECT COALESCE(SUM(wins + draws + losses), 0) FROM records), "
    "(SELECT COALESCE(SUM(rated_games), 0) FROM ratings), "
    "(SELECT GREATEST(MAX(last), (SELECT COALESCE(MAX(id), 0) FROM games)) FROM counter), "
    "(SELECT COUNT(*) FROM puzzle_players) + (SELECT COUNT(*) FROM puzzle_ratings) + "
    "(SELECT COUNT(*) FROM puzzle_attempts) + (SELECT COUNT(*) FROM server_puzzles) + "
    "(SELECT COUNT(*) FROM daily_posts), "
    + " + ".join(f"(SELECT COUNT(*) FROM {table})" for table in tournament_sql.COPIED)
    + ", (SELECT COUNT(*) FROM rating_history)"
)
RECORDS = ("kind", "guild_id", "user_id", "opponent", "wins", "draws", "losses")
RATINGS = ("kind", "guild_id", "user_id", "rating", "rated_games")
SETTINGS = ("guild_id", "settings")
# The puzzle tables (schema version 6), each copied whole, and the sequences behind their ids.
PUZZLE_TABLES: dict[str, tuple[str, ...]] = {
    "puzzle_players": ("guild_id", "user_id", "rating", "deviation", "volatility", "attempts",
                       "solved", "streak", "best_streak", "last_solved"),
    "puzzle_ratings": ("puzzle_id", "rating", "deviation", "volatility", "attempts"),
    "puzzle_attempts": ("id", "guild_id", "channel_id", "user_id", "puzzle_id", "puzzle", "moves",
                        "hints", "state", "refutation", "day", "locale", "interactions_only",
                        "created_at"),
    "server_puzzles": ("seq", "guild_id", "puzzle_id", "puzzle", "game_id"),
    "daily_posts": ("guild_id", "day"),
}  # fmt: skip
# The tournament tables (schema version 7), in an order their foreign keys accept.
TOURNAMENT_TABLES = tournament_sql.COPIED
# The history of ratings (schema version 8).
HISTORY_TABLES = history_sql.COPIED
SEQUENCES = (("puzzle_attempts", "id"), ("server_puzzles", "seq"), ("tournaments", "id"))


@dataclass(frozen=True)
class Counts:
    """What a database holds, as compared before and after a copy."""

    live: int
    finished: int
    records: int
    ratings: int
    results: int  # wins + draws + losses over every record
    rated: int  # rated games over every rating
    last_id: int
    puzzle_rows: int  # rows of every puzzle table together
    tournament_rows: int  # rows of every tournament table together
    history_rows: int  # rows of the rating history

    @property
    def empty(self) -> bool:
        """Whether there is nothing to lose."""
        rows = self.puzzle_rows + self.tournament_rows + self.history_rows
        return self.live + self.finished + self.records + self.ratings + rows == 0

    def __str__(self) -> str:
        return (
            f"{self.live} live and {self.finished} finished games, {self.records} records "
            f"({self.results} results), {self.ratings} ratings, last id {self.last_id}, "
            f"{self.puzzle_rows} puzzle rows, {self.tournament_rows} tournament rows, "
            f"{self.history_rows} rating history rows"
        )


@dataclass
class Source:
    """Everything read from the SQLite file."""

    counts: Counts
    games: list[tuple[Any, ...]]
    records: list[tuple[Any, ...]]
    ratings: list[tuple[Any, ...]]
    settings: list[tuple[Any, ...]]
    puzzles: dict[str, list[tuple[Any, ...]]]  # and the tournament tables


def read_sqlite(path: Path) -> Source:
    """Read the whole file (already at the current schema) in one read transaction."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    conn.create_function("GREATEST", 2, max)
    try:
        conn.execute("BEGIN")
        counts = Counts(*(int(n) for n in conn.execute(COUNTS).fetchone()))
        rows = conn.execute(f"SELECT {schema.COLUMNS} FROM games ORDER BY id")
        games = [pg_schema.to_args(schema.from_row(row))[:-1] for row in rows]
        records = conn.execute(f"SELECT {', '.join(RECORDS)} FROM records").fetchall()
        ratings = conn.execute(f"SELECT {', '.join(RATINGS)} FROM ratings").fetchall()
        settings = conn.execute(f"SELECT {', '.join(SETTINGS)} FROM server_settings").fetchall()
        puzzles = {
            table: [
                _typed(table, row) for row in conn.execute(f"SELECT {', '.join(cols)} FROM {table}")
            ]
            for table, cols in PUZZLE_TABLES.items()
        }
        for table, cols in TOURNAMENT_TABLES.items():
            rows = conn.execute(f"SELECT {', '.join(cols)} FROM {table}")
            puzzles[table] = [tournament_sql.for_postgres(table, row) for row in rows]
        for table, cols in HISTORY_TABLES.items():
            rows = conn.execute(f"SELECT {', '.join(cols)} FROM {table}")
            puzzles[table] = [history_sql.for_postgres(table, row) for row in rows]
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read {path}: {exc}") from exc
    finally:
        conn.close()
    return Source(counts, games, records, ratings, settings, puzzles)


async def copy(source: Path, url: str, *, force: bool = False) -> tuple[Counts, bool]:
    """Copy the SQLite file at ``source`` into the PostgreSQL database at ``url``.

    Returns what the target holds afterwards and whether anything was copied (False: it held
    exactly this already). Raises StorageError, and then the target is as it was.
    """
    import asyncpg

    from bot.storage.postgres import LOST, PostgresStore, where
    from bot.storage.sqlite import SQLiteStore

    if not source.is_file():
        raise StorageError(f"there is no SQLite file at {source}")
    sqlite_store = SQLiteStore(source)  # brings the file to the current schema, folds its log in
    await sqlite_store.open()
    await sqlite_store.close()
    data = await asyncio.to_thread(read_sqlite, source)
    kept_tables = ", ".join([*PUZZLE_TABLES, *TOURNAMENT_TABLES, *HISTORY_TABLES])
    target = PostgresStore(url, timeout=30.0)
    await target.open()  # creates or migrates the schema
    await target.close()
    try:
        conn = await asyncpg.connect(url, timeout=30)
    except (asyncpg.PostgresError, OSError, TimeoutError, *LOST) as exc:
        raise StorageError(f"cannot reach {where(url)}: {exc}") from exc
    try:
        async with conn.transaction():
            await conn.execute(
                f"LOCK TABLE games, records, ratings, counter, server_settings, {kept_tables} "
                "IN EXCLUSIVE MODE"
            )
            before = Counts(*await conn.fetchrow(COUNTS))
            if not before.empty:
                if before == data.counts and not force:
                    return before, False
                if not force:
                    raise StorageError(
                        f"{where(url)} already holds {before}: give --force to replace them"
                    )
                await conn.execute(
                    f"TRUNCATE games, records, ratings, server_settings, {kept_tables}"
                )
            columns = [name.strip() for name in pg_schema.COLUMNS.split(",")]
            await conn.copy_records_to_table("games", records=data.games, columns=columns)
            await conn.copy_records_to_table("records", records=data.records, columns=RECORDS)
            await conn.copy_records_to_table("ratings", records=data.ratings, columns=RATINGS)
            await conn.copy_records_to_table(
                "server_settings", records=data.settings, columns=SETTINGS
            )
            for table, cols in {**PUZZLE_TABLES, **TOURNAMENT_TABLES, **HISTORY_TABLES}.items():
                await conn.copy_records_to_table(table, records=data.puzzles[table], columns=cols)
            for table, column in SEQUENCES:  # ids after the copied ones
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
                )
            await conn.execute("UPDATE counter SET last = $1", data.counts.last_id)
            after = Counts(*await conn.fetchrow(COUNTS))
            if after != data.counts:  # raising here rolls the whole copy back
                raise StorageError(f"counts differ after the copy: {after} instead of {data}")
    except (asyncpg.PostgresError, OSError, TimeoutError, *LOST, TypeError, ValueError) as exc:
        # TypeError, ValueError: a value of the file PostgreSQL's column cannot hold.
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise StorageError(f"cannot copy into {where(url)}: {first}") from exc
    finally:
        await conn.close()
    return after, True


def _typed(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A puzzle row of the file as PostgreSQL's columns take it (an attempt's flag and time)."""
    if table != "puzzle_attempts":
        return row
    return (*row[:12], bool(row[12]), datetime.fromisoformat(row[13]))


def command(argv: Sequence[str], env: Mapping[str, str]) -> int:
    """Run ``migrate-db`` with its arguments; print one line; the exit code."""
    parser = argparse.ArgumentParser(
        prog="tictactoe-bot migrate-db",
        description="Copy the SQLite file's games, stats and ratings into PostgreSQL.",
    )
    parser.add_argument("--to", required=True, metavar="URL", help="postgresql://... target")
    parser.add_argument(
        "--from", dest="source", type=Path, default=None, metavar="PATH",
        help="the SQLite file (default: DATABASE_PATH, else data/tictactoe.db)",
    )  # fmt: skip
    parser.add_argument(
        "--force", action="store_true", help="replace what the target already holds"
    )
    args = parser.parse_args(list(argv))
    if not args.to.startswith(("postgresql://", "postgres://")):
        parser.error("--to must be a postgresql://user:password@host:port/database URL")
    source = args.source or database_path(env)
    started = time.perf_counter()
    try:
        counts, copied = asyncio.run(copy(source, args.to, force=args.force))
    except StorageError as exc:
        print(f"tictactoe-bot: migrate-db: {exc}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    if not copied:
        print(f"nothing to do: the target already holds the same {counts}")
    else:
        print(f"copied {source} in {seconds:.1f} s, counts verified: {counts}")
    return 0
