"""A Swiss tournament across a crash: the bot SIGKILLed in the middle of a round (one game over,
one half played) and started again on the same SQLite file (or PostgreSQL database). The game in
progress goes on in its thread, the next round is paired once when it ends, and at the end every
game exists once (one thread, one board each), every result is counted once, and the standings
agree with them."""

from __future__ import annotations

from pathlib import Path

from bot.tournaments.tournament import Stage
from devkit.local_game import texts, until
from devkit.local_tournament import boards, public, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.tournaments.tournament_support import (
    club,
    first_game_played,
    play_out,
    settled,
    started,
)
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


async def test_a_crash_in_the_middle_of_a_round_loses_nothing_and_makes_nothing_twice(
    tmp_path: Path,
) -> None:
    await crash_in_a_round(tmp_path)


async def test_the_same_crash_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    await crash_in_a_round(tmp_path, DATABASE_URL=postgres_url)


async def crash_in_a_round(tmp_path: Path, **env: str) -> None:
    fake = FakeDiscord()
    c = club(fake, 4)
    people = {u.id: u for u in c.members}
    await fake.start()
    bot, table = await started(fake, tmp_path, **env)
    try:
        _, second = await first_game_played(table, c)
        half = int(boards(fake, second.id)[0]["id"])
        x = next(uid for uid in people if f"❌ <@{uid}>" in texts(table.message(half)))
        await table.click(people[x], fake.channels[second.id], half, table.free(half)[0])
        await until(lambda: table.marks(half) == 1, "the first move of the second game")

        bot.kill()
        await bot.start()

        await play_out(table, fake.channels[second.id], half, people)
        await until(lambda: len(threads(fake, c.games)) == 4, "round 2's two threads")
        for thread in threads(fake, c.games)[2:]:
            await until(lambda t=thread: len(boards(fake, t.id)) == 1, "a board in each thread")
            await play_out(
                table, fake.channels[thread.id], int(boards(fake, thread.id)[0]["id"]), people
            )
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        (t,), games = await settled(bot)
        pairings = games[t.id]
        assert t.stage is Stage.FINISHED and len(pairings) == 4
        assert all(p.result is not None for p in pairings)
        assert len({p.thread_id for p in pairings}) == 4 == len(threads(fake, c.games))
        assert all(len(boards(fake, thread.id)) == 1 for thread in threads(fake, c.games))
        assert len({frozenset((p.x, p.o)) for p in pairings}) == 4  # no rematch in round 2
        finals = [m for m in public(fake, c.games.id) if "is over" in texts(m)]
        assert len(finals) == 1
    finally:
        await bot.stop()
        await fake.close()
