"""The app installed to a person's account, when things go wrong or take time: clocks past the
tokens' life, a failed edit, a SIGKILL, through the real bot process and the local Discord
(see test_user_installs.py). No channel route is ever used."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.games.record import Ending
from devkit.local_game import texts, until
from devkit.localdiscord import FakeDiscord
from tests.bot.user_install_support import (
    NEEDS_PROCESSES,
    no_channel_route,
    people,
    started,
    stored,
)

pytestmark = NEEDS_PROCESSES


async def test_clocks_go_through_the_newest_click_and_past_its_token_at_the_next_one(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A challenge that expires is shown through the command's own token. A turn that runs out
    while a token lives is shown through the newest click's; one that runs out when no token
    lives is decided by the clock all the same (stored) and shown by the next click's answer,
    the reason following privately."""
    alice, bob = people(local_discord, "alice", "bob")
    dm = local_discord.create_dm(alice, bob)
    bot, table = await started(local_discord, tmp_path, CHALLENGE_TIMEOUT="5", TURN_TIMEOUT="10")
    try:
        expiring = (await table.command(alice, dm, opponent=bob)).message_id
        assert expiring is not None
        await until(lambda: "accept" not in table.controls(expiring), "the challenge to expire")
        assert "expired" in texts(table.message(expiring)).lower()

        timed = (await table.command(alice, dm, opponent=bob)).message_id
        assert timed is not None
        await table.click(bob, dm, timed, "accept")
        await table.click(alice, dm, timed, 0)
        await until(lambda: "resign" not in table.controls(timed), "the turn to run out")
        assert "ran out of time" in texts(table.message(timed))

        late = (await table.command(alice, dm, opponent=bob)).message_id
        assert late is not None
        await table.click(bob, dm, late, "accept")
        await table.click(alice, dm, late, 0)
        local_discord.advance(16 * 60)  # every token emitted so far has died
        game_id = table.game_id(late)

        async def ended() -> bool:
            game = await stored(bot, game_id)
            return game is not None and game.ending is Ending.TIMEOUT

        for _ in range(int(30 / 0.2)):
            if await ended():
                break
            await asyncio.sleep(0.2)
        assert await ended()
        assert "resign" in table.controls(late)  # nobody could show it
        after = await table.click(bob, dm, late, 4)
        assert after.timing.ack_type == 7 and "ran out of time" in texts(table.message(late))
        assert "resign" not in table.controls(late)
        # Why the click changed nothing, privately: a follow-up, sent after the click's answer.
        await until(lambda: table.private(after) != "", "the private word after the click")
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    assert all(i.followups <= 5 for i in local_discord.interactions.values())


async def test_a_board_whose_edit_failed_catches_up_with_the_next_click(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """In a group DM the edit that should show the bot's 5x5 reply is refused: the board is
    behind, and no channel can repair it. The next click on the old position is not played: its
    answer is the board as it stands, and why privately."""
    alice, bob = people(local_discord, "alice", "bob")
    group = local_discord.create_group_dm(alice, bob)
    bot, table = await started(local_discord, tmp_path, LOCAL_REPLY_WAIT="0")
    try:
        board = (await table.command(alice, group, size=5)).message_id
        assert board is not None
        local_discord.failing_edits = 1
        moved = await table.click(alice, group, board, 12)
        await until(lambda: local_discord.failing_edits == 0, "the bot's edit, refused")
        game = await stored(bot, table.game_id(board))
        assert game is not None and len(game.moves) == 2 and table.marks(board) == 1
        stale = await table.click(alice, group, board, table.free(board)[0])
        assert stale.timing.ack_type == 7 and table.marks(board) == 2
        # Why, privately: a follow-up of the click's answer, which may come a moment after it.
        await until(lambda: "before your click arrived" in table.private(stale), "the reason")
        assert moved.timing.edits == []  # the refused edit showed nothing
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


async def test_a_sigkill_mid_game_in_a_dm_loses_nothing(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A 4x4 game against the bot in a DM between two people; the bot is SIGKILLed after a
    move and started again: the game goes on at the next click, no token kept anywhere."""
    alice, bob = people(local_discord, "alice", "bob")
    dm = local_discord.create_dm(alice, bob)
    bot, table = await started(local_discord, tmp_path)
    try:
        board = (await table.command(alice, dm, size=4)).message_id
        assert board is not None
        await table.click(alice, dm, board, 5)
        await until(lambda: table.marks(board) == 2, "the bot's reply")
        bot.kill()
        await bot.start()
        cell = table.free(board)[0]
        again = await table.click(alice, dm, board, cell)
        assert again.timing.ack_type == 7 and not again.timing.ephemeral
        await until(lambda: table.marks(board) == 4, "the bot's reply after the restart")
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    tokens = [i.token for i in local_discord.interactions.values()]
    saved = bot.database.read_bytes() + bot.log().encode()
    assert not any(token.encode() in saved for token in tokens)
