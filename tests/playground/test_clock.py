"""The playground's world: the simulated Discord keeps to the wall clock, in the real bot, and
its members can switch the server's settings (the board's look among them)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import simcord
from simcord import MemberActor
from simcord.builders import ChannelHandle

from bot.assembly import create_bot
from bot.config import Settings
from bot.playground.clock import WallClock, start_at_wall_clock
from bot.playground.world import build_server
from devkit.simcord_board import board_message, text

COOLDOWN = 2.0  # seconds between two challenges from one member


@dataclasses.dataclass
class World:
    """The simulated Discord, the playground's clock, #games, and two members."""

    env: simcord.Env
    clock: WallClock
    channel: ChannelHandle
    alice: MemberActor
    bob: MemberActor


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """The real bot on a real SQLite file, its simulated Discord on the wall clock, one page."""
    settings = Settings(
        token="playground.needs.no-token",
        database_path=tmp_path / "games.db",
        challenge_cooldown=COOLDOWN,
    )
    bot = create_bot(dataclasses.replace(settings, engine_workers=1))
    env = simcord.Env(bot, check_errors=False, settle_timeout=4.0)
    start_at_wall_clock(env)
    try:
        await env.start()
        server = build_server(env)
        channel, (alice, bob, _) = server.channel, server.members
        async with env.preview(channel, viewers=[alice, bob], layout="channel") as page:
            yield World(env, WallClock(env, page), channel, alice, bob)
        await env.shutdown()
    finally:
        await bot.release()


async def test_the_simulated_clock_reads_the_wall_clock(world: World) -> None:
    """Started at today's time, it is moved to now by each tick, however long the wait."""
    assert abs((world.env.now() - datetime.now(UTC)).total_seconds()) < 5
    await asyncio.sleep(1.5)
    await world.clock.tick()
    assert abs((world.env.now() - datetime.now(UTC)).total_seconds()) < 0.5


async def test_a_cooldown_runs_out_in_real_time(world: World) -> None:
    """A challenge declined: at once a second one is refused; after the cooldown, it is made."""
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe", opponent=bob)
    await bob.click(board_message(channel), label="Decline")

    too_soon = await alice.slash(channel, "tictactoe", opponent=bob)
    assert too_soon.ephemeral
    assert too_soon.response is not None and "challenge again" in too_soon.response.content

    await asyncio.sleep(COOLDOWN + 0.5)
    await world.clock.tick()
    again = await alice.slash(channel, "tictactoe", opponent=bob)
    assert not again.ephemeral
    assert "challenges you" in text(env, board_message(channel))


async def test_the_members_switch_the_boards_look(world: World) -> None:
    """Any member of the playground may change its settings: marks and moves by reactions."""
    env, channel, alice = world.env, world.channel, world.alice
    done = await alice.slash(channel, "tictactoe-settings set", mark_x="🐱", input="reactions")
    assert done.response is not None and done.response.content.startswith("Saved.")
    await alice.slash(channel, "tictactoe")
    board = board_message(channel)
    await alice.react(board, "5️⃣")
    assert "🐱" in text(env, board).split("\n\n")[1]
