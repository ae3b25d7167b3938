"""The bot's other posts through a crash at the call that makes them: a game's first board and a
rematch's (each an interaction's answer), and the daily puzzle (a post in a channel).

An interaction is answered once, so a restarted bot cannot post its board twice: killed while
Discord takes the answer (the board is up, the bot never hears of it, its message id never
stored), the game is in the store, and its board still plays after the restart, its first move
telling the game its message (so the clock's end is shown there too). The daily puzzle is claimed
in the store before it is posted: killed before or while Discord takes the post, the restarted
bot looks for the post in the channel and makes it only if it is not there (with a nonce: a post
Discord took already is answered with the first), so the day has one post, never none.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.assembly import sqlite_store
from devkit.local_game import LocalBot, Table, texts, until
from devkit.local_tournament import public
from devkit.localdiscord import Channel, FakeDiscord, User
from devkit.localdiscord.faults import BEFORE, DURING, Trap
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


@dataclass
class Club:
    """A server with the bot: #games, #puzzles and alice; the bot started against it."""

    fake: FakeDiscord
    bot: LocalBot
    table: Table
    games: Channel
    puzzles: Channel
    alice: User


@contextlib.asynccontextmanager
async def club(folder: Path) -> AsyncIterator[Club]:
    fake = FakeDiscord()
    guild = fake.create_guild("club")
    games, puzzles = guild.create_text_channel("games"), guild.create_text_channel("puzzles")
    alice = guild.add_member(fake.create_user("alice"))
    await fake.start()
    bot = LocalBot(fake, folder)
    await bot.start()
    try:
        yield Club(fake, bot, Table(fake), games, puzzles, alice)
    finally:
        await bot.stop()
        await fake.close()


async def killed_at(
    fake: FakeDiscord, bot: LocalBot, route: str, when: str, **trap: object
) -> None:
    """Arm a kill at the next request of `route`; once it has come, start the bot again."""
    armed = fake.trap(Trap(route, when, bot.kill, **trap))  # type: ignore[arg-type]
    await armed.sprung.wait()
    await bot.start()


async def test_a_first_board_whose_answer_a_kill_held_plays_on_after_the_restart(
    tmp_path: Path,
) -> None:
    async with club(tmp_path) as c:
        restarted = asyncio.create_task(killed_at(c.fake, c.bot, "answer", DURING))
        await c.fake.slash(c.alice, c.games, "tictactoe")
        await restarted
        (board,) = [m for m in public(c.fake, c.games.id) if c.table.free(int(m["id"]))]
        message = int(board["id"])
        game_id = c.table.game_id(message)
        await c.table.click(c.alice, c.games, message, 4)
        await until(lambda: c.table.marks(message) == 2, "the move and the bot's reply")
        store = sqlite_store(c.bot.database)
        await store.open()
        try:
            game = await store.load_game(game_id)
        finally:
            await store.close()
        assert game is not None and game.message_id == message  # told by the first move
        assert len([m for m in public(c.fake, c.games.id) if "ttt:" in str(m["components"])]) == 1


async def test_a_rematch_whose_answer_a_kill_held_plays_on_after_the_restart(
    tmp_path: Path,
) -> None:
    async with club(tmp_path) as c:
        first = (await c.table.command(c.alice, c.games, "tictactoe")).message_id
        assert first is not None
        while "rematch" not in c.table.controls(first):
            await c.table.click(c.alice, c.games, first, c.table.free(first)[0])
        restarted = asyncio.create_task(killed_at(c.fake, c.bot, "answer", DURING))
        rematch = f"ttt:{c.table.game_id(first)}:rematch"
        await c.fake.click("rematch", c.alice, c.games, first, rematch)
        await restarted
        boards = [m for m in public(c.fake, c.games.id) if int(m["id"]) != first]
        (board,) = [m for m in boards if c.table.free(int(m["id"]))]  # the new game's cells
        message = int(board["id"])
        before = c.table.marks(message)
        await c.table.click(c.alice, c.games, message, c.table.free(message)[0])
        await until(lambda: c.table.marks(message) > before, "the rematch's first move")


@pytest.mark.parametrize("when", [BEFORE, DURING])
async def test_the_daily_puzzle_is_posted_once_through_a_kill_at_its_post(
    tmp_path: Path, when: str
) -> None:
    async with club(tmp_path) as c:
        hour = datetime.now(UTC).hour
        settings = {"puzzle_channel": c.puzzles, "puzzle_hour": hour}
        await c.table.command(c.alice, c.games, "tictactoe-settings set", **settings)
        await c.bot.stop()  # the post is made at the next start (and each hour)
        here = c.puzzles.id
        armed = c.fake.trap(Trap("channel post", when, c.bot.kill, where=lambda ch: ch == here))
        await c.bot.start()
        await armed.sprung.wait()
        assert len(public(c.fake, here)) == (when == DURING)
        await c.bot.start()

        def posts() -> list[dict[str, object]]:
            return [m for m in public(c.fake, here) if "pz:daily" in str(m["components"])]

        await until(lambda: len(posts()) >= 1, "the daily puzzle posted")
        await asyncio.sleep(1.0)  # time for a second post, were one to come
        assert len(posts()) == 1, [texts(m)[:60] for m in posts()]
