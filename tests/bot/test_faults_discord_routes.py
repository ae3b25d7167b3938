"""Discord failing one route a click uses (the answer, the follow-up, the webhook edit, the channel
edit) with 500, 502, 503, 504 or 429, through the real bot process and the local Discord, which
refuses a first response after 3 s as Discord does.

Whatever failed, the other player's clicks are answered within 3 s, and every board shows its
stored game within a few seconds of Discord answering again with nobody clicking (a person
waiting for the bot's move does not click), a SIGKILL in the middle included.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.games.record import GameRecord
from devkit.local_game import LocalBot, Table, until
from devkit.localdiscord import Channel, FakeDiscord, User
from devkit.localdiscord.model import Interaction
from tests.bot.user_install_support import NEEDS_PROCESSES, stored

pytestmark = NEEDS_PROCESSES

STATUSES = (500, 502, 503, 504, 429)
ANSWER = 3.0  # seconds Discord gives a first response
CAUGHT_UP = 4.5  # seconds after Discord answers again within which every board shows its game


async def clicked(
    fake: FakeDiscord, table: Table, user: User, channel: Channel, message_id: int, cell: int
) -> Interaction:
    """A click on a cell, not waited for (its answer may never come)."""
    custom_id = f"ttt:{table.game_id(message_id)}:{cell}"
    iid = await fake.click(str(cell), user, channel, message_id, custom_id)
    return fake.interactions[iid]


async def answered(interaction: Interaction) -> None:
    """Wait for the interaction's answer, a little longer than it could count."""
    timing = interaction.timing
    await until(lambda: timing.acked is not None, f"an answer to {interaction.id}", ANSWER + 1)


def in_time(interaction: Interaction) -> bool:
    latency = interaction.timing.ack_latency
    return latency is not None and latency < ANSWER


async def shows_store(bot: LocalBot, table: Table, message_id: int) -> bool:
    """Whether the board shows as many marks as its stored game has moves."""
    game: GameRecord | None = await stored(bot, table.game_id(message_id))
    return game is not None and table.marks(message_id) == len(game.moves)


async def caught_up(bot: LocalBot, table: Table, boards: list[int], since: float) -> float:
    """Wait until every board shows its stored game; seconds from `since` (perf_counter)."""
    give_up = since + CAUGHT_UP
    while True:
        done = [await shows_store(bot, table, board) for board in boards]
        if all(done):
            return time.perf_counter() - since
        assert time.perf_counter() < give_up, f"boards not caught up: {done}\n{bot.log()}"
        await asyncio.sleep(0.05)


def world(fake: FakeDiscord, tables: int) -> list[tuple[Channel, User, User]]:
    """One server with `tables` channels, and two people at each (a challenge has a cooldown)."""
    guild = fake.create_guild("outage")
    return [
        (
            guild.create_text_channel(f"table-{i}"),
            guild.add_member(fake.create_user(f"alice{i}")),
            guild.add_member(fake.create_user(f"bob{i}")),
        )
        for i in range(tables)
    ]


async def reply_stored(bot: LocalBot, table: Table, message_id: int, moves: int) -> None:
    """Wait until the game on a board has `moves` moves stored (the bot's reply among them)."""
    for _ in range(200):
        game = await stored(bot, table.game_id(message_id))
        if game is not None and len(game.moves) >= moves:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot's reply was not stored\n{bot.log()}")


async def running(fake: FakeDiscord, folder: Path, **env: str) -> tuple[LocalBot, Table]:
    fake.callback_deadline = ANSWER
    bot = LocalBot(fake, folder, **env)
    await bot.start()
    return bot, Table(fake)


