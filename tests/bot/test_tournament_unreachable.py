"""Calls to Discord that never get an answer: the connection is cut as the bot makes them (no
network for a moment, not a refusal). A tournament game's thread: the bot says so in one line,
with no traceback, and makes the thread when it tries again: one thread, one board, the game
played. A command's follow-up: lines in the log, no traceback, nothing else lost."""

from __future__ import annotations

from pathlib import Path

from tests.bot.tournament_support import (
    COMMAND,
    announcement,
    boards,
    club,
    create,
    play_out,
    press,
    public,
    started,
    threads,
)
from tests.bot.user_install_support import NEEDS_PROCESSES
from tests.support.local_game import texts, until
from tests.support.localdiscord import FakeDiscord
from tests.support.localdiscord.faults import CUT

pytestmark = NEEDS_PROCESSES


async def test_a_thread_asked_for_while_discord_is_unreachable_is_made_once_later(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord()
    c = club(fake, 2)
    alice, bob = c.members
    await fake.start()
    bot, table = await started(fake, tmp_path)
    # Its start-up done (``on_ready`` goes on with the tournaments it finds): the one try
    # after the cut is the retry's.
    await until(lambda: "logged in as" in bot.log(), "the bot ready")
    try:
        await create(table, alice, c.games, format="swiss", rounds=1)
        board = announcement(fake, c.games)
        for member in (alice, bob):
            await press(table, member, c.games, board, "join")
        fake.fail_route("thread create", 60.0, CUT)  # until the one cut is made, however slow
        begun = await press(table, alice, c.games, board, "start")
        assert "has started" in table.private(begun)
        await until(lambda: fake.injected["cut"] == 1, "the thread's creation cut")
        del fake.route_faults["thread create"]
        await until(lambda: "could not set up a game" in bot.log(), "the cut said")
        assert not threads(fake, c.games)

        # Tried again (``director.RETRY`` seconds later): the thread, once, and its board.
        await until(lambda: len(threads(fake, c.games)) == 1, "the thread made", wait=30)
        (thread,) = threads(fake, c.games)
        await until(lambda: len(boards(fake, thread.id)) == 1, "its board")
        people = {u.id: u for u in c.members}
        await play_out(table, fake.channels[thread.id], int(boards(fake, thread.id)[0]["id"]),
                       people)  # fmt: skip
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        assert len(threads(fake, c.games)) == 1 and fake.injected["cut"] == 1
        assert bot.log().count("tournament 1: could not set up a game: ") == 1, bot.log()
    finally:
        await bot.stop()  # a traceback in the log fails the test
        await fake.close()


async def test_a_command_whose_follow_up_is_cut_is_one_line_and_changes_nothing_else(
    tmp_path: Path,
) -> None:
    """/tictactoe-tournament create answers at once (deferred), then says how it went in a
    follow-up: with the follow-ups' connections cut, that answer and the apology after it are
    lost, and the log says so in lines, with no traceback; the tournament is created and
    announced all the same."""
    fake = FakeDiscord()
    c = club(fake, 2)
    await fake.start()
    bot, table = await started(fake, tmp_path)
    await until(lambda: "logged in as" in bot.log(), "the bot ready")
    try:
        fake.fail_route("follow-up", 60.0, CUT)  # until both cuts are made, however slow
        made = await table.command(c.members[0], c.games, f"{COMMAND} create", format="swiss")
        assert made.timing.ack_type == 5  # deferred at once: its answer was to follow
        await until(lambda: fake.injected["cut"] == 2, "the answer and the apology cut")
        del fake.route_faults["follow-up"]
        await until(lambda: "could not answer interaction" in bot.log(), "the apology lost")
        assert "Swiss tournament" in texts(announcement(fake, c.games))
        assert bot.log().count("/create: Discord failed or could not be reached: ") == 1
        assert table.private(made) == ""  # nothing reached the user
    finally:
        await bot.stop()  # a traceback in the log fails the test
        await fake.close()
