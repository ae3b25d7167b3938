"""Tournaments in the store, on both backends: a tournament round-trips and is found live by
server; joining, leaving and pausing, with the last place taken once; a Swiss round stored whole
or not at all, and once; an arena's games numbered in order with nobody in two at once; a result
recorded once; a pairing's game and thread attached once (the standings recounted from the
stored games: ``test_store_tournaments_standings``)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.assembly import sqlite_store
from bot.storage.base import StorageError, Store
from bot.tournaments.record import Bye, Game
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import (
    Format,
    Join,
    Presence,
    RoundError,
    Stage,
    seeded,
)
from tests.bot.store_support import GUILD, WHEN, arena_of, running, swiss_of


async def test_a_tournament_round_trips_and_is_found_live_by_server(
    new_store: Callable[[], Store],
) -> None:
    """Every field comes back as created (a new store: a restart); the open and running ones
    are found by server, finished and cancelled ones are not."""
    later = WHEN + timedelta(hours=1)
    full = swiss_of(starts_at=later, capacity=16, locale="de", move_seconds=45, message_id=777)
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        made = await tournaments.create_tournament(full)
        arena = await tournaments.create_tournament(arena_of(kind="ultimate", size=9, k=3))
        other = await tournaments.create_tournament(swiss_of(222))
        done = await tournaments.create_tournament(swiss_of())
    finally:
        await store.close()
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        assert made.id > 0 and len({made.id, arena.id, other.id, done.id}) == 4
        assert (
            made
            == dataclasses.replace(full, id=made.id)
            == await tournaments.get_tournament(made.id)
        )
        assert await tournaments.get_tournament(arena.id) == arena and arena.format is Format.ARENA
        assert await tournaments.get_tournament(done.id + 100) is None
        assert await tournaments.finish_tournament(done.id, Stage.CANCELLED)
        assert not await tournaments.finish_tournament(done.id)
        assert [t.id for t in await tournaments.tournaments_running()] == [
            made.id,
            arena.id,
            other.id,
        ]
        assert [t.id for t in await tournaments.tournaments_running({GUILD})] == [made.id, arena.id]
        assert await tournaments.tournaments_running(set()) == []
        ends = WHEN + timedelta(minutes=30)
        assert await tournaments.start_tournament(arena.id, at=WHEN, ends_at=ends)
        assert not await tournaments.start_tournament(arena.id, at=WHEN)
        await tournaments.set_tournament_messages(arena.id, message_id=5)
        await tournaments.set_tournament_messages(arena.id, final_message_id=6)
        started = await tournaments.get_tournament(arena.id)
        assert started is not None and started.stage is Stage.RUNNING
        assert (started.started_at, started.ends_at) == (WHEN, ends)
        assert (started.message_id, started.final_message_id) == (5, 6)
        assert await tournaments.finish_tournament(arena.id)
        assert [t.id for t in await tournaments.tournaments_running({GUILD})] == [made.id]
    finally:
        await store.close()


def test_a_swiss_has_rounds_and_an_arena_minutes() -> None:
    """A tournament value with the other format's length is refused before it is stored."""
    with pytest.raises(ValueError, match="rounds"):
        swiss_of(minutes=30)
    with pytest.raises(ValueError, match="rounds"):
        arena_of(rounds=3)


