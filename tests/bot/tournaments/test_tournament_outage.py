"""A Swiss tournament through a database outage (the bot on PostgreSQL, the server stopped under
it): the last game of round 1 ends while the tournament's games are locked and the server then
goes down, so its result cannot be recorded; joining by command, the Leave button and the
standings command meanwhile each get one apology, in time; once the server is back the result
is recorded from the stored game, round 2 is paired once, and at the end the standings agree
with the games stored."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from bot.tournaments import standings
from bot.tournaments.tournament import Stage
from devkit.local_game import Table, texts, until
from devkit.local_tournament import COMMAND, announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord, User
from devkit.localdiscord.model import Interaction
from devkit.postgres import PgServer
from tests.bot.tournaments.tournament_support import (
    club,
    first_game_played,
    play_out,
    press,
    settled,
    started,
    stored,
)
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES

SORRY = "Sorry, I could not save that just now"


def one_apology(table: Table, interaction: Interaction) -> None:
    """Answered once, privately, within Discord's 3 s, with the apology."""
    timing = interaction.timing
    assert timing.ephemeral and timing.ack_latency is not None and timing.ack_latency < 3.0
    assert len(interaction.answers) == 1 and SORRY in table.private(interaction)


async def test_a_result_during_an_outage_is_recorded_once_when_the_database_is_back(
    tmp_path: Path, postgres_server: PgServer, postgres_url: str
) -> None:
    fake = FakeDiscord()
    c = club(fake, 4)
    people: dict[int, User] = {u.id: u for u in c.members}
    erin = fake.guilds[c.games.guild_id].add_member(fake.create_user("erin"))
    await fake.start()
    bot, table = await started(fake, tmp_path, DATABASE_URL=postgres_url)
    # Its start-up done (``on_ready`` goes on with the tournaments it finds): what goes on after
    # the outage is the outage's doing.
    await until(lambda: "logged in as" in bot.log(), "the bot ready")
    try:
        _, second = await first_game_played(table, c)
        last = int(boards(fake, second.id)[0]["id"])
        x, o = (
            next(u for u in people if f"{m} <@{u}>" in texts(table.message(last))) for m in "❌⭕"
        )
        for n in range(6):  # ❌ 0, ⭕ 1, ❌ 2, ⭕ 3, ❌ 4, ⭕ 5: ❌ wins at 6
            await table.click(people[(x, o)[n % 2]], fake.channels[second.id], last, n)
            await until(lambda n=n: table.marks(last) == n + 1, f"move {n + 1} shown")

        # The tournament's games locked (its result cannot be read or written), then the server
        # goes down: the winning move is saved and shown, its result waits.
        locker = await asyncpg.connect(postgres_url)
        await locker.execute("BEGIN; LOCK TABLE tournament_games IN ACCESS EXCLUSIVE MODE")
        won = await table.click(people[x], fake.channels[second.id], last, 6)
        assert not won.timing.ephemeral
        await until(lambda: "wins" in texts(table.message(last)), "the win shown")
        postgres_server.stop("immediate")
        try:
            one_apology(table, await table.command(erin, c.games, f"{COMMAND} join"))
            now = announcement(fake, c.games)  # a running Swiss's: Leave only
            one_apology(table, await press(table, people[o], c.games, now, "leave"))
            one_apology(table, await table.command(erin, c.games, f"{COMMAND} standings"))
            assert len(threads(fake, c.games)) == 2  # nothing paired meanwhile
        finally:
            postgres_server.start()
        await locker.close(timeout=1)

        await until(lambda: len(threads(fake, c.games)) == 4, "round 2's two threads")
        for thread in threads(fake, c.games)[2:]:
            await until(lambda t=thread: len(boards(fake, t.id)) == 1, "a board in each thread")
            message = int(boards(fake, thread.id)[0]["id"])
            await play_out(table, fake.channels[thread.id], message, people)
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        (t,), games = await settled(bot)
        pairings = games[t.id]
        assert t.stage is Stage.FINISHED and t.round == 2 and len(pairings) == 4
        assert [p.round for p in pairings] == [1, 1, 2, 2]  # round 2 paired once
        assert all(p.result == 1.0 for p in pairings)  # each ❌ won, the one in the outage too
        assert len({p.game_id for p in pairings}) == 4 == len({p.thread_id for p in pairings})
        assert all(len(boards(fake, thread.id)) == 1 for thread in threads(fake, c.games))
        ranked = standings.swiss(list(people), [p.game for p in pairings])
        want = [f"{n}. <@{row.player}> **{row.score:g}**" for n, row in enumerate(ranked, 1)]

        def shown() -> list[str]:
            return texts(announcement(fake, c.games)).splitlines()

        # The last result's edit comes within a second of the one before (``SPACING``).
        await until(lambda: all(any(s.startswith(w) for s in shown()) for w in want), "standings")
        final = next(m for m in public(fake, c.games.id) if "is over" in texts(m))
        assert f"🥇 <@{ranked[0].player}>" in texts(final)
        log = bot.log()
        # One outage, two lines; the first failure was the result's (the game's own save went
        # through: the director knew the game as the round's and wrote its result at once), and
        # it was recorded when the database answered again.
        assert log.count("the database stopped answering") == 1
        assert f"stopped answering: cannot record a result of tournament {t.id}" in log
        assert log.count("the database answers again") == 1
        assert "Traceback" not in log
    finally:
        await bot.stop()
        await fake.close()
    again, _ = await stored(bot)
    assert [x.stage for x in again] == [Stage.FINISHED]
