"""A tiny run of the load benchmark (``benchmarks/load/load.py``, run as a person runs it): its
machinery works on the real bot (speed is not checked)."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path
from typing import Any

import simcord

from bot.assembly import create_bot
from devkit.measure import simcord_kit as kit
from devkit.measure.simcord_runs import engine_pool
from devkit.wire.bot_process import settings_for
from tests.benchmarks.running import figures

FIELDS = {
    "ack_ms",
    "reply_ms",
    "lag_ms",
    "cpu_ms_per_move",
    "cpu_ms_per_move_bot",
    "main_thread_shares",
    "moves",
}


def load(options: list[str], folder: Path) -> dict[str, Any]:
    """The figures of ``benchmarks/load/load.py OPTIONS``."""
    return figures("load/load.py", folder, *options)


def tiny(folder: Path, *options: str) -> list[str]:
    """Arguments of a tiny run of every timed mode and memory, with `options` added."""
    return [
        *("--modes", "alone,burst,spread,memory", "--alone", "2"),
        *("--window", "0.2", "--think", "0.01,0.05", "--dir", str(folder)),
        *options,
    ]


def test_every_game_completes_in_each_mode(tmp_path: Path) -> None:
    """Through SimCord, every mode finishes every game, answers every interaction, and reports
    the figures."""
    result = load(
        tiny(tmp_path, "--discord", "simcord", "--games", "3", "--size", "3", "--profile", "5"),
        tmp_path,
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


def test_the_bot_in_its_own_process_against_the_local_discord(tmp_path: Path) -> None:
    """Against the fake Discord on 127.0.0.1, with the bot in a process of its own, every mode
    finishes every game on 3x3 and 5x5, every interaction is answered once, no request goes
    where the fake Discord does not answer, and the bot logs no error."""
    result = load(tiny(tmp_path, "--games", "4", "--size", "3,5"), tmp_path)
    modes = [(r["mode"], r["size"]) for r in result["runs"]]
    assert modes == [(m, s) for s in (3, 5) for m in ("alone", "burst", "spread")]
    for run in result["runs"]:
        assert run["discord"] == "local"
        assert run["finished"] == run["games"] == (2 if run["mode"] == "alone" else 4), run
        assert run["stuck"] == 0 and run["unanswered"] == 0 and run["refused"] == 0, run
        assert not run["errors"], run
        assert run["moves"] >= run["games"] * 5
        assert run["ack_ms"]["n"] == run["interactions"] > 0
        assert run["reply_ms"]["n"] > 0 and run["lag_ms"]["n"] > 0
        assert run["cpu_ms_per_move"] > 0
    for memory in result["memory"]:
        assert memory["discord"] == "local" and not memory["errors"], memory
        assert memory["live"] == memory["live_rss"] == 4, memory
        assert memory["bot_side_bytes"] > 0 and memory["held_per_game_bytes"] > 0, memory


async def test_lag_probe_leaves_settling_alone(tmp_path: Path) -> None:
    """SimCord settles at once with the probe ticking, and the probe keeps real time meanwhile."""
    bot = create_bot(settings_for(tmp_path))
    async with simcord.run(bot) as env:
        pool = engine_pool(bot)
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


def test_the_floor_plays_the_same_workload_and_is_compared_pair_by_pair(
    tmp_path: Path,
) -> None:
    """The floors (board built with discord.ui, as plain data, and as plain data saved durably)
    finish every game in both traffic patterns (waves, eager players) on both boards with no
    error, and each round gives every bot's CPU per interaction and the project's ratio to each
    floor."""
    result = load(
        [
            "--modes",
            "floor",
            "--games",
            "4",
            "--size",
            "3,5",
            "--pairs",
            "1",
            "--dir",
            str(tmp_path),
        ],
        tmp_path,
    )
    assert [(f["size"], f["pattern"]) for f in result["floor"]] == [
        (3, "burst"),
        (3, "eager"),
        (5, "burst"),
        (5, "eager"),
    ]
    for board in result["floor"]:
        (pair,) = board["pairs"]
        for side in ("bot", "floor", "plain_floor", "durable_floor"):
            assert pair[side]["finished"] == 4 and pair[side]["errors"] == 0, pair
            assert pair[side]["cpu_ms_per_interaction"] > 0, pair
        for floor in ("floor", "plain_floor", "durable_floor"):
            ratio = pair["bot"]["cpu_ms_per_interaction"] / pair[floor]["cpu_ms_per_interaction"]
            assert math.isclose(pair["ratios"]["bot"][floor], ratio)
            assert board["medians"]["bot"][floor] == pair["ratios"]["bot"][floor]


def test_collector_thresholds_are_compared_round_by_round(tmp_path: Path) -> None:
    """Each variant's bot runs under the thresholds it was given and finishes the burst; the
    first variant's ratio to itself is 1."""
    result = load(
        [
            "--modes",
            "gc",
            "--games",
            "4",
            "--size",
            "3",
            "--pairs",
            "1",
            "--dir",
            str(tmp_path),
            "--gc",
            "700,10,10/20000,20,10",
        ],
        tmp_path,
    )
    (board,) = result["variants"]
    first, second = board["variants"]
    assert [first["variant"], second["variant"]] == ["gc 700,10,10", "gc 20000,20,10"]
    assert first["runs"][0]["setup"]["gc_threshold"] == [700, 10, 10]
    assert second["runs"][0]["setup"]["gc_threshold"] == [20000, 20, 10]
    for variant in (first, second):
        (run,) = variant["runs"]
        assert run["finished"] == 4 and run["errors"] == 0, run
        assert run["cpu_ms_per_interaction"] > 0
    assert first["median_ratio"] == 1.0
    assert math.isclose(
        second["median_ratio"],
        second["runs"][0]["cpu_ms_per_interaction"] / first["runs"][0]["cpu_ms_per_interaction"],
    )


def test_the_speed_packages_are_compared_with_them_hidden(tmp_path: Path) -> None:
    """With discord.py's speed packages the bot parses JSON with orjson and asks for a zstd
    gateway; with them hidden, the standard library's json and zlib; both finish the burst."""
    result = load(
        ["--modes", "speed", "--games", "4", "--size", "3", "--pairs", "1", "--dir", str(tmp_path)],
        tmp_path,
    )
    (board,) = result["variants"]
    with_them, without = ((v["variant"], v["runs"][0]) for v in board["variants"])
    assert with_them[0] == "speed packages" and without[0] == "without them"
    assert {k: with_them[1]["setup"][k] for k in ("json", "gateway")} == {
        "json": "orjson",
        "gateway": "zstd-stream",
    }
    assert {k: without[1]["setup"][k] for k in ("json", "gateway")} == {
        "json": "json",
        "gateway": "zlib-stream",
    }
    for _, run in (with_them, without):
        assert run["finished"] == 4 and run["errors"] == 0, run