async def test_joining_leaving_and_pausing(new_store: Callable[[], Store]) -> None:
    """Join once; a full or closed tournament says so; leaving before the start removes the
    entry (joining again puts them last), after it marks them left; an arena takes players
    while it runs and pauses them."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await tournaments.create_tournament(swiss_of(capacity=3))
        assert await tournaments.join_tournament(t.id, 10, rating=1500.0, at=WHEN) is Join.JOINED
        assert await tournaments.join_tournament(t.id, 10) is Join.ALREADY
        assert await tournaments.join_tournament(t.id, 11, rating=1700.0) is Join.JOINED
        assert await tournaments.join_tournament(t.id, 12) is Join.JOINED
        assert await tournaments.join_tournament(t.id, 13) is Join.FULL
        assert await tournaments.join_tournament(t.id + 100, 13) is Join.MISSING
        assert await tournaments.leave_tournament(t.id, 10)
        assert not await tournaments.leave_tournament(t.id, 10)
        assert await tournaments.join_tournament(t.id, 10, rating=1500.0) is Join.JOINED
        entrants = await tournaments.entrants(t.id)
        assert [(e.user_id, e.seq) for e in entrants] == [(11, 2), (12, 3), (10, 4)]
        assert [e.user_id for e in seeded(entrants)] == [11, 10, 12]  # no rating: last
        assert entrants[0].joined_at is not None and entrants[0].rating == 1700.0
        assert await tournaments.start_tournament(t.id, at=WHEN)
        assert await tournaments.join_tournament(t.id, 14) is Join.CLOSED
        assert await tournaments.leave_tournament(t.id, 12)
        assert not await tournaments.leave_tournament(t.id, 12)
        assert await tournaments.join_tournament(t.id, 12) is Join.ALREADY
        left = {e.user_id: e.presence for e in await tournaments.entrants(t.id)}
        assert left == {11: Presence.IN, 12: Presence.LEFT, 10: Presence.IN}
        assert not await tournaments.pause_entrant(t.id, 12, True)  # left stays left

        a = await running(store, arena_of(), range(20, 22))
        assert await tournaments.join_tournament(a.id, 22) is Join.JOINED  # late, as arenas allow
        assert await tournaments.pause_entrant(a.id, 22, True)
        assert not await tournaments.pause_entrant(a.id, 22, True)
        assert (await tournaments.entrants(a.id))[-1].presence is Presence.PAUSED
        assert await tournaments.pause_entrant(a.id, 22, False)
        assert await tournaments.finish_tournament(a.id)
        assert await tournaments.join_tournament(a.id, 23) is Join.CLOSED
        assert not await tournaments.leave_tournament(a.id, 20)
    finally:
        await store.close()


async def test_the_last_place_is_taken_once_across_stores(new_store: Callable[[], Store]) -> None:
    """Two processes letting six players in at once for four places: four join."""
    a, b = new_store(), new_store()
    await a.open()
    await b.open()
    ta, tb = TournamentStore(a), TournamentStore(b)
    try:
        t = await ta.create_tournament(swiss_of(capacity=4))
        got = await asyncio.gather(
            *((ta, tb)[n % 2].join_tournament(t.id, 100 + n) for n in range(6))
        )
        assert sorted(got) == sorted([Join.JOINED] * 4 + [Join.FULL] * 2)
        assert sorted(e.seq for e in await tb.entrants(t.id)) == [1, 2, 3, 4]
    finally:
        await a.close()
        await b.close()


async def test_a_round_is_stored_whole_and_once(new_store: Callable[[], Store]) -> None:
    """A round's pairs and bye are stored with the round moving on; the same round again (a
    restart, another process) stores nothing; nor does a round that skips one."""
    a, b = new_store(), new_store()
    await a.open()
    await b.open()
    ta, tb = TournamentStore(a), TournamentStore(b)
    try:
        t = await running(a, swiss_of(), range(1, 6))
        pairs = ((1, 4), (5, 2))
        done = await asyncio.gather(
            ta.start_round(t.id, 1, pairs, 3), tb.start_round(t.id, 1, pairs, 3)
        )
        assert sorted(done) == [False, True]
        assert not await ta.start_round(t.id, 1, ((1, 2), (3, 4)), 5)
        assert not await ta.start_round(t.id, 3, ((1, 2), (3, 4)), 5)
        assert await tb.games_of(t.id) == [Game(1, 1, 4), Game(1, 5, 2)]
        assert await tb.byes_of(t.id) == [Bye(1, 3)]
        assert [(p.board, p.game_id) for p in await tb.pairings(t.id)] == [(1, None), (2, None)]
        assert (await tb.get_tournament(t.id) or t).round == 1
        with pytest.raises(RoundError, match="seated twice"):
            await ta.start_round(t.id, 2, ((1, 2), (2, 3)))
        arena = await running(a, arena_of(), range(1, 5))
        assert not await ta.start_round(arena.id, 1, ((1, 2), (3, 4)))  # an arena has no rounds
    finally:
        await a.close()
        await b.close()


async def test_a_refused_or_failed_round_leaves_nothing(new_store: Callable[[], Store]) -> None:
    """A round that pairs players still playing or gives a second bye is refused (RoundError);
    one the database refuses after part of it was written (a player who never entered, on the
    second board) fails with one line; either way no seat, game or bye is left, and the
    tournament's round stays where it was."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await running(store, swiss_of(), range(1, 6))
        assert await tournaments.start_round(t.id, 1, ((1, 4), (5, 2)), 3)
        with pytest.raises(RoundError, match=r"\[1, 2, 4, 5\] are still playing"):
            await tournaments.start_round(t.id, 2, ((1, 2), (4, 5)), 3)
        for pairing in await tournaments.pairings(t.id):
            assert await tournaments.record_result(pairing, 1.0)
        with pytest.raises(RoundError, match="3 has had a bye"):
            await tournaments.start_round(t.id, 2, ((1, 2), (4, 5)), 3)
        with pytest.raises(StorageError, match="round 2 of tournament") as info:
            await tournaments.start_round(t.id, 2, ((1, 2), (4, 99)), 5)  # 99 never entered
        assert "\n" not in str(info.value)
        assert (await tournaments.get_tournament(t.id) or t).round == 1
        assert (
            len(await tournaments.games_of(t.id)) == 2 and len(await tournaments.byes_of(t.id)) == 1
        )
        assert await tournaments.start_round(t.id, 2, ((1, 3), (4, 2)), 5)
        assert len(await tournaments.games_of(t.id)) == 4
    finally:
        await store.close()


