"""A tiny run of the regulars' benchmark: one game among them, played to its end (speed is not
checked)."""

from __future__ import annotations

from benchmarks import playground_regulars


async def test_one_game_among_the_regulars_is_played_to_its_end() -> None:
    """The field's game ends, with the accept and at least five moves clicked by the regulars."""
    got = await playground_regulars.field(1, repeats=1, seed=1)
    assert got["clicks"] >= 1 + 5  # the accept, then at least 5 moves in all (3 and 2)
    assert got["seconds"] > 0 and got["scan_ms"] >= 0
