"""The chaos soak, two minutes of it: two shards on PostgreSQL under steady play while every
kind of fault comes, then the whole history checked (see benchmarks/chaos/soak.py, run here as a
person runs it, on a PostgreSQL server of its own)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from devkit.postgres import NoServer, server_bin
from tests.benchmarks.running import figures


def test_two_minutes_of_faults_lose_nothing(tmp_path: Path) -> None:
    """Every kind of fault injected; no move lost, duplicated or made up; every board as stored;
    every game finished or answering within 3 s; memory and descriptors kept; no traceback
    outside the faults."""
    try:
        server_bin()
    except NoServer as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is needed under CI: {exc}")
        pytest.skip(str(exc))
    options = ("--duration", "120", "--tables", "24", "--seed", "1", "--keep", str(tmp_path))
    result = figures("chaos/soak.py", tmp_path, *options, timeout=900)

    assert result["kinds"] and set(result["faults"]) == set(result["kinds"])
    assert result["checks"] == {}, result["problems"]
    assert result["moves_played"] > 200 and result["finished"] > 20
    assert result["ack_outside_faults"]["interactions"] > 200
