"""The click router: a feature's buttons found by their custom id's prefix, and a prefix that
could be taken for another's refused when it is registered."""

from __future__ import annotations

import pytest

from bot.cogs.games.router import Router


def test_each_prefix_is_handed_on_as_its_event_in_the_order_registered() -> None:
    router = Router()
    router.add("pz:", "ttt_puzzle_click")
    router.add("ttt-tour:", "ttt_tournament_click")
    assert router.routes == (("pz:", "ttt_puzzle_click"), ("ttt-tour:", "ttt_tournament_click"))


@pytest.mark.parametrize("prefix", ["pz:", "pz:x", "p"])
def test_a_prefix_that_overlaps_another_is_refused(prefix: str) -> None:
    """A prefix equal to, longer than or shorter than one registered would take its clicks."""
    router = Router()
    router.add("pz:", "ttt_puzzle_click")
    with pytest.raises(ValueError, match="overlaps"):
        router.add(prefix, "ttt_other_click")
    assert router.routes == (("pz:", "ttt_puzzle_click"),)
