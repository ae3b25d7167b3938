"""A short arena through the real bot process and the local Discord: three players, two paired
at once and the third as soon as a game ends, each game in its own thread; games started before
the end finish and count; then the podium, and the standings in arena points.

The arena is created for a minute; once its second game is on the board, its end is moved into
the past in the store (as a restart after the end would find it), so the test waits for no clock:
the game going on still finishes and counts, and no game starts after it."""

from __future__ import annotations

import itertools
import sqlite3
from datetime import timedelta
from pathlib import Path

import discord

from bot.storage.schema import iso
from bot.tournaments import standings
from bot.tournaments.tournament import Stage
from devkit.local_game import LocalBot, texts, until
from devkit.local_tournament import announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.tournaments.tournament_support import club, create, play_out, press, settled, started
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


def end_now(bot: LocalBot) -> None:
    """The arena's end, in the store, a second ago (its games going on are not touched)."""
    past = iso(discord.utils.utcnow() - timedelta(seconds=1))
    with sqlite3.connect(bot.database) as conn:
        assert conn.execute("UPDATE tournaments SET ends_at = ?", (past,)).rowcount == 1


def over(fake: FakeDiscord, channel_id: int) -> bool:
    return any("is over" in texts(m) for m in public(fake, channel_id))


async def test_an_arena_of_three(tmp_path: Path) -> None:
    fake = FakeDiscord()
    c = club(fake, 3)
    people = {u.id: u for u in c.members}
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        made = await create(table, c.members[0], c.games, format="arena", minutes=1, move_time=10)
        assert "Tournament created" in table.private(made)
        board = announcement(fake, c.games)
        assert "Arena" in texts(board)
        for member in c.members:
            await press(table, member, c.games, board, "join")
        await press(table, c.members[0], c.games, board, "start")
        await until(lambda: len(threads(fake, c.games)) == 1, "the first game (two of three)")
        (first,) = threads(fake, c.games)
        waiting = next(m for m in c.members if m.id not in first.members)
        paused = await press(table, waiting, c.games, board, "leave")
        assert "You're paused" in table.private(paused)
        back = await press(table, waiting, c.games, board, "join")
        assert "Welcome back" in table.private(back)
        played: set[int] = set()
        while not over(fake, c.games.id):
            await until(
                lambda: (
                    over(fake, c.games.id)
                    or any(
                        t.id not in played and boards(fake, t.id) for t in threads(fake, c.games)
                    )
                ),
                "a new game or the end",
            )
            for thread in threads(fake, c.games):
                if thread.id in played or not boards(fake, thread.id):
                    continue
                played.add(thread.id)
                message = int(boards(fake, thread.id)[0]["id"])
                if len(played) == 2:
                    end_now(bot)  # the end comes while the second game is going on
                await play_out(table, fake.channels[thread.id], message, people)
        (t,), games = await settled(bot)
        pairings = games[t.id]
        assert t.stage is Stage.FINISHED
        assert len(pairings) == 2 and all(p.result is not None for p in pairings)
        assert len(played) == len(pairings) == len(threads(fake, c.games))
        for before, after in itertools.pairwise(pairings):
            assert {before.x, before.o} != {after.x, after.o}  # no immediate rematch
        ranked = standings.arena_standings(list(people), [p.game for p in pairings])
        top = f"<@{ranked[0].player}> **{ranked[0].score:g}**"

        def first_line() -> str:
            shown = texts(announcement(fake, c.games))
            return next((line for line in shown.splitlines() if line.startswith("1. ")), "")

        # The last result's edit comes within a second of the one before (``SPACING``).
        await until(lambda: top in first_line(), "the final standings")
        assert "a win 2, a draw 1" in texts(announcement(fake, c.games))
        final = next(m for m in public(fake, c.games.id) if "is over" in texts(m))
        assert f"🥇 <@{ranked[0].player}>" in texts(final)
    finally:
        await bot.stop()
        await fake.close()
