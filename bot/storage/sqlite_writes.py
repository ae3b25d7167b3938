"""How the SQLite store writes (a base class of ``SQLiteStore``): one transaction at a time, saves
grouped into shared commits, and a commit made on the event loop's own thread when nothing waits.

- **Group commit.** Saves, game ids asked for and small writes (a `queries.Body`) that arrive
  while a transaction is being written go together into the next one: one commit for all, in
  the order they came (``save_game`` says what a failure does).
- **On the loop when the thread is idle.** At people's pace nearly every save finds the store's
  thread idle, and the trip there and back (the thread woken, then the loop woken for the
  answer) costs the process more CPU than the write itself (``benchmarks/tournament_swiss.py``:
  the durable floor's loop spends about 0.25 ms a save on it). So a batch is written on the
  loop's thread when the thread has nothing to do and SQLite's writer lock is free at once. Such
  a write never waits: with ``synchronous=NORMAL`` a commit appends to the log with no fsync, the
  log is copied into the file only on the thread (every `CHECKPOINT_EVERY` transactions;
  ``wal_autocheckpoint`` is off), and a lock held by another process sends the batch to the
  thread, which waits ``busy_timeout`` for it. With ``synchronous=FULL`` (an fsync a
  commit) every write goes to the thread.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from bot.games.record import GameRecord
from bot.storage import queries
from bot.storage.base import Outage, StorageError

if TYPE_CHECKING:
    from bot.storage.worker import Worker

log = logging.getLogger(__name__)
T = TypeVar("T")
Item = GameRecord | queries.Body | None  # a save, a body, or None: a game id
# Saves not yet written, each with its waiter.
Queued = list[tuple[Item, asyncio.Future[Any]]]
# At most this many saves a transaction: fewer commits (and fsyncs), more savers woken at once.
BATCH = 32
# At most this many saves are written together on the loop's thread; more go to the thread,
# which writes them while the loop goes on (a burst, under load).
HERE_AT_MOST = 8
# Transactions between two checkpoints of the log, made on the store's thread: a move's save
# adds one to four pages, SQLite's own default checkpoints at 1,000.
CHECKPOINT_EVERY = 256


class SQLiteWrites:
    """The store's writes: `_write` on its thread, `_queued` and `_together` grouped."""

    if TYPE_CHECKING:
        path: Path
        busy_timeout: float
        synchronous: str
        outage: Outage
        _executor: Worker | None
        _conn: sqlite3.Connection | None

        def _db(self) -> sqlite3.Connection: ...
        def _explain(self, exc: sqlite3.Error) -> str: ...

    def __init__(self) -> None:
        self._queue: Queued = []  # saves (and ids asked for: None) not yet written
        self._batch: asyncio.Future[list[Any]] | None = None  # being written on the thread now
        self._unchecked = 0  # transactions since the log's last checkpoint
        self._soon = False  # `_write_soon` is due at the end of the loop's turn

    async def _queued(self, item: Item) -> Any:
        """Queue `item` for the next commit; its result."""
        if self._executor is None:
            raise StorageError(f"the database {self.path} is not open")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((item, done))
        self._flush()
        return await done

    async def _together(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """`body` in the next group commit (see ``save_game``); its failure undoes its writes."""
        result = await self._queued(body)
        if isinstance(result, queries.Failed):
            if not isinstance(result.error, sqlite3.Error):
                raise result.error
            failure = StorageError(f"cannot {what}: {self._explain(result.error)}")
            self.outage.failed(failure)
            raise failure from result.error
        return cast(T, result)

    async def _drain(self) -> None:
        """Write everything queued, and wait for it."""
        while self._executor is not None and (self._batch is not None or self._queue):
            self._flush()
            if self._batch is not None:
                await asyncio.wait({self._batch})
            await asyncio.sleep(0)  # let the batch's callback answer its savers

    def _flush(self) -> None:
        """Write the queued saves: on the thread, unless a batch is being written there (it
        calls back when done), or on the loop's thread at the end of its turn while the store's
        thread is idle (`_write_soon`)."""
        executor = self._executor
        if self._batch is not None or self._soon or not self._queue or executor is None:
            return
        if self._may_write_here(executor):
            self._soon = True
            asyncio.get_running_loop().call_soon(self._write_soon)
        else:
            self._send(executor)

    def _write_soon(self) -> None:
        """The saves of the loop's turn, written together here while the store's thread is
        idle, few are waiting and SQLite answers at once; else on the thread."""
        self._soon = False
        while self._batch is None and self._queue and (executor := self._executor) is not None:
            if len(self._queue) > HERE_AT_MOST or not self._may_write_here(executor):
                self._send(executor)
                return
            batch, self._queue = self._queue, []
            try:
                results = self._write_here([item for item, _ in batch])
            except Exception as error:  # a StorageError, or a bug: the savers' to see
                self._answer(batch, None, error)
                continue
            if results is None:  # locked by another process: the thread waits for it
                self._queue[:0] = batch
                self._send(executor)
                return
            self._answer(batch, results, None)

    def _send(self, executor: Worker) -> None:
        """The next batch to the thread; answered when written (`_saved`)."""
        batch, self._queue = self._queue[:BATCH], self._queue[BATCH:]
        written = executor.submit(self._write_batch, [item for item, _ in batch])
        self._batch = written
        written.add_done_callback(lambda _: self._saved(batch, written))

    def _saved(self, batch: Queued, written: asyncio.Future[list[Any]]) -> None:
        """Answer everyone waiting on a batch written on the thread, then write what queued up
        meanwhile."""
        self._batch = None
        error = written.exception()
        self._answer(batch, written.result() if error is None else None, error)
        self._flush()

    def _answer(
        self, batch: Queued, results: list[Any] | None, error: BaseException | None
    ) -> None:
        """Each saver of a written batch its result, or the batch's error."""
        if isinstance(error, StorageError):
            self.outage.failed(error)
        elif error is None and self.outage.since is not None:
            self.outage.answered()
        for (_, done), result in zip(batch, results or [None] * len(batch), strict=True):
            if done.done():
                continue  # the saver stopped waiting (cancelled)
            if error is None:
                done.set_result(result)
            elif isinstance(error, StorageError) and len(batch) > 1:
                copy = StorageError(str(error))
                copy.__cause__ = error.__cause__
                done.set_exception(copy)
            else:
                done.set_exception(error)

    def _may_write_here(self, executor: Worker) -> bool:
        return (
            self.synchronous == "NORMAL"
            and executor.idle
            and self._unchecked < CHECKPOINT_EVERY  # the thread's next write checkpoints
        )

    # -- transactions (on the store's thread, but `_write_here`) -----------------------------

    def _write(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` in one write transaction; roll back and raise StorageError on failure."""
        conn = self._db()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StorageError(f"cannot {what}: {self._explain(exc)}") from exc
        result = self._commit(conn, what, body)
        if self._unchecked >= CHECKPOINT_EVERY:
            self._checkpoint(conn)
        return result

    def _write_batch(self, items: list[Item]) -> list[Any]:
        return self._write(queries.batch_name(items), lambda c: _each(c, items))

    def _write_here(self, items: list[Item]) -> list[Any] | None:
        """The batch written on the loop's thread, or None if SQLite's writer lock is not free
        at once (the thread then takes the batch, and waits for the lock)."""
        conn = self._conn
        if conn is None or not self._began_at_once(conn):
            return None
        return self._commit(conn, queries.batch_name(items), lambda c: _each(c, items))

    def _began_at_once(self, conn: sqlite3.Connection) -> bool:
        try:
            conn.execute("PRAGMA busy_timeout = 0")
            try:
                conn.execute("BEGIN IMMEDIATE")
            finally:
                conn.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
        except sqlite3.Error:  # locked by another process, or worse: the thread says which
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return False
        return True

    def _commit(
        self, conn: sqlite3.Connection, what: str, body: Callable[[sqlite3.Connection], T]
    ) -> T:
        """`body` in the transaction just begun, then the commit; a rollback on failure."""
        try:
            try:
                result = body(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StorageError(f"cannot {what}: {self._explain(exc)}") from exc
        self._unchecked += 1
        return result

    def _checkpoint(self, conn: sqlite3.Connection) -> None:
        """Copy the log into the file as far as no reader needs it (PASSIVE: waits for none)."""
        self._unchecked = 0
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:  # the log only grows until the next one
            log.warning("cannot checkpoint %s: %s", self.path, exc)


def _each(conn: sqlite3.Connection, items: Sequence[Item]) -> list[Any]:
    return [queries.write(conn, item) for item in items]
