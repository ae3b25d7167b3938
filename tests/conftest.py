"""Fixtures shared by every test folder: a real PostgreSQL server started once per run."""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.support.postgres import NoServer, PgServer, remove, start_server

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
