"""A tiny run of the picture load benchmark: the four bots answer every interaction with no
error, the picture bots' boards carry their pictures, and the cache's figure is printed (speed is
not checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.bot.picture_support import needs_font

ROOT = Path(__file__).resolve().parents[2]


def test_every_bot_plays_and_every_figure_is_printed() -> None:
    needs_font()
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/pictures/picture_load.py",
            "--games",
            "4",
            "--pairs",
            "1",
            "--memory-games",
            "4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    for name in ("emoji bot", "plain floor", "picture bot", "picture floor"):
        assert re.search(
            rf"round 1: {name} [0-9.]+ ms per interaction \(\d+ interactions, "
            r"0 errors[,)]",
            done.stderr,
        ), done.stderr
    assert "| picture bot / picture floor |" in done.stdout
    found = re.search(r"The picture cache after 4 games: (\d+) pictures", done.stdout)
    assert found is not None and int(found[1]) > 0, done.stdout
