"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL database, each with a server that
runs a Swiss tournament of three (3x3, two rounds, a bye each round). A server's tournament is
its shard's: each is created, paired, set up in threads and finished by its own process. Shard 1
is SIGKILLed in the middle of its first game; while it is down shard 0's tournament goes on to
its next round and shard 1's stays as it was, untouched; shard 1 restarted goes on with its
tournament from the store; both end with every game once and every result once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tournaments.tournament import Stage
from devkit.local_game import LocalBot, Table, texts, until
from devkit.local_tournament import announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.tournaments.tournament_support import Club, club, create, play_out, press, stored
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


def the_board(fake: FakeDiscord, c: Club, n: int) -> int:
    """The board of the `n`-th game thread of a server."""
    return int(boards(fake, threads(fake, c.games)[n].id)[0]["id"])


async def ready(bot: LocalBot) -> None:
    """Start shard 1's process and wait until it is ready. (It syncs no commands: the process
    of shard 0 does; ``LocalBot.start`` waits for the sync, which this stands in for once
    the process is ready.)"""
    starts = bot.starts + 1
    starting = asyncio.create_task(bot.start())
    await until(lambda: bot.starts == starts, "shard 1 started")
    await until(lambda: bot.log().count("logged in as") == starts, "shard 1 ready", wait=120)
    bot.discord.synced.set()
    await starting


def over(fake: FakeDiscord, c: Club) -> bool:
    return any("is over" in texts(m) for m in public(fake, c.games.id))


async def shown_games(fake: FakeDiscord, c: Club, n: int) -> None:
    """Wait for a server's `n` game threads, each with its board."""
    await until(lambda: len(threads(fake, c.games)) == n, f"{n} threads in {c.games.id}")
    await until(lambda: all(boards(fake, t.id) for t in threads(fake, c.games)), "the boards")


async def test_each_shard_runs_its_servers_tournament_and_a_restart_resumes_it(
    tmp_path: Path, postgres_url: str
) -> None:
    fake = FakeDiscord()
    fake.shard_count = 2
    zero, one = club(fake, 3), club(fake, 3)
    assert [fake.shard_of(c.games.guild_id) for c in (zero, one)] == [0, 1]
    await fake.start()
    bots = []
    for shard in (0, 1):
        (tmp_path / str(shard)).mkdir()
        env = {"DATABASE_URL": postgres_url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
        bots.append(LocalBot(fake, tmp_path / str(shard), **env))
    await asyncio.gather(bots[0].start(), ready(bots[1]))
    await until(lambda: "logged in as" in bots[0].log(), "shard 0 ready")
    table = Table(fake)
    people = {u.id: u for c in (zero, one) for u in c.members}
    try:
        for c in (zero, one):
            made = await create(table, c.members[0], c.games, format="swiss", rounds=2)
            assert "Tournament created" in table.private(made)
            board = announcement(fake, c.games)
            for member in c.members:
                await press(table, member, c.games, board, "join")
            await press(table, c.members[0], c.games, board, "start")
            await shown_games(fake, c, 1)  # three players: one game and a bye

        # Shard 1 dies after the first move of its game.
        first = the_board(fake, one, 0)
        x = next(u for u in people if f"❌ <@{u}>" in texts(table.message(first)))
        await table.click(people[x], fake.channels[threads(fake, one.games)[0].id], first, 0)
        await until(lambda: table.marks(first) == 1, "the first move in server one")
        bots[1].kill()
        (t0, t1), before = await stored(bots[0])
        announced = texts(announcement(fake, one.games))

        # Shard 0 plays its round 1 out and pairs its round 2; server one stays as it was.
        await play_out(
            table, fake.channels[threads(fake, zero.games)[0].id], the_board(fake, zero, 0), people
        )
        await shown_games(fake, zero, 2)
        _, meanwhile = await stored(bots[0])
        assert len(meanwhile[t0.id]) == 2 and meanwhile[t1.id] == before[t1.id]
        assert len(threads(fake, one.games)) == 1 and not threads(fake, one.games)[0].archived
        assert texts(announcement(fake, one.games)) == announced

        # Shard 1 back: its game goes on from its first move, then its round 2.
        await ready(bots[1])
        await play_out(table, fake.channels[threads(fake, one.games)[0].id], first, people)
        await shown_games(fake, one, 2)
        for c in (zero, one):
            await play_out(
                table, fake.channels[threads(fake, c.games)[1].id], the_board(fake, c, 1), people
            )
            await until(lambda c=c: over(fake, c), "the podium")
        found, games = await stored(bots[0])
        assert [t.guild_id for t in found] == [zero.games.guild_id, one.games.guild_id]
        for t, c in zip(found, (zero, one), strict=True):
            pairings = games[t.id]
            assert t.stage is Stage.FINISHED and t.round == 2 and len(pairings) == 2
            assert all(p.result == 1.0 for p in pairings)  # ❌ won each, counted once
            members = {m.id for m in c.members}
            assert all({p.x, p.o} <= members for p in pairings)  # its own server's players
            assert {p.thread_id for p in pairings} == {t.id for t in threads(fake, c.games)}
            assert all(len(boards(fake, th.id)) == 1 for th in threads(fake, c.games))
            finals = [m for m in public(fake, c.games.id) if "is over" in texts(m)]
            assert len(finals) == 1
        assert "Traceback" not in bots[1].log()
    finally:
        for bot in bots:
            await bot.stop()
        await fake.close()
