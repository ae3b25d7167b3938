"""What differs between SQLite and PostgreSQL, said once: a statement's placeholders, a column's
type, and a schema step with the tables it makes (how each stores a time is its ``Tx``'s:
``schema.iso``, ``pg_schema.utc``).

A `Query` is written once with ``?`` placeholders; its PostgreSQL text (``$1, $2, ...``) is made
when the query is defined, at import, not on every call, and asyncpg prepares it once per
connection. A `Step` is one version of the schema: its statements for each database and the
tables it makes, which ``migrate`` copies from a SQLite file into PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

# The words a step's statements use for a column's type, for SQLite (True) and PostgreSQL:
# {big} holds a Discord id, {real} a rating, {flag} a yes or no, {time} a time, {serial} an id
# the database hands out, and {rowid} ends a table SQLite keeps by its key alone.
TYPES = {
    True: {
        "big": "INTEGER",
        "real": "REAL",
        "flag": "INTEGER",
        "time": "TEXT",
        "serial": "INTEGER",
        "rowid": " WITHOUT ROWID",
    },
    False: {
        "big": "BIGINT",
        "real": "DOUBLE PRECISION",
        "flag": "BOOLEAN",
        "time": "TIMESTAMPTZ",
        "serial": "BIGSERIAL",
        "rowid": "",
    },
}


def numbered(sql: str) -> str:
    """The statement with PostgreSQL's numbered placeholders in place of ``?``."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


class Query:
    """One statement, in each database's placeholders (`postgres`: its own text where the two
    differ, such as a row lock SQLite does not need: its writer holds the file's lock)."""

    __slots__ = ("postgres", "sqlite")

    def __init__(self, sqlite: str, *, postgres: str | None = None) -> None:
        self.sqlite = sqlite
        self.postgres = numbered(sqlite) if postgres is None else postgres

    def __repr__(self) -> str:
        return f"Query({self.sqlite!r})"


@dataclass(frozen=True)
class Table:
    """A table a step makes, as ``migrate`` copies it: its columns in an order both databases
    read, the ones holding a time or a flag (text and 0 or 1 in SQLite), and the column whose
    sequence follows the copied ids (PostgreSQL's serial), if any."""

    name: str
    columns: tuple[str, ...]
    times: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    serial: str | None = None

    def for_postgres(self, row: Sequence[Any]) -> tuple[Any, ...]:
        """A row of the SQLite file as PostgreSQL's columns take it."""
        if not self.times and not self.flags:
            return tuple(row)
        out = []
        for column, value in zip(self.columns, row, strict=True):
            if value is not None and column in self.times:
                value = datetime.fromisoformat(value)
            elif value is not None and column in self.flags:
                value = bool(value)
            out.append(value)
        return tuple(out)


@dataclass(frozen=True)
class Step:
    """One version of the schema: its statements on each database (a released step never
    changes) and the tables it makes, in an order their foreign keys accept."""

    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]
    tables: tuple[Table, ...] = ()

    @classmethod
    def both(cls, statements: Iterable[str], tables: tuple[Table, ...] = ()) -> Step:
        """A step written once in `TYPES`' words, for both databases."""
        texts = tuple(statements)
        return cls(
            tuple(s.format(**TYPES[True]) for s in texts),
            tuple(s.format(**TYPES[False]) for s in texts),
            tables,
        )


def ordered(steps: Iterable[tuple[int, Step]]) -> tuple[Step, ...]:
    """Numbered steps (the core's and each feature's) in their order, every number from 1 once."""
    found = sorted(steps, key=lambda pair: pair[0])
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"schema steps must be numbered 1 to {len(found)} once each: {numbers}")
    return tuple(step for _, step in found)
