"""A tiny run of the history benchmark: it fills a file, reads pages with and without the
players' indexes, reads a rating history and draws a chart (speed is not checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_figure_is_printed() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "benchmarks/storage/history.py",
            "--games",
            "500",
            "--players",
            "20",
            "--repeats",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "500 games, 20 players, median of 2" in out
    assert re.search(
        r"a page of a player's games: [0-9.]+ ms with the players' indexes, "
        r"[0-9.]+ ms without",
        out,
    ), out
    assert re.search(r"a player's rating history \(up to \d+ points\): [0-9.]+ ms", out), out
    assert re.search(
        r"a rating chart of 280 points: [0-9.]+ ms wall, [0-9.]+ ms CPU, [0-9,]+ "
        r"bytes",
        out,
    ), out
