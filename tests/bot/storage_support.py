"""What the tests of storage trouble share: the problems logged, the errors a store raised, the one
clear line an outage is worth, a database locked by another process or made read-only."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.storage.base import StorageError


def problems(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The warnings and errors logged so far."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def spy_on_errors(store: Any, name: str) -> list[StorageError]:
    """Record every StorageError the real store's method `name` raises (and still raise it)."""
    seen: list[StorageError] = []
    real = getattr(store, name)

    async def watched(*args: Any, **options: Any) -> Any:
        try:
            return await real(*args, **options)
        except StorageError as exc:
            seen.append(exc)
            raise

    setattr(store, name, watched)
    return seen


def one_clear_line(caplog: pytest.LogCaptureFixture, error: StorageError) -> None:
    """Exactly one warning or error was logged: a single line carrying the storage error."""
    logged = problems(caplog)
    assert len(logged) == 1, [r.getMessage() for r in logged]
    line = logged[0].getMessage()
    assert str(error) in line and "\n" not in line
    assert logged[0].exc_info is None  # no traceback: the message says it all


@contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another process holds an exclusive lock on the database file."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def read_only(store: Any, on: bool) -> None:
    """Make the bot's own connection refuse writes, as a read-only file or mount would."""
    pragma = f"PRAGMA query_only = {'ON' if on else 'OFF'}"
    await store._run(lambda: store._conn.execute(pragma))
