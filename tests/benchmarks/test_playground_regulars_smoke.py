"""A tiny run of the regulars' benchmark: one game among them, played to its end (speed is not
checked)."""

from __future__ import annotations

import re

from tests.benchmarks.running import run


def test_one_game_among_the_regulars_is_played_to_its_end() -> None:
    """The field's game ends, with the accept and at least five moves clicked by the regulars."""
    done = run("playground/playground_regulars.py", "--games", "1", "--repeats", "1", "--seed", "1")
    row = r"^\| 1 \| (?P<scan>[0-9.]+) \| (?P<seconds>[0-9]+) \| (?P<clicks>[0-9]+) \| [0-9.]+ \|$"
    got = re.search(row, done.stdout, re.MULTILINE)
    assert got is not None, done.stdout
    assert int(got["clicks"]) >= 1 + 5  # the accept, then at least 5 moves in all (3 and 2)
    assert int(got["seconds"]) > 0 and float(got["scan"]) >= 0
