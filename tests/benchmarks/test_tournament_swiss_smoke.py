"""A tiny run of `benchmarks/tournaments/tournament_swiss.py` (6 players, 2 rounds, a fast pace),
as a person runs it: the figures are printed and written, and they add up (no speed is checked)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_tiny_swiss_prints_sane_figures(tmp_path: Path) -> None:
    figures = tmp_path / "swiss.json"
    command = [
        sys.executable,
        "benchmarks/tournaments/tournament_swiss.py",
        "--players",
        "6",
        "--rounds",
        "2",
    ]
    command += ["--think", "0.02,0.05", "--json", str(figures), "--pairs", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout
    for words in ("| 1 | 3 |", "| 2 | 3 |", "| end |", "p50", "ratio", "2 pairs", "durable"):
        assert words in printed, printed

    found = json.loads(figures.read_text())
    bot, floor, own, summary = found["bot"], found["floor"], found["games"], found["summary"]
    swiss = found["tournament_floor"]  # the same Swiss on the tournament floor
    durable = found["durable_floor"]  # and on it with a durable save of each change
    assert bot["errors"] == own["errors"] == floor["errors"] == swiss["errors"] == [], found
    assert durable["errors"] == [] and durable["unanswered"] == 0, durable
    assert bot["unanswered"] == swiss["unanswered"] == 0 and floor["stuck"] == own["stuck"] == 0
    assert [r["round"] for r in durable["rounds"]] == [1, 2]
    assert summary["durable_floor_ratio"] == (
        summary["bot_cpu_ms_per_interaction"] / summary["durable_floor_cpu_ms_per_interaction"]
    )
    assert [r["round"] for r in bot["rounds"]] == [1, 2]
    assert [r["round"] for r in swiss["rounds"]] == [1, 2]
    for kind in ("threads made", "members added", "threads archived"):  # each game's calls
        made = [
            sum(r["by_kind"].get(kind, 0) for r in run["rounds"]) + run["ending"].get(kind, 0)
            for run in (bot, swiss)
        ]
        assert made[0] == made[1] == (6 if kind == "members added" else 3) * 2, (kind, made)
    for r in bot["rounds"] + swiss["rounds"]:
        assert r["games"] == 3
        assert 3 * 5 <= r["clicks"] <= 3 * 9  # a 3x3 game takes 5 to 9 moves
        kinds = r["by_kind"]
        assert kinds["threads made"] == 3 and kinds["members added"] == 6, kinds
        assert kinds["messages posted"] >= 3  # the three boards
        assert kinds["responses"] == r["clicks"]  # each click answered once
        assert r["requests"] == sum(kinds.values())
        assert 0 < r["first_board_s"] <= r["all_boards_s"], r
    for run in (bot, swiss):
        assert run["ending"].get("messages posted", 0) >= 1  # the podium
        clicks = sum(r["clicks"] for r in run["rounds"])
        assert run["interactions"] == 1 + 6 + 1 + clicks  # create, six joins, start, the moves
        assert run["cpu"] > 0
    for games in (floor, own):  # the same games, on the plain floor and on the bot
        assert games["games"] == 6
        assert games["interactions"] >= 6 * (2 + 5)  # /tictactoe, Accept and 5 to 9 moves each
        assert games["cpu"] > 0
    # CPU only: the loop-lag probe (a 10 ms ticker, 8 to 15 ms of CPU a second) is off in all three.
    for run in (bot, floor, own, swiss):
        assert run["lag_samples"] == 0 and run["wall"] > 0, run
    assert summary["boards_max_s"] >= summary["boards_p50_s"] > 0
    ratio = summary["ratio"]
    assert math.isfinite(ratio) and ratio > 0
    assert ratio == summary["bot_cpu_ms_per_interaction"] / summary["floor_cpu_ms_per_interaction"]
    assert math.isfinite(summary["games_ratio"]) and summary["games_ratio"] > 0
    # The same CPU by game played: every run played the same games.
    assert summary["ratio_per_game"] == bot["cpu"] / floor["cpu"]
    assert summary["tournament_to_games_per_game"] == bot["cpu"] / own["cpu"]
    assert "by game, the tournament to the plain floor" in printed
    # Against the tournament floor: the same Swiss, as many interactions.
    assert summary["tournament_floor_ratio"] == (
        summary["bot_cpu_ms_per_interaction"] / summary["tournament_floor_cpu_ms_per_interaction"]
    )
    assert "against the tournament floor" in printed
    # --pairs 1: one more pair of runs, and the first pair is the runs above
    first, more = found["pairs"]
    assert first["ratio"] == summary["tournament_floor_ratio"]
    assert more["bot"] > 0 and more["floor"] > 0 and more["ratio"] == more["bot"] / more["floor"]
