"""How long a call to Discord may take (``bot.discord_ui.time_limits``): unbounded outside a game's
lock, bounded under one, and a task started under a lock holds nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_ui import replies, time_limits
from bot.live.locks import GameLocks


async def test_a_call_outside_any_lock_takes_as_long_as_it_takes() -> None:
    """No lock held: no bound, a slow call ends as it would."""
    assert time_limits.budget() is None
    assert await time_limits.call(asyncio.sleep(0.05, "done")) == "done"


async def test_a_call_under_a_lock_is_cut_short_and_counts_as_too_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a game's lock (no click's window) a call ends within what is left of the hold's
    budget; cut short, it is an HTTPException that says the answer could not count."""
    monkeypatch.setattr(time_limits, "HOLD_BUDGET", 0.1)
    locks = GameLocks()
    loop = asyncio.get_running_loop()
    async with locks(1):
        budget = time_limits.budget()
        assert budget is not None and 0 < budget <= 0.1
        began = loop.time()
        with pytest.raises(time_limits.Unanswered) as cut:
            await time_limits.call(asyncio.sleep(5))
        assert loop.time() - began < 1.0
        with pytest.raises(time_limits.Unanswered):  # the hold's budget is spent: not even tried
            await time_limits.call(asyncio.sleep(0))
    assert replies.too_late(cut.value) and replies.discords_trouble(cut.value)
    assert time_limits.budget() is None  # let go


async def test_a_task_started_under_a_lock_holds_none() -> None:
    """A timer or an event started while a game is held is not bound by that hold."""
    locks = GameLocks()
    async with locks(1):
        seen = await asyncio.create_task(_budget_elsewhere())
        async with locks(2):  # two held at once: still held after the inner one
            pass
        assert time_limits.budget() is not None
    assert seen is None


async def _budget_elsewhere() -> float | None:
    return time_limits.budget()
