"""A tiny run of the worker-call benchmark: both pools answer every call rightly (speed is not
checked)."""

from __future__ import annotations

import pytest

from benchmarks import worker_calls


def test_both_pools_answer_every_call_and_give_a_figure_each_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = worker_calls.main(["--rounds", "2", "--calls", "5", "--gap", "0"])
    assert set(rows) == {"ProcessPoolExecutor", "the bot's Pool"}
    assert all(len(found) == 2 for found in rows.values())
    assert "| the bot's Pool |" in capsys.readouterr().out
