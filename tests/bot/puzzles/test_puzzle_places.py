"""Puzzles where the bot is not a member (a server without it, a group DM: through interactions
only), in the bot's own DM, and across a SIGKILL of the bot's process (the attempt goes on from
the same board), through the real bot process and the local Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from devkit.local_game import Table, buttons, texts
from devkit.localdiscord import FakeDiscord
from engine import cell_name
from engine.puzzles import Attempt, Puzzle, by_id, hint, play
from tests.bot.user_install_support import NEEDS_PROCESSES, no_channel_route, people, started

pytestmark = NEEDS_PROCESSES


def shown_puzzle(table: Table, board: int) -> Puzzle:
    """The puzzle a message shows, from its title."""
    title = texts(table.message(board)).split("Puzzle ")[1].split(" ")[0]
    puzzle = by_id(title)
    assert puzzle is not None
    return puzzle


async def press(table: Table, user: Any, channel: Any, board: int, what: int | str) -> Any:
    """Click a puzzle's button (a cell or an action) as the message shows it now; answered."""
    ending = f":{what}@"
    custom_id = next(
        b["custom_id"]
        for b in buttons(table.message(board)["components"])
        if ending in b["custom_id"]
    )
    iid = await table.discord.click(str(what), user, channel, board, custom_id)
    return await table.answered(iid)


async def solve(table: Table, user: Any, channel: Any, board: int, attempt: Attempt) -> Attempt:
    """Click the fastest win to the end, each click one response editing the board."""
    while attempt.state == "playing":
        _, cell = hint(attempt)
        clicked = await press(table, user, channel, board, cell)
        assert clicked.timing.ack_type == 7 and not clicked.timing.ephemeral
        attempt = play(attempt, cell)
    return attempt


async def test_a_puzzle_in_a_server_without_the_bot_and_the_daily_in_a_group_dm(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Installed to Alice's account only: in a server that has not added the bot she solves a
    puzzle, and Erin's click is refused privately; in a group DM the daily puzzle comes
    privately and is solved. No channel route is ever used."""
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    alice, erin, bob = people(local_discord, "alice", "erin", "bob")
    for member in (alice, erin):
        server.add_member(member)
    group = local_discord.create_group_dm(alice, bob, erin)
    bot, table = await started(local_discord, tmp_path)
    try:
        started_here = await table.command(alice, channel, "tictactoe-puzzle")
        board = started_here.message_id
        assert board is not None and not started_here.timing.ephemeral
        puzzle = shown_puzzle(table, board)
        solution = next(
            b
            for b in buttons(table.message(board)["components"])
            if f":{puzzle.solution}@" in b["custom_id"]
        )
        assert solution["label"] == cell_name(puzzle.solution, puzzle.board.size)  # named
        refused = await press(table, erin, channel, board, puzzle.solution)
        assert refused.timing.ephemeral and "start your own" in table.private(refused)
        assert (await solve(table, alice, channel, board, Attempt(puzzle))).state == "solved"
        assert "Solved:" in texts(table.message(board))

        daily = await table.command(alice, group, "tictactoe-puzzle", puzzle="daily")
        assert daily.timing.ephemeral and daily.message_id is not None
        today = shown_puzzle(table, daily.message_id)
        await solve(table, alice, group, daily.message_id, Attempt(today))
        assert "Daily streak: 1." in texts(table.message(daily.message_id))
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


async def test_an_attempt_goes_on_after_the_bot_is_killed(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """SIGKILL after the first right move: a new process answers the next click on the same
    board, from where the attempt stood, and the attempt is solved."""
    server = local_discord.create_guild("home")
    channel = server.create_text_channel("games")
    (alice,) = people(local_discord, "alice")
    server.add_member(alice)
    bot, table = await started(local_discord, tmp_path)
    try:
        board = (await table.command(alice, channel, "tictactoe-puzzle")).message_id
        assert board is not None
        attempt = Attempt(shown_puzzle(table, board))  # 2 moves or more: one left after this
        first = await press(table, alice, channel, board, attempt.puzzle.solution)
        assert first.timing.ack_type == 7
        attempt = play(attempt, attempt.puzzle.solution)
        bot.kill()
        await bot.start()
        assert (await solve(table, alice, channel, board, attempt)).state == "solved"
        assert "Solved:" in texts(table.message(board))
    finally:
        await bot.stop()
