"""The registry: one clock for every deadline (it wakes for the earliest that still stands), and
the per-game locks."""

from __future__ import annotations

import asyncio
import gc
from datetime import timedelta

import discord

from bot.live.registry import GameRegistry


async def settle() -> None:
    """Let the clock task run up to its next sleep."""
    for _ in range(3):
        await asyncio.sleep(0)


async def test_a_replaced_deadline_no_longer_wakes_the_clock() -> None:
    """A challenge's 60 s deadline replaced by a turn's 300 s: the clock sleeps for 300 s."""
    games = GameRegistry(on_due=lambda game_id: None, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set_deadline(1, now + timedelta(seconds=60))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=60)

        games.set_deadline(1, now + timedelta(seconds=300))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=300)

        games.set_deadline(1, None)  # the game ended
        await settle()
        assert games._clock_wakes_at is None and games._clock is None
    finally:
        games.close()


async def test_the_clock_wakes_for_the_earliest_of_several_games() -> None:
    """Clearing the earliest of two deadlines leaves the clock waiting for the other one."""
    games = GameRegistry(on_due=lambda game_id: None, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set_deadline(1, now + timedelta(seconds=100))
        games.set_deadline(2, now + timedelta(seconds=50))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=50)

        games.set_deadline(2, None)
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=100)
        assert games.deadline(1) == now + timedelta(seconds=100) and games.deadline(2) is None
    finally:
        games.close()


async def test_a_deadline_that_has_passed_is_handed_to_on_due_once() -> None:
    """Due games are handed over at once; a later one keeps the clock asleep."""
    due: list[int] = []
    games = GameRegistry(on_due=due.append, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set_deadline(7, now - timedelta(seconds=1))
        games.set_deadline(8, now + timedelta(seconds=300))
        await settle()
        assert due == [7]
        assert games.deadline(7) is None and games.deadline(8) is not None
    finally:
        games.close()


async def test_a_game_lock_lasts_while_it_is_held_or_awaited_then_is_forgotten() -> None:
    """Two users of one game share its lock; once nobody holds it, a made-up id leaves nothing."""
    games = GameRegistry(on_due=lambda game_id: None, now=discord.utils.utcnow)
    first = games.lock(7)
    assert games.lock(7) is first
    async with first:
        waiter = asyncio.create_task(_take(games, 7))
        await asyncio.sleep(0)
        assert not waiter.done()  # the second user waits on the same lock
    await waiter
    del first, waiter
    gc.collect()
    for forged in range(1000, 2000):
        async with games.lock(forged):
            pass
    gc.collect()
    assert len(games._locks) == 0


async def _take(games: GameRegistry, game_id: int) -> None:
    async with games.lock(game_id):
        pass
