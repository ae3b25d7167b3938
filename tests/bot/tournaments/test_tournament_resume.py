"""A tournament taken up from the store at start-up: a Swiss round stored while the bot was down
(paired, its threads not made) gets its threads and boards at the next start, once: a second
restart makes none again. A player who never moves loses on time through the game's own clock,
and the result counts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.assembly import sqlite_store
from bot.tournaments import swiss
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import Stage, seeded
from devkit.local_game import LocalBot, until
from devkit.local_tournament import announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.tournaments.tournament_support import club, create, press, started, stored
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


async def pair_first_round(bot: LocalBot) -> None:
    """Start the stored tournament and store its first round, as a bot that died right after
    pairing it would have left it."""
    store = sqlite_store(bot.database)
    await store.open()
    tournaments = TournamentStore(store)
    try:
        (t,) = await tournaments.tournaments_running()
        assert await tournaments.start_tournament(t.id, at=datetime.now(UTC), rounds=2)
        players = [e.user_id for e in seeded(await tournaments.entrants(t.id))]
        first = swiss.pair(players, [])
        assert await tournaments.start_round(t.id, 1, first.pairs, first.bye)
    finally:
        await store.close()


async def test_a_round_paired_while_down_is_set_up_once_and_a_no_show_loses_on_time(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord()
    c = club(fake, 4)
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        await create(table, c.members[0], c.games, format="swiss", move_time=10)
        board = announcement(fake, c.games)
        for member in c.members:
            await press(table, member, c.games, board, "join")
        bot.kill()
        await pair_first_round(bot)

        await bot.start()
        await until(lambda: len(threads(fake, c.games)) == 2, "round 1's threads at start-up")
        for thread in threads(fake, c.games):
            await until(lambda t=thread: len(boards(fake, t.id)) == 1, "its board")
        bot.kill()
        await bot.start()
        (t,), games = await stored(bot)
        assert t.stage is Stage.RUNNING and t.round == 1
        assert len(threads(fake, c.games)) == 2
        for thread in threads(fake, c.games):
            assert len(public(fake, thread.id)) == 1  # its board, naming both players: one ping

        # Nobody moves: ❌ loses each game on time (10 s a move), and the results count.
        await until(lambda: all(t.archived for t in threads(fake, c.games)), "both on time", 60)
        await until(lambda: len(threads(fake, c.games)) == 4, "round 2 paired", 30)
        (t,), games = await stored(bot)
        first_round = [p for p in games[t.id] if p.round == 1]
        assert [p.result for p in first_round] == [0.0, 0.0]  # ⭕ won on time each
    finally:
        await bot.stop()
        await fake.close()
