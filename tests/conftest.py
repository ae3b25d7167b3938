"""Fixtures shared by every test folder: a real PostgreSQL server started once per run, and a
watch on the bot's log that fails any test whose bot logged a traceback it did not cause on
purpose (a traceback in the bot's log means a bug; expected conditions are one line)."""

from __future__ import annotations

import itertools
import logging
import os
import subprocess
from collections.abc import AsyncIterator, Iterator

import pytest

from devkit.postgres import NoServer, PgServer, remove, start_server

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A PostgreSQL server on 127.0.0.1 for this run. Missing: fails under CI, skips elsewhere."""
    try:
        server = start_server()
    except (NoServer, subprocess.CalledProcessError, OSError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is needed under CI: {detail}")
        pytest.skip(f"no PostgreSQL server: {detail}")
    yield server
    remove(server)


@pytest.fixture
async def postgres_url(postgres_server: PgServer) -> AsyncIterator[str]:
    """The URL of a fresh, empty database on the test server, dropped after the test."""
    import asyncpg

    name = f"t{os.getpid()}_{next(_databases)}"
    admin = await asyncpg.connect(postgres_server.admin_url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    yield postgres_server.url(name)
    admin = await asyncpg.connect(postgres_server.admin_url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


class _Tracebacks(logging.Handler):
    """Keeps every record of the bot's and discord.py's loggers that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.name.split(".")[0] in ("bot", "discord"):
            self.found.append(record)


@pytest.fixture(autouse=True)
def no_tracebacks_in_the_bots_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose bot (in this process) logged a traceback, unless the test is marked
    ``tracebacks`` (it breaks something on purpose and checks what is logged)."""
    watch = _Tracebacks()
    root = logging.getLogger()
    root.addHandler(watch)
    try:
        yield
    finally:
        root.removeHandler(watch)
    if watch.found and request.node.get_closest_marker("tracebacks") is None:
        lines = [f"{r.name}: {r.getMessage()} ({r.exc_info[0].__name__})" for r in watch.found]
        pytest.fail("the bot logged a traceback:\n" + "\n".join(lines), pytrace=False)
