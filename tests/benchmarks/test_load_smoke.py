"""A tiny run of the load benchmark: its machinery works on the real bot (speed is not checked)."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path

import simcord

from benchmarks import _loadkit as kit
from benchmarks import load
from bot.client import create_bot

FIELDS = {
    "ack_ms",
    "reply_ms",
    "lag_ms",
    "cpu_ms_per_move",
    "cpu_ms_per_move_bot",
    "main_thread_shares",
    "moves",
}


async def test_every_game_completes_in_each_mode(tmp_path: Path) -> None:
    """Every mode finishes every game, answers every interaction, and reports the figures."""
    result = await load.main(
        [
            "--games",
            "3",
            "--size",
            "3",
            "--modes",
            "alone,burst,spread,memory",
            "--alone",
            "2",
            "--window",
            "0.2",
            "--think",
            "0.01,0.05",
            "--profile",
            "5",
            "--dir",
            str(tmp_path),
        ]
    )
    assert [r["mode"] for r in result["runs"]] == ["alone", "burst", "spread"]
    for run in result["runs"]:
        assert run.keys() >= FIELDS
        assert run["finished"] == run["games"] == (2 if run["mode"] == "alone" else 3), run
        assert run["stuck"] == 0, run
        if run["main_thread_shares"]:  # a run of a few ms may catch no busy sample
            assert abs(sum(run["main_thread_shares"].values()) - 1) < 1e-6, run
            assert 0 < run["cpu_ms_per_move_bot"] <= run["cpu_ms_per_move"], run
        else:
            assert math.isnan(run["cpu_ms_per_move_bot"]), run
        assert run["unanswered"] == 0 and run["refused"] == 0 and not run["errors"], run
        assert run["moves"] >= run["games"] * 5  # a 3x3 game takes at least five moves
        assert run["ack_ms"]["n"] == run["interactions"] > 0
        assert run["reply_ms"]["n"] > 0 and run["lag_ms"]["n"] > 0
    (memory,) = result["memory"]
    assert memory["live"] == 3 and memory["bot_side_bytes"] > 0
    assert memory["held_per_game_bytes"] > 0 and memory["held_objects_per_game"] > 0


async def test_lag_probe_leaves_settling_alone(tmp_path: Path) -> None:
    """SimCord settles at once with the probe ticking, and the probe keeps real time meanwhile."""
    bot = create_bot(load.settings_for(tmp_path))
    async with simcord.run(bot) as env:
        pool = load.engine_pool(bot)
        probe = kit.LagProbe()
        probe.start()
        try:
            started = time.perf_counter()
            await env.settle(timeout=2.0)
            assert time.perf_counter() - started < 1.0
            await asyncio.sleep(0.1)
            assert len(probe.lags()) >= 3
            assert all(lag < 1.0 for lag in probe.lags())
        finally:
            probe.stop()
    kit.retire_engine(pool)
