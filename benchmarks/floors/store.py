"""The durable floor's storage: one durable save of each change, the least a bot that keeps its
games across a crash can do (`game_bot.py --durable`).

The same database as the bot's store: a SQLite file with the bot's tables (``schema.migrate``),
in WAL mode with the bot's default ``synchronous=NORMAL`` (``DATABASE_SYNC``: every commit in
the log before the save returns, which any crash of the process leaves there), written
on one thread of its own so the event loop never waits on the disk; saves that queue up while
one transaction is written go together in the next one (one commit for all of them), as the
bot's store does. A save writes the game's row (its players, board and moves); nothing else
(no result counted, no check, no read back).
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bot.assembly import STEPS
from bot.config import DEFAULT_SYNC, SYNC_MODES
from bot.storage import schema

SYNC = SYNC_MODES[DEFAULT_SYNC]  # the bot's default (DATABASE_SYNC)
Row = tuple[int, int, int, int, int, int, int, str]
Waiting = list[tuple[tuple[object, ...], "asyncio.Future[None]"]]
UPSERT = (
    "INSERT INTO games (id, channel_id, x_id, o_id, challenger_id, size, k, moves, status, "
    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
    "moves = excluded.moves, status = excluded.status"
)


class DurableMoves:
    """Saves games' rows durably, on one thread, a batch per transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="floor-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._waiting: Waiting = []
        self._writing = False

    async def open(self) -> None:
        """Create the database with the bot's tables and durability settings."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self._open)

    def _open(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        schema.prepare(conn, SYNC)  # as the bot's store sets its connection up
        conn.execute("BEGIN IMMEDIATE")
        schema.migrate(conn, STEPS)
        conn.execute("COMMIT")
        self._conn = conn

    async def save(self, row: Row, status: str) -> None:
        """Write one game's row (id, channel, x, o, challenger, size, k, moves); return once
        it is committed."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append(((*row, status, datetime.now(UTC).isoformat()), done))
        self._write()
        await done

    def _write(self) -> None:
        if self._writing or not self._waiting:
            return
        batch, self._waiting = self._waiting, []
        self._writing = True
        written = asyncio.get_running_loop().run_in_executor(
            self._thread, self._commit, [row for row, _ in batch]
        )
        written.add_done_callback(lambda _: self._written(batch, written))

    def _written(self, batch: Waiting, written: asyncio.Future[None]) -> None:
        self._writing = False
        error = written.exception()
        for _, done in batch:
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)
        self._write()

    def _commit(self, rows: list[tuple[object, ...]]) -> None:
        assert self._conn is not None
        self._conn.execute("BEGIN IMMEDIATE")
        self._conn.executemany(UPSERT, rows)
        self._conn.execute("COMMIT")
