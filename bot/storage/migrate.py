"""``tictactoe-bot migrate-db``: copy a SQLite file (games, stats, ratings, id counter, and every
table a feature's schema step makes) into PostgreSQL in one transaction, verify the counts, and
change nothing if anything differs. Which tables, their columns, and which of them hold times and
flags, the schema steps say (``dialect.Table``): nothing here is written per feature.

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
from pathlib import Path
from typing import Any

from bot.config import database_path
from bot.storage.base import StorageError
from bot.storage.dialect import Step, Table

# What must be the same after the copy, beside each table's rows: the games still live, the
# results and rated games counted, the last id handed out.
SUMS = (
    "SELECT (SELECT COUNT(*) FROM games WHERE status IN ('challenge', 'active')), "
    "(SELECT COALESCE(SUM(wins + draws + losses), 0) FROM records), "
    "(SELECT COALESCE(SUM(rated_games), 0) FROM ratings), "
    "(SELECT GREATEST(MAX(last), (SELECT COALESCE(MAX(id), 0) FROM games)) FROM counter)"
)


@dataclass(frozen=True)
class Counts:
    """What a database holds, as compared before and after a copy: each table's rows, and the
    sums above."""

    rows: tuple[tuple[str, int], ...]  # (table, rows) in the steps' order
    live: int
    results: int  # wins + draws + losses over every record
    rated: int  # rated games over every rating
    last_id: int

    @property
    def finished(self) -> int:
        """The games over (every game but the live ones)."""
        return dict(self.rows).get("games", 0) - self.live

    @property
    def empty(self) -> bool:
        """Whether there is nothing to lose."""
        return all(n == 0 for _, n in self.rows)

    def __str__(self) -> str:
        rows = ", ".join(f"{n} {table}" for table, n in self.rows if table != "games")
        return (
            f"{self.live} live and {self.finished} finished games, {self.results} results, "
            f"{self.rated} rated games, last id {self.last_id}; rows: {rows}"
        )


def tables_of(steps: Sequence[Step]) -> list[Table]:
    """Every table the steps make, in their order (which their foreign keys accept)."""
    return [table for step in steps for table in step.tables]


def counts_query(tables: Sequence[Table]) -> str:
    """One query both databases answer alike: each table's rows, then `SUMS`' values."""
    each = ", ".join(f"(SELECT COUNT(*) FROM {t.name})" for t in tables)
    return f"SELECT {each}, {SUMS.removeprefix('SELECT ')}"


def counted(tables: Sequence[Table], values: Sequence[Any]) -> Counts:
    """The answer of `counts_query`."""
    numbers = [int(n) for n in values]
    rows = tuple(zip((t.name for t in tables), numbers, strict=False))
    return Counts(rows, *numbers[len(tables) :])


@dataclass
class Source:
    """Everything read from the SQLite file: its counts, and each table's rows as PostgreSQL's
    columns take them."""

    counts: Counts
    rows: dict[str, list[tuple[Any, ...]]]


def read_sqlite(path: Path, tables: Sequence[Table]) -> Source:
    """Read the whole file (already at the current schema) in one read transaction."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    conn.create_function("GREATEST", 2, max)
    try:
        conn.execute("BEGIN")
        counts = counted(tables, conn.execute(counts_query(tables)).fetchone())
        rows = {
            t.name: [
                t.for_postgres(row)
                for row in conn.execute(f"SELECT {', '.join(t.columns)} FROM {t.name}")
            ]
            for t in tables
        }
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read {path}: {exc}") from exc
    finally:
        conn.close()
    return Source(counts, rows)


async def copy(
    source: Path, url: str, steps: Sequence[Step], *, force: bool = False
) -> tuple[Counts, bool]:
    """Copy the SQLite file at ``source`` into the PostgreSQL database at ``url``, both at the
    schema `steps` make.

    Returns what the target holds afterwards and whether anything was copied (False: it held
    exactly this already). Raises StorageError, and then the target is as it was.
    """
    import asyncpg

    from bot.storage.postgres import LOST, PostgresStore, where
    from bot.storage.sqlite import SQLiteStore

    if not source.is_file():
        raise StorageError(f"there is no SQLite file at {source}")
    tables = tables_of(steps)
    sqlite_store = SQLiteStore(source, steps=steps)  # brings the file up to date, folds its log in
    await sqlite_store.open()
    await sqlite_store.close()
    data = await asyncio.to_thread(read_sqlite, source, tables)
    names = ", ".join(t.name for t in tables)
    target = PostgresStore(url, steps=steps, timeout=30.0)
    await target.open()  # creates or migrates the schema
    await target.close()
    try:
        conn = await asyncpg.connect(url, timeout=30)
    except (asyncpg.PostgresError, OSError, TimeoutError, *LOST) as exc:
        raise StorageError(f"cannot reach {where(url)}: {exc}") from exc
    query = counts_query(tables)
    try:
        async with conn.transaction():
            await conn.execute(f"LOCK TABLE counter, {names} IN EXCLUSIVE MODE")
            before = counted(tables, await conn.fetchrow(query))
            if not before.empty:
                if before == data.counts and not force:
                    return before, False
                if not force:
                    raise StorageError(
                        f"{where(url)} already holds {before}: give --force to replace them"
                    )
                await conn.execute(f"TRUNCATE {names}")
            for t in tables:
                await conn.copy_records_to_table(
                    t.name, records=data.rows[t.name], columns=t.columns
                )
                if t.serial is not None:  # ids after the copied ones
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{t.name}', '{t.serial}'), "
                        f"COALESCE(MAX({t.serial}), 0) + 1, false) FROM {t.name}"
                    )
            await conn.execute("UPDATE counter SET last = $1", data.counts.last_id)
            after = counted(tables, await conn.fetchrow(query))
            if after != data.counts:  # raising here rolls the whole copy back
                raise StorageError(
                    f"counts differ after the copy: {after} instead of {data.counts}"
                )
    except (asyncpg.PostgresError, OSError, TimeoutError, *LOST, TypeError, ValueError) as exc:
        # TypeError, ValueError: a value of the file PostgreSQL's column cannot hold.
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise StorageError(f"cannot copy into {where(url)}: {first}") from exc
    finally:
        await conn.close()
    return after, True


def command(argv: Sequence[str], env: Mapping[str, str], steps: Sequence[Step]) -> int:
    """Run ``migrate-db`` with its arguments (both databases at the schema `steps` make);
    print one line; the exit code."""
    parser = argparse.ArgumentParser(
        prog="tictactoe-bot migrate-db",
        description="Copy the SQLite file's games, stats and ratings into PostgreSQL.",
    )
    parser.add_argument("--to", required=True, metavar="URL", help="postgresql://... target")
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=None,
        metavar="PATH",
        help="the SQLite file (default: DATABASE_PATH, else data/tictactoe.db)",
    )
    parser.add_argument(
        "--force", action="store_true", help="replace what the target already holds"
    )
    args = parser.parse_args(list(argv))
    if not args.to.startswith(("postgresql://", "postgres://")):
        parser.error("--to must be a postgresql://user:password@host:port/database URL")
    source = args.source or database_path(env)
    started = time.perf_counter()
    try:
        counts, copied = asyncio.run(copy(source, args.to, steps, force=args.force))
    except StorageError as exc:
        print(f"tictactoe-bot: migrate-db: {exc}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    if not copied:
        print(f"nothing to do: the target already holds the same {counts}")
    else:
        print(f"copied {source} in {seconds:.1f} s, counts verified: {counts}")
    return 0
