"""The live state's owners: one clock for every deadline (it wakes for the earliest that still
stands), and the per-game locks."""

from __future__ import annotations

import asyncio
import gc
import re
from datetime import timedelta
from pathlib import Path

import discord

from bot.live.deadlines import Deadlines
from bot.live.locks import GameLocks


async def settle() -> None:
    """Let the clock task run up to its next sleep."""
    for _ in range(3):
        await asyncio.sleep(0)


async def test_a_replaced_deadline_no_longer_wakes_the_clock() -> None:
    """A challenge's 60 s deadline replaced by a turn's 300 s: the clock sleeps for 300 s."""
    games = Deadlines(on_due=lambda game_id: None, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set(1, now + timedelta(seconds=60))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=60)

        games.set(1, now + timedelta(seconds=300))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=300)

        games.set(1, None)  # the game ended
        await settle()
        assert games._clock_wakes_at is None and games._clock is None
    finally:
        games.close()


async def test_the_clock_wakes_for_the_earliest_of_several_games() -> None:
    """Clearing the earliest of two deadlines leaves the clock waiting for the other one."""
    games = Deadlines(on_due=lambda game_id: None, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set(1, now + timedelta(seconds=100))
        games.set(2, now + timedelta(seconds=50))
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=50)

        games.set(2, None)
        await settle()
        assert games._clock_wakes_at == now + timedelta(seconds=100)
        assert games.get(1) == now + timedelta(seconds=100) and games.get(2) is None
    finally:
        games.close()


async def test_a_deadline_that_has_passed_is_handed_to_on_due_once() -> None:
    """Due games are handed over at once; a later one keeps the clock asleep."""
    due: list[int] = []
    games = Deadlines(on_due=due.append, now=discord.utils.utcnow)
    now = discord.utils.utcnow()
    try:
        games.set(7, now - timedelta(seconds=1))
        games.set(8, now + timedelta(seconds=300))
        await settle()
        assert due == [7]
        assert games.get(7) is None and games.get(8) is not None
    finally:
        games.close()


async def test_a_game_lock_lasts_while_it_is_held_or_awaited_then_is_forgotten() -> None:
    """Two users of one game share its lock; once nobody holds it, a made-up id leaves nothing."""
    games = GameLocks()
    first = games(7)
    assert games(7) is first
    async with first:
        waiter = asyncio.create_task(_take(games, 7))
        await asyncio.sleep(0)
        assert not waiter.done()  # the second user waits on the same lock
    await waiter
    del first, waiter
    gc.collect()
    for forged in range(1000, 2000):
        async with games(forged):
            pass
    gc.collect()
    assert len(games._locks) == 0


async def _take(games: GameLocks, game_id: int) -> None:
    async with games(game_id):
        pass


def test_a_boards_status_has_one_writer() -> None:
    """Only the flow's showing marks a board behind its game or caught up with it; the rest of
    the bot reads the status (``bot.live.boards``)."""
    bot = Path(__file__).resolve().parents[2] / "bot"
    writes = re.compile(r"\.boards\.(fell_behind|caught_up|unverified|ended)\(")
    writers = sorted(
        str(path.relative_to(bot))
        for path in bot.rglob("*.py")
        if writes.search(path.read_text(encoding="utf-8"))
    )
    # The owners build it (a restored game is unverified, an ended one no more).
    assert writers == ["cogs/games/flow/showing.py", "live/owners.py"]
