"""The Store contract on both backends (SQLite file, PostgreSQL server): round trips, ids, results
counted once, stats, saves at once. What is SQLite's own is in ``test_store_sqlite``."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from bot.games import rating
from bot.games.record import Ending, GameRecord, Status
from bot.games.stats import Record
from bot.storage.base import StorageError, Store
from tests.bot.store_support import BOT_ID, GUILD, finished, game


async def test_round_trip_keeps_every_field(store: Store) -> None:
    """Every field of a game comes back exactly as saved."""
    deadline = datetime(2025, 3, 1, 12, 30, 5, 123456, tzinfo=UTC)
    created = datetime(2025, 3, 1, 12, 25, 0, 1, tzinfo=UTC)
    original = GameRecord(
        id=7,
        guild_id=None,
        channel_id=123456789012345678,
        x_id=222222222222222222,
        o_id=BOT_ID,
        challenger_id=222222222222222222,
        size=5,
        k=4,
        ai_side="O",
        ai_level="hard",
        moves=(12, 0, 24, 6),
        status=Status.ACTIVE,
        ending=None,
        winner=None,
        message_id=333333333333333333,
        deadline=deadline,
        created_at=created,
    )
    await store.save_game(original)
    assert await store.load_game(7) == original
    done = dataclasses.replace(
        original,
        moves=(*original.moves, 18),
        status=Status.FINISHED,
        ending=Ending.RESIGN,
        winner="X",
        deadline=None,
    )
    await store.save_game(done)
    assert await store.load_game(7) == done
    assert await store.load_game(8) is None


async def test_created_at_defaults_to_first_save_and_is_kept(store: Store) -> None:
    """A game saved without created_at gets the time of its first save, kept on later saves."""
    before = datetime.now(UTC)
    await store.save_game(game(1))
    first = await store.load_game(1)
    assert first is not None and first.created_at is not None
    assert before <= first.created_at <= datetime.now(UTC)
    await store.save_game(game(1, moves=(4,)))
    again = await store.load_game(1)
    assert again is not None and again.created_at == first.created_at and again.moves == (4,)


async def test_naive_deadline_is_read_as_utc(store: Store) -> None:
    """A naive deadline is stored as UTC and comes back aware."""
    await store.save_game(game(1, deadline=datetime(2030, 1, 1, 8, 0)))
    loaded = await store.load_game(1)
    assert loaded is not None and loaded.deadline == datetime(2030, 1, 1, 8, 0, tzinfo=UTC)


async def test_reopen_keeps_data_and_does_not_migrate_again(
    new_store: Callable[[], Store],
) -> None:
    """Closing and reopening the same database finds the games saved before."""
    s = new_store()
    await s.open()
    await s.save_game(game(await s.next_game_id(), moves=(0, 4)))
    await s.close()
    s = new_store()
    await s.open()
    assert [g.moves for g in await s.live_games()] == [(0, 4)]
    assert await s.next_game_id() == 2
    await s.close()


async def test_calls_before_open_raise_storage_error(new_store: Callable[[], Store]) -> None:
    """Using a store that is not open raises StorageError, not AttributeError."""
    with pytest.raises(StorageError, match="not open"):
        await new_store().load_game(1)
    with pytest.raises(StorageError, match="not open"):
        await new_store().save_game(game(1))


async def test_game_ids_increase_and_skip_saved_ids(store: Store) -> None:
    """Ids are handed out in order and never collide with a game saved under its own id."""
    assert [await store.next_game_id() for _ in range(3)] == [1, 2, 3]
    await store.save_game(game(10))
    assert await store.next_game_id() == 11


async def test_live_games_are_challenges_and_active_games(store: Store) -> None:
    """live_games returns pending challenges and games in progress, not finished ones."""
    await store.save_game(game(1, status=Status.CHALLENGE))
    await store.save_game(game(2))
    await store.save_game(finished(3, 1, 2, "X"))
    await store.save_game(game(4, status=Status.FINISHED, ending=Ending.DECLINED))
    assert [g.id for g in await store.live_games()] == [1, 2]


async def test_thousand_live_games_load(store: Store) -> None:
    """A thousand stored live games all come back, with their moves."""
    for gid in range(1, 1001):
        await store.save_game(game(gid, moves=tuple(range(gid % 9))))
    for gid in range(1001, 1101):
        await store.save_game(finished(gid, 1, 2, None))
    live = await store.live_games()
    assert len(live) == 1000
    assert live[8].moves == tuple(range(9 % 9)) and live[7].moves == tuple(range(8))


async def test_result_is_counted_once(store: Store) -> None:
    """Saving the same finished game twice (a retried final click) counts it once."""
    await store.save_game(game(1, moves=(0, 3, 1, 4)))
    done = finished(1, 1, 2, "X", moves=(0, 3, 1, 4, 2))
    await store.save_game(done)
    await store.save_game(done)
    x, o = await store.player_stats(GUILD, 1), await store.player_stats(GUILD, 2)
    assert x.vs_people == Record(wins=1) and o.vs_people == Record(losses=1)
    assert x.rated_games == o.rated_games == 1
    assert x.rating == pytest.approx(rating.DEFAULT_RATING + 16)
    assert o.rating == pytest.approx(rating.DEFAULT_RATING - 16)


async def test_unknown_player_has_zeros_and_default_rating(store: Store) -> None:
    """Someone who never played has empty records for people and every level."""
    stats = await store.player_stats(GUILD, 42)
    assert stats.user_id == 42 and stats.vs_people == Record() and stats.rated_games == 0
    assert stats.rating == rating.DEFAULT_RATING
    assert stats.vs_bot == {level: Record() for level in ("easy", "medium", "hard", "unbeatable")}


async def test_no_result_endings_count_for_nobody(store: Store) -> None:
    """Declined, expired and abandoned games change no record or rating."""
    for gid, ending in enumerate((Ending.DECLINED, Ending.EXPIRED, Ending.ABANDONED), start=1):
        await store.save_game(game(gid, status=Status.FINISHED, ending=ending))
    assert (await store.player_stats(GUILD, 1)).vs_people == Record()
    assert await store.leaderboard(GUILD) == []


async def test_stats_vs_people_and_each_level(store: Store) -> None:
    """Games against the bot count per level for the human only and change no rating."""
    vs_bot = {"ai_level": "hard", "o_id": BOT_ID, "ai_side": "O"}
    await store.save_game(finished(1, 1, BOT_ID, None, **vs_bot))
    await store.save_game(finished(2, 1, BOT_ID, "O", **vs_bot))
    await store.save_game(
        finished(3, BOT_ID, 1, "O", ai_level="easy", ai_side="X", ending=Ending.RESIGN)
    )
    await store.save_game(finished(4, 1, 2, "O", ending=Ending.TIMEOUT))
    await store.save_game(finished(5, 2, 1, None))
    stats = await store.player_stats(GUILD, 1)
    assert stats.vs_bot["hard"] == Record(draws=1, losses=1)
    assert stats.vs_bot["easy"] == Record(wins=1)
    assert stats.vs_bot["medium"] == stats.vs_bot["unbeatable"] == Record()
    assert stats.vs_people == Record(draws=1, losses=1) and stats.rated_games == 2
    assert (await store.player_stats(GUILD, BOT_ID)).vs_people == Record()
    assert (await store.player_stats(GUILD, BOT_ID)).vs_bot["hard"] == Record()
    # Servers (and direct messages) keep separate records.
    assert (await store.player_stats(None, 1)).vs_people == Record()
    await store.save_game(finished(6, 1, 2, "X", guild_id=None))
    assert (await store.player_stats(None, 1)).vs_people == Record(wins=1)
    assert (await store.player_stats(GUILD, 1)).vs_people == Record(draws=1, losses=1)


async def test_leaderboard_order_after_scripted_games(store: Store) -> None:
    """Ranks follow the Elo ratings computed game by game; ties go to the lower user id."""
    results = [(1, 2, "X"), (1, 3, "X"), (2, 3, None), (4, 1, "X"), (5, 6, None)]
    expected_ratings = {u: rating.DEFAULT_RATING for u in range(1, 7)}
    for gid, (x, o, winner) in enumerate(results, start=1):
        await store.save_game(finished(gid, x, o, winner))
        score = 0.5 if winner is None else float(winner == "X")
        expected_ratings[x], expected_ratings[o] = rating.update(
            expected_ratings[x], expected_ratings[o], score
        )
    await store.save_game(finished(99, 7, BOT_ID, "X", ai_side="O", ai_level="easy"))
    board = await store.leaderboard(GUILD)
    order = sorted(expected_ratings, key=lambda u: (-round(expected_ratings[u], 9), u))
    assert [row.user_id for row in board] == order
    assert [row.rank for row in board] == list(range(1, 7))
    for row in board:
        assert row.rating == pytest.approx(expected_ratings[row.user_id])
    assert board[order.index(1)].record == Record(wins=2, losses=1)
    assert all(row.vs_bot == Record() for row in board)
    await store.save_game(finished(100, 1, BOT_ID, "O", ai_side="O", ai_level="hard"))
    await store.save_game(finished(101, BOT_ID, 1, None, ai_side="X", ai_level="easy"))
    row = next(r for r in await store.leaderboard(GUILD) if r.user_id == 1)
    assert row.vs_bot == Record(draws=1, losses=1) and row.record == Record(wins=2, losses=1)
    # Players 5 and 6 drew their only game: equal ratings, lower id first.
    assert order.index(5) + 1 == order.index(6)
    assert [row.user_id for row in await store.leaderboard(GUILD, limit=2)] == order[:2]
    assert await store.leaderboard(GUILD + 1) == []


async def test_invalid_record_is_refused_before_storage(store: Store) -> None:
    """A finished game with a decisive ending but no winner is a programming error."""
    with pytest.raises(ValueError, match="no winner"):
        await store.save_game(game(1, status=Status.FINISHED, ending=Ending.WIN))
    assert await store.load_game(1) is None


def test_deadline_sorting_text_is_fixed_width() -> None:
    """Stored times always carry microseconds, so the text sorts like the times."""
    from bot.storage.schema import iso

    moment = datetime(2025, 1, 1, tzinfo=UTC)
    assert iso(moment) == "2025-01-01T00:00:00.000000+00:00"
    assert iso(moment + timedelta(hours=1)) == "2025-01-01T01:00:00.000000+00:00"


async def test_concurrent_saves_are_serialized(store: Store) -> None:
    """Many saves issued at once all land, and ids handed out at once are distinct."""
    ids = await asyncio.gather(*(store.next_game_id() for _ in range(50)))
    assert sorted(ids) == list(range(1, 51))
    await asyncio.gather(*(store.save_game(game(gid, moves=(gid % 9,))) for gid in ids))
    assert [g.moves for g in await store.live_games()] == [(gid % 9,) for gid in range(1, 51)]


async def test_a_game_finished_twice_in_one_batch_counts_once(store: Store) -> None:
    """The same final save queued twice (a retried click) is counted a single time."""
    await store.save_game(game(1, moves=(0, 3, 1, 4)))
    end = finished(1, 1, 2, "X", moves=(0, 3, 1, 4, 2))
    await asyncio.gather(store.save_game(game(2)), store.save_game(end), store.save_game(end))
    assert (await store.player_stats(GUILD, 1)).vs_people == Record(wins=1)
    assert (await store.player_stats(GUILD, 2)).vs_people == Record(losses=1)


async def test_saving_does_not_keep_the_callers_object(store: Store) -> None:
    """A saved record cannot be changed afterwards (it is frozen, its moves a tuple), so what
    was stored stays as it was."""
    record = game(1, moves=(0,))
    await store.save_game(record)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.moves = (0, 4)  # type: ignore[misc]
    assert not hasattr(record.moves, "append")
    loaded = await store.load_game(1)
    assert loaded is not None and loaded.moves == (0,)
