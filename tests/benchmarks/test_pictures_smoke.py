"""A tiny run of the pictures benchmark: it draws, replays and fills the cache (speed is not
checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.bot.picture_support import needs_font

ROOT = Path(__file__).resolve().parents[2]


def test_every_figure_is_printed() -> None:
    needs_font()
    out = subprocess.run(
        [
            sys.executable,
            "benchmarks/pictures/pictures.py",
            "--repeats",
            "1",
            "--games",
            "6",
            "--positions-games",
            "4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    row = r"\| [0-9.]+ \| [0-9.]+ / [0-9.]+ \| [0-9]+% \| [0-9.]+ \| [0-9,]+ \|$"
    for board in ("3x3", "5x5", "ultimate"):
        assert re.search(rf"^\| {board} {row}", out, re.MULTILINE), out
    assert re.search(r"Replay of an ultimate game \(\d+ moves, \d+ frames\).* bytes \(GIF\)", out)
    assert re.search(r"The cache with the picture of each of 6 live games", out)
    assert re.search(r"A thread beside one drawing \d+ pictures in 3 s: \d+ stalls", out)
