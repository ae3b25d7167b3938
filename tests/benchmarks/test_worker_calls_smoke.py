"""A tiny run of the worker-call benchmark: both pools answer every call rightly (speed is not
checked)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmarks.running import run


def test_both_pools_answer_every_call_and_give_a_figure_each_round(tmp_path: Path) -> None:
    written = tmp_path / "rows.json"
    options = ("--rounds", "2", "--calls", "5", "--gap", "0", "--json", str(written))
    done = run("engine/worker_calls.py", *options)
    rows = json.loads(written.read_text())
    assert set(rows) == {"ProcessPoolExecutor", "the bot's Pool"}
    assert all(len(found) == 2 for found in rows.values())
    assert "| the bot's Pool |" in done.stdout
