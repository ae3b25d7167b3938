"""Calls to Discord that never get an answer: the connection is cut as the bot makes them (no
network for a moment, not a refusal). A tournament game's thread: the bot says so in one line,
with no traceback, and makes the thread when it tries again: one thread, one board, the game
played. A finished game's thread: one line, archived when tried again. The final message: one
line, posted once when tried again, and only then is the tournament over. A command's
follow-up: lines in the log, no traceback, nothing else lost."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.tournaments.tournament import Stage
from devkit.local_game import LocalBot, Table, texts, until
from devkit.local_tournament import COMMAND, announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord
from devkit.localdiscord.faults import CUT
from tests.bot.tournaments.tournament_support import (
    Club,
    club,
    filled,
    play_out,
    press,
    settled,
    started,
    stored,
)
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


@asynccontextmanager
async def ready(
    folder: Path, players: int
) -> AsyncIterator[tuple[FakeDiscord, Club, LocalBot, Table]]:
    """A club of `players` and the bot, its start-up done (``on_ready`` goes on with the
    tournaments it finds: the one try after a cut is then the retry's); stopped after (a
    traceback in the bot's log fails the test)."""
    fake = FakeDiscord()
    c = club(fake, players)
    await fake.start()
    bot, table = await started(fake, folder)
    try:
        await until(lambda: "logged in as" in bot.log(), "the bot ready")
        yield fake, c, bot, table
    finally:
        await bot.stop()
        await fake.close()


async def test_a_thread_asked_for_while_discord_is_unreachable_is_made_once_later(
    tmp_path: Path,
) -> None:
    async with ready(tmp_path, 2) as (fake, c, bot, table):
        alice = c.members[0]
        board = await filled(table, c, format="swiss", rounds=1)
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
        await play_out(
            table, fake.channels[thread.id], int(boards(fake, thread.id)[0]["id"]), people
        )
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        assert len(threads(fake, c.games)) == 1 and fake.injected["cut"] == 1
        assert bot.log().count("tournament 1: could not set up a game: ") == 1, bot.log()


async def test_a_thread_that_cannot_be_archived_is_archived_later(tmp_path: Path) -> None:
    async with ready(tmp_path, 4) as (fake, c, bot, table):
        board = await filled(table, c, format="swiss", rounds=2)
        await press(table, c.members[0], c.games, board, "start")
        await until(lambda: len(threads(fake, c.games)) == 2, "round 1's threads")
        first = threads(fake, c.games)[0]
        await until(lambda: len(boards(fake, first.id)) == 1, "its board")
        fake.fail_route("thread edit", 60.0, CUT)  # its archiving, the thread edit to come
        await play_out(
            table,
            fake.channels[first.id],
            int(boards(fake, first.id)[0]["id"]),
            {u.id: u for u in c.members},
        )
        await until(lambda: fake.injected["cut"] == 1, "the thread's archiving cut")
        del fake.route_faults["thread edit"]
        await until(lambda: f"could not archive thread {first.id}" in bot.log(), "the cut said")
        assert not first.archived

        # Tried again (``director.RETRY`` seconds later): archived, the other game untouched.
        await until(lambda: first.archived, "the thread archived", wait=30)
        second = threads(fake, c.games)[1]
        assert not second.archived and len(threads(fake, c.games)) == 2
        assert bot.log().count("could not archive thread") == 1


async def test_a_final_message_that_cannot_be_posted_is_posted_once_later(
    tmp_path: Path,
) -> None:
    async with ready(tmp_path, 2) as (fake, c, bot, table):
        alice = c.members[0]
        board = await filled(table, c, format="swiss", rounds=1)
        await press(table, alice, c.games, board, "start")
        await until(lambda: len(threads(fake, c.games)) == 1, "the thread made")
        (thread,) = threads(fake, c.games)
        await until(lambda: len(boards(fake, thread.id)) == 1, "its board")
        posted = len(public(fake, c.games.id))
        fake.fail_route("channel post", 60.0, CUT)  # the podium's post, the one left to make
        await play_out(
            table,
            fake.channels[thread.id],
            int(boards(fake, thread.id)[0]["id"]),
            {u.id: u for u in c.members},
        )
        await until(lambda: fake.injected["cut"] == 1, "the final message's post cut")
        del fake.route_faults["channel post"]
        await until(lambda: "could not post the final message" in bot.log(), "the cut said")
        tournaments, _ = await stored(bot)
        assert tournaments[0].stage is Stage.RUNNING  # not over without its final message

        # Tried again (``director.RETRY`` seconds later): posted once, then the tournament over.
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)),
            "the podium",
            wait=30,
        )
        tournaments, _ = await settled(bot)
        finals = [m for m in public(fake, c.games.id) if "is over" in texts(m)]
        assert len(finals) == 1 and len(public(fake, c.games.id)) == posted + 1
        assert tournaments[0].stage is Stage.FINISHED
        assert tournaments[0].final_message_id == int(finals[0]["id"])
        assert bot.log().count("could not post the final message of tournament 1: ") == 1


async def test_a_command_whose_follow_up_is_cut_is_one_line_and_changes_nothing_else(
    tmp_path: Path,
) -> None:
    """/tictactoe-tournament create answers at once (deferred), then says how it went in a
    follow-up: with the follow-ups' connections cut, that answer and the apology after it are
    lost, and the log says so in lines, with no traceback; the tournament is created and
    announced all the same."""
    async with ready(tmp_path, 2) as (fake, c, bot, table):
        fake.fail_route("follow-up", 60.0, CUT)  # until both cuts are made, however slow
        made = await table.command(c.members[0], c.games, f"{COMMAND} create", format="swiss")
        assert made.timing.ack_type == 5  # deferred at once: its answer was to follow
        await until(lambda: fake.injected["cut"] == 2, "the answer and the apology cut")
        del fake.route_faults["follow-up"]
        await until(lambda: "could not answer interaction" in bot.log(), "the apology lost")
        assert "Swiss tournament" in texts(announcement(fake, c.games))
        assert bot.log().count("/create: Discord failed or could not be reached: ") == 1
        assert table.private(made) == ""  # nothing reached the user
