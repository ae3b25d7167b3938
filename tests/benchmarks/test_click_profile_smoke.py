"""A tiny run of the click profile: its machinery works on the real bot (speed is not checked)."""

from __future__ import annotations

import math
from pathlib import Path

from tests.benchmarks import running


def test_each_bots_cpu_is_split_by_thread_and_the_bots_loop_by_part(tmp_path: Path) -> None:
    """Every bot plays both kinds of games with no error; the plain floor writes nothing, the
    durable floor writes on a storage thread, the bot on its store's thread or, while that one
    is idle (a small run: all the time), on the loop's (its save, one part of the loop thread);
    the parts of the bot's loop thread add up to its CPU, the save and the drawing among them,
    and the metrics only when they are on."""
    options = ("--games", "4", "--rounds", "1", "--dir", str(tmp_path))
    result = running.figures("load/click_profile.py", tmp_path, *options)
    for kind in ("against the bot", "between people"):
        bots = {name: runs[0] for name, runs in result["results"][kind].items()}
        for name, figures in bots.items():
            assert figures["errors"] == 0 and figures["unfinished"] == 0, (kind, name)
            assert figures["CPU"] > 0 and figures["loop thread"] > 0, (kind, name)
        assert bots["plain floor"]["storage thread"] == 0
        assert bots["durable floor"]["storage thread"] > 0
        bot = bots["bot"]
        parts = sum(value for figure, value in bot.items() if figure.startswith("loop: "))
        assert math.isclose(parts, bot["loop thread"])
        assert bot["loop: save"] > 0 and bot["loop: drawing"] > 0
        assert "loop: metrics" not in bot and bots["bot with metrics"]["loop: metrics"] > 0
