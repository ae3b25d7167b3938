"""The tournaments a player entered, on both backends: only the finished ones of that server,
by id, whether the player stayed in, left or never played; and a Swiss's rounds fixed at its
start when it was created without a number."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage.base import Store
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import AUTO_ROUNDS, Stage, swiss_rounds
from tests.bot.store_support import GUILD, WHEN, arena_of, running, swiss_of


async def test_the_finished_tournaments_a_player_entered(new_store: Callable[[], Store]) -> None:
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        done = await running(store, swiss_of(), range(1, 5))
        assert await tournaments.finish_tournament(done.id)
        live = await running(store, arena_of(), range(1, 5))
        elsewhere = await running(store, swiss_of(GUILD + 1), range(1, 5))
        assert await tournaments.finish_tournament(elsewhere.id)
        left = await running(store, swiss_of(), range(3, 7))
        assert await tournaments.leave_tournament(left.id, 3)
        assert await tournaments.finish_tournament(left.id)
        cancelled = await running(store, swiss_of(), range(1, 3))
        assert await tournaments.finish_tournament(cancelled.id, Stage.CANCELLED)

        assert [t.id for t in await tournaments.tournaments_entered(GUILD, 1)] == [done.id]
        assert [t.id for t in await tournaments.tournaments_entered(GUILD, 3)] == [done.id, left.id]
        assert await tournaments.tournaments_entered(GUILD, 9) == []
        assert [t.id for t in await tournaments.tournaments_entered(GUILD + 1, 2)] == [elsewhere.id]
        assert live.id not in [t.id for t in await tournaments.tournaments_entered(GUILD, 2)]
    finally:
        await store.close()


async def test_rounds_fixed_at_the_start(new_store: Callable[[], Store]) -> None:
    """Created without a number of rounds, a Swiss plays as many as its field gives; the number
    is stored at the start, once; a second start changes nothing."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        made = await tournaments.create_tournament(swiss_of(rounds=AUTO_ROUNDS))
        for player in range(1, 6):
            await tournaments.join_tournament(made.id, player)
        rounds = swiss_rounds(AUTO_ROUNDS, 5)
        assert rounds == 4
        assert await tournaments.start_tournament(made.id, at=WHEN, rounds=rounds)
        assert not await tournaments.start_tournament(made.id, at=WHEN, rounds=9)
        stored = await tournaments.get_tournament(made.id)
        assert stored is not None and stored.rounds == 4 and stored.stage is Stage.RUNNING
        kept = await tournaments.create_tournament(swiss_of(rounds=2))
        assert await tournaments.start_tournament(kept.id, at=WHEN)
        again = await tournaments.get_tournament(kept.id)
        assert again is not None and again.rounds == 2
    finally:
        await store.close()


def test_the_rounds_a_field_plays() -> None:
    """Fewer rounds than players always (each bye to a different player), at least one."""
    assert [swiss_rounds(AUTO_ROUNDS, n) for n in (2, 3, 4, 5, 8, 9, 64, 256)] == [
        1,
        2,
        3,
        4,
        4,
        5,
        7,
        9,
    ]
    assert swiss_rounds(10, 4) == 3 and swiss_rounds(2, 64) == 2
