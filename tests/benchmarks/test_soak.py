"""The chaos soak, two minutes of it: two shards on PostgreSQL under steady play while every
kind of fault comes, then the whole history checked (see benchmarks/soak.py)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import soak
from benchmarks.chaos.faults import KINDS
from devkit.postgres import PgServer


async def test_two_minutes_of_faults_lose_nothing(
    tmp_path: Path, postgres_server: PgServer
) -> None:
    """Every kind of fault injected; no move lost, duplicated or made up; every board as stored;
    every game finished or answering within 3 s; memory and descriptors kept; no traceback
    outside the faults."""
    args = soak.parse(
        ["--duration", "120", "--tables", "24", "--seed", "1", "--keep", str(tmp_path)]
    )
    result = await soak.soak(args, server=postgres_server)

    assert set(result["faults"]) == set(KINDS)
    assert result["checks"] == {}, result["problems"]
    assert result["moves_played"] > 200 and result["finished"] > 20
    assert result["ack_outside_faults"]["interactions"] > 200
