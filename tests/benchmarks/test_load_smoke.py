"""A tiny run of the load benchmark: its machinery works on the real bot (speed is not checked)."""

from __future__ import annotations

import asyncio
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
    "cpu_ms_per_move_less_simcord",
    "main_thread_shares",
    "moves",
}


async def test_three_games_complete_in_each_mode(tmp_path: Path) -> None:
    """Burst and spread runs finish every game, answer every interaction, and report the figures."""
    result = await load.main(
        [
            "--games",
            "3",
            "--size",
            "3",
            "--modes",
            "burst,spread,memory",
            "--window",
            "0.2",
            "--dir",
            str(tmp_path),
        ]
    )
    assert [r["mode"] for r in result["runs"]] == ["burst", "spread"]
    for run in result["runs"]:
        assert run.keys() >= FIELDS
        assert run["finished"] == 3 and run["stuck"] == 0, run
        assert run["unanswered"] == 0 and run["refused"] == 0 and not run["errors"], run
        assert run["moves"] >= 3 * 5  # a 3x3 game takes at least five moves
        assert run["ack_ms"]["n"] == run["interactions"] > 0
        assert run["reply_ms"]["n"] > 0 and run["lag_ms"]["n"] > 0
    (memory,) = result["memory"]
    assert memory["live"] == 3 and memory["bot_side_bytes"] > 0


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