async def test_a_result_counts_once_and_frees_the_players(new_store: Callable[[], Store]) -> None:
    """An arena's games are numbered in the order they were paired; nobody is paired while
    still playing; a result is recorded once (the first stays) and frees both players."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await running(store, arena_of(), range(1, 5))
        first = await tournaments.pair_arena(t.id, ((1, 2), (3, 4)))
        assert [(p.round, p.board, p.x, p.o) for p in first] == [(1, 1, 1, 2), (2, 1, 3, 4)]
        with pytest.raises(RoundError, match="still playing"):
            await tournaments.pair_arena(t.id, ((2, 3),))
        assert await tournaments.record_result(first[0], 0.5)
        assert not await tournaments.record_result(first[0], 1.0)
        assert await tournaments.record_result(first[1], 0.0)
        again = await tournaments.pair_arena(t.id, ((2, 3), (4, 1)))
        assert [p.round for p in again] == [3, 4]
        assert (await tournaments.get_tournament(t.id) or t).round == 4
        assert await tournaments.games_of(t.id) == [
            Game(1, 1, 2, 0.5),
            Game(2, 3, 4, 0.0),
            Game(3, 2, 3),
            Game(4, 4, 1),
        ]
        swiss_t = await running(store, swiss_of(), range(1, 5))
        assert await tournaments.pair_arena(swiss_t.id, ((1, 2),)) == []
        assert await tournaments.finish_tournament(t.id)
        assert await tournaments.pair_arena(t.id, ((5, 6),)) == []
    finally:
        await store.close()


async def test_a_game_and_thread_are_attached_once(new_store: Callable[[], Store]) -> None:
    """A pairing takes its bot game and its thread once each; a second attach keeps the first
    and says so; the bot game leads back to its pairing."""
    store = new_store()
    await store.open()
    tournaments = TournamentStore(store)
    try:
        t = await running(store, swiss_of(), range(1, 5))
        assert await tournaments.start_round(t.id, 1, ((1, 3), (4, 2)))
        first, second = await tournaments.pairings(t.id)
        with_game = await tournaments.attach_game(first, game_id=41)
        assert with_game == dataclasses.replace(first, game_id=41)
        kept = await tournaments.attach_game(first, game_id=42, thread_id=9001)
        assert kept == dataclasses.replace(first, game_id=41, thread_id=9001)
        assert (
            await tournaments.attach_game(dataclasses.replace(first, round=5), game_id=43) is None
        )
        with pytest.raises(StorageError):
            await tournaments.attach_game(second, game_id=41)  # a bot game is one pairing's
        assert await tournaments.pairing_of_game(41) == kept
        assert await tournaments.pairing_of_game(42) is None
    finally:
        await store.close()


async def test_a_watched_store_answers_tournaments_alike_and_counts_their_calls(
    tmp_path: Path,
) -> None:
    """The store an operator watches (METRICS_PORT) answers every tournament call as it does
    unwatched, and counts each call's time and a failed one under its name."""
    from bot.metrics import Metrics, StoreWatch

    metrics = Metrics()
    store = sqlite_store(tmp_path / "games.db")
    store.watch = StoreWatch(metrics)
    await store.open()
    tournaments = TournamentStore(store)
    t = await running(store, arena_of(), range(1, 4))
    assert await tournaments.join_tournament(t.id, 4) is Join.JOINED
    assert [e.user_id for e in await tournaments.entrants(t.id)] == [1, 2, 3, 4]
    assert [x.id for x in await tournaments.tournaments_running({GUILD})] == [t.id]
    (pairing,) = await tournaments.pair_arena(t.id, ((1, 2),))
    attached = await tournaments.attach_game(pairing, game_id=7, thread_id=8)
    assert attached is not None and await tournaments.pairing_of_game(7) == attached
    assert await tournaments.record_result(pairing, 1.0) and not await tournaments.record_result(
        pairing, 0
    )
    assert (
        await tournaments.games_of(t.id) == [Game(1, 1, 2, 1.0)]
        and await tournaments.byes_of(t.id) == []
    )
    assert await tournaments.pause_entrant(t.id, 3, True) and await tournaments.leave_tournament(
        t.id, 3
    )
    await tournaments.set_tournament_messages(t.id, message_id=5)
    assert await tournaments.finish_tournament(t.id) and await tournaments.pairings(t.id) == [
        dataclasses.replace(attached, result=1.0)
    ]
    assert (await tournaments.get_tournament(t.id) or t).message_id == 5
    assert not await tournaments.start_tournament(t.id, at=WHEN)
    assert not await tournaments.start_round(t.id, 1, ((1, 2),))
    await store.close()
    with pytest.raises(StorageError):
        await tournaments.join_tournament(t.id, 9)
    sample = metrics.registry.get_sample_value
    assert sample("tictactoe_storage_errors_total", {"operation": "join_tournament"}) == 1
    assert sample("tictactoe_storage_errors_total", {"operation": "entrants"}) is None
    # Every call timed under its name, the failed one too (five joins: three by `running`).
    assert sample("tictactoe_storage_seconds_count", {"operation": "join_tournament"}) == 5
    assert sample("tictactoe_storage_seconds_count", {"operation": "pair_arena"}) == 1
