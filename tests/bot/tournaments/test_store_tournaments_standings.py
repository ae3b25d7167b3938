"""A tournament's standings recounted from the stored games equal those of the games as played:
a Swiss paired each round from what the store holds, and an arena."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from bot.storage.base import Store
from bot.tournaments import arena, standings, swiss
from bot.tournaments.record import Bye, Game, Tally, tally
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import (
    Presence,
    seeded,
)
from tests.bot.store_support import arena_of, running, swiss_of

SCORES = (1.0, 0.5, 0.0)


async def test_standings_from_the_stored_games_equal_those_played(
    new_store: Callable[[], Store],
) -> None:
    """A Swiss of ten players over five rounds (random results, one player leaving), paired
    each round from what the store holds: the games and byes read back are those played, and
    the standings recounted from them equal the standings of the games as played."""
    rng = random.Random(42)
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await running(store, swiss_of(rounds=5), range(1, 11))
        played: list[Game] = []
        byes: list[Bye] = []
        for round_ in range(1, 6):
            if round_ == 3:
                assert await tournaments.leave_tournament(t.id, 4)
            entrants = seeded(await tournaments.entrants(t.id))
            still = [e.user_id for e in entrants if e.presence is Presence.IN]
            paired = swiss.pair(
                still, await tournaments.games_of(t.id), await tournaments.byes_of(t.id)
            )
            assert await tournaments.start_round(t.id, round_, paired.pairs, paired.bye)
            byes += [Bye(round_, paired.bye)] if paired.bye is not None else []
            for pairing in await tournaments.pairings(t.id):
                if pairing.round == round_:
                    result = rng.choice(SCORES)
                    assert await tournaments.record_result(pairing, result)
                    played.append(Game(round_, pairing.x, pairing.o, result))
        ids = [e.user_id for e in seeded(await tournaments.entrants(t.id))]
        stored, stored_byes = await tournaments.games_of(t.id), await tournaments.byes_of(t.id)
        assert stored == played and stored_byes == byes and len(byes) == 3
        assert standings.swiss(ids, stored, stored_byes) == standings.swiss(ids, played, byes)
        assert len({bye.player for bye in byes}) == 3
    finally:
        await store.close()


async def test_arena_standings_from_the_stored_games_equal_those_played(
    new_store: Callable[[], Store],
) -> None:
    """An arena of six players paired again and again (``arena.pair_free`` over what the store
    holds), each result recorded by one of two processes racing to record it: every
    result counts once, and the standings, streaks included, equal those of the games played."""
    rng = random.Random(7)
    a, b = new_store(), new_store()
    await a.open()
    await b.open()
    ta, tb = TournamentStore(a), TournamentStore(b)
    try:
        t = await running(a, arena_of(), range(1, 7))
        played: list[Game] = []
        for _ in range(12):  # every game is over before the next pairing: all are free
            everyone = tally(await ta.games_of(t.id))
            records = {p: everyone.get(p, Tally()) for p in range(1, 7)}
            pairs = tuple(arena.pair_free(range(1, 7), records, playing=0))
            for pairing in await ta.pair_arena(t.id, pairs):
                result = rng.choice(SCORES)
                raced = await asyncio.gather(
                    ta.record_result(pairing, result), tb.record_result(pairing, 1.0 - result)
                )
                assert sorted(raced) == [False, True]
                kept = (await tb.games_of(t.id))[pairing.round - 1].result
                assert kept in (result, 1.0 - result)
                played.append(Game(pairing.round, pairing.x, pairing.o, kept))
        ids = list(range(1, 7))
        stored = await tb.games_of(t.id)
        assert stored == played and len(played) >= 24
        assert standings.arena_standings(ids, stored) == standings.arena_standings(ids, played)
    finally:
        await a.close()
        await b.close()
