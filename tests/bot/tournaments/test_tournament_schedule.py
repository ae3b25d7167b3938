"""A tournament that starts at a time (a Discord timestamp): it starts by itself then, or is
cancelled if fewer than 2 players joined; the announcement says which."""

from __future__ import annotations

import time
from pathlib import Path

from devkit.local_game import texts, until
from devkit.local_tournament import announcement, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.tournaments.tournament_support import club, create, press, started
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES
AHEAD = 8  # seconds from Create to the start: room for the joins before it, even on a busy machine


async def test_a_scheduled_start_starts_or_cancels(tmp_path: Path) -> None:
    fake = FakeDiscord()
    c = club(fake, 3)
    other = fake.guilds[c.games.guild_id].create_text_channel("other")  # type: ignore[index]
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        at = int(time.time()) + AHEAD
        await create(table, c.members[0], c.games, format="swiss", start=f"<t:{at}:f>")
        await create(table, c.members[0], other, format="arena", start=f"<t:{at}:R>")
        board, lonely = announcement(fake, c.games), announcement(fake, other)
        assert f"<t:{at}:F>" in texts(board) and f"<t:{at}:R>" in texts(board)
        for member in c.members[:2]:
            await press(table, member, c.games, board, "join")
        await press(table, c.members[2], other, lonely, "join")
        assert not threads(fake, c.games)  # not before its time
        await until(lambda: len(threads(fake, c.games)) == 1, "the start at its time", AHEAD + 30)
        await until(lambda: "Cancelled" in texts(announcement(fake, other)), "the cancellation")
        assert not threads(fake, other)
        await until(lambda: "Round 1 of 1." in texts(announcement(fake, c.games)), "round 1 shown")
    finally:
        await bot.stop()
        await fake.close()