async def test_a_failed_answer_holds_no_click_and_every_board_catches_up(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """For each status, Discord fails every answer for 1.5 s. Between people: Bob's move is
    answered or not, Alice's click a second later is answered within 3 s all the same. Against
    the bot (3x3: both moves in the answer): the board shows both with no click, the channel
    edits failing too for as long."""
    places = world(local_discord, 2 * len(STATUSES))
    bot, table = await running(local_discord, tmp_path)
    try:
        for n, status in enumerate(STATUSES):
            (people, alice, bob), (vs_bot, _, _) = places[2 * n], places[2 * n + 1]
            duel = (await table.command(alice, people, opponent=bob)).message_id
            solo = (await table.command(alice, vs_bot)).message_id
            assert duel is not None and solo is not None
            await table.click(bob, people, duel, "accept")
            await table.click(alice, people, duel, 0)

            local_discord.fail_route("answer", 1.5, status)
            local_discord.fail_route("channel edit", 1.5, status)
            began = time.perf_counter()
            bobs = await clicked(local_discord, table, bob, people, duel, 4)
            mine = await clicked(local_discord, table, alice, vs_bot, solo, 4)
            await asyncio.sleep(1.0)
            alices = await clicked(local_discord, table, alice, people, duel, 8)
            await answered(alices)

            assert in_time(alices), (status, alices.timing)
            await reply_stored(bot, table, solo, 2)
            await caught_up(bot, table, [duel, solo], began + 1.5)
            assert table.marks(solo) == 2  # the bot's move is on the board: nobody clicked
            duel_game = await stored(bot, table.game_id(duel))
            assert duel_game is not None and duel_game.moves[:2] == (0, 4)  # Bob's move kept
            assert bobs.timing.emitted and mine.timing.emitted
    finally:
        await bot.stop()
    assert local_discord.injected


@pytest.mark.parametrize(
    "routes", [("webhook edit", "channel edit"), ("webhook edit", "channel edit", "follow-up")]
)
async def test_the_bots_reply_after_a_failed_edit_shows_with_no_click(
    local_discord: FakeDiscord, tmp_path: Path, routes: tuple[str, ...]
) -> None:
    """A 4x4 reply follows the click's answer in an edit of it (then of the message through the
    channel). For each status, those edits (and the follow-up that says why) fail for 2 s: a
    click on the game meanwhile is answered within 3 s, and the reply is on the board within a
    few seconds of Discord answering again, nobody clicking."""
    places = world(local_discord, len(STATUSES))
    bot, table = await running(local_discord, tmp_path, LOCAL_REPLY_WAIT="0")
    try:
        for (channel, alice, _), status in zip(places, STATUSES, strict=True):
            board = (await table.command(alice, channel, size=4)).message_id
            assert board is not None
            for route in routes:
                local_discord.fail_route(route, 2.0, status)
            began = time.perf_counter()
            answer = await table.click(alice, channel, board, 5)
            assert in_time(answer)
            await asyncio.sleep(0.3)  # the reply's edit is failing now: she clicks again
            again = await clicked(local_discord, table, alice, channel, board, 0)
            await answered(again)
            assert in_time(again), (status, again.timing)
            await reply_stored(bot, table, board, 2)
            await caught_up(bot, table, [board], began + 2.0)
            assert table.marks(board) == 2
    finally:
        await bot.stop()


async def test_boards_behind_at_a_sigkill_catch_up_after_the_restart(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Every answer and channel edit fails with 503 for 10 s. Alice's move against the bot and
    Bob's against Alice are stored, the bot's reply too, none shown; the bot is SIGKILLed while
    it tries again, and started anew: it reads the boards back and shows them within a few
    seconds of Discord answering again (or of its start, if later), nobody clicking."""
    (vs_bot, alice, _), (people, carol, bob) = world(local_discord, 2)
    bot, table = await running(local_discord, tmp_path)
    try:
        solo = (await table.command(alice, vs_bot)).message_id
        duel = (await table.command(carol, people, opponent=bob)).message_id
        assert solo is not None and duel is not None
        await table.click(bob, people, duel, "accept")
        await table.click(carol, people, duel, 0)
        local_discord.fail_route("answer", 10.0, 503)
        local_discord.fail_route("channel edit", 10.0, 503)
        ends = time.perf_counter() + 10.0
        await clicked(local_discord, table, alice, vs_bot, solo, 4)
        await clicked(local_discord, table, bob, people, duel, 4)
        await reply_stored(bot, table, solo, 2)
        await asyncio.sleep(3.5)  # the answers given up, the boards behind and tried again
        assert (table.marks(solo), table.marks(duel)) == (0, 1)

        bot.kill()
        await bot.start()

        await caught_up(bot, table, [solo, duel], max(ends, time.perf_counter()))
        assert (table.marks(solo), table.marks(duel)) == (2, 2)
    finally:
        await bot.stop()
    assert local_discord.injected["http 503"] > 0


async def test_where_only_interactions_reach_the_reply_shows_through_the_token_with_no_click(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A group DM (the app installed to Alice's account: no channel route): for each status
    the edit of her click's answer that should show the bot's 4x4 reply fails for 2 s: her
    click meanwhile is answered within 3 s, the bot tries the edit again through her click's
    token, which still lives, and the reply shows within a few seconds of Discord answering
    again, nobody clicking."""
    statuses = {}
    for status in STATUSES:
        alice, bob = local_discord.create_user("alice"), local_discord.create_user("bob")
        statuses[status] = (local_discord.create_group_dm(alice, bob), alice)
    bot, table = await running(local_discord, tmp_path, LOCAL_REPLY_WAIT="0")
    try:
        for status, (group, alice) in statuses.items():
            board = (await table.command(alice, group, size=4)).message_id
            assert board is not None
            local_discord.fail_route("webhook edit", 2.0, status)
            began = time.perf_counter()
            answer = await table.click(alice, group, board, 5)
            assert in_time(answer)
            await asyncio.sleep(0.3)  # the reply's edit is failing now: she clicks again
            again = await clicked(local_discord, table, alice, group, board, 0)
            await answered(again)
            assert in_time(again), (status, again.timing)
            await reply_stored(bot, table, board, 2)
            await caught_up(bot, table, [board], began + 2.0)
            assert table.marks(board) == 2
    finally:
        await bot.stop()
    assert not any("/channels/" in path for _, path in local_discord.requests)
