"""A player's games and rating history in the store, on both backends: the played games of one
server only, newest first, paged, by kind and by opponent; every rated game's new ratings kept in
the transaction that counts it, equal to the ratings; and version 7 files migrate to 8."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.assembly import STEPS, sqlite_store
from bot.games.record import Ending, Status
from bot.history import store as history_sql
from bot.history.store import HistoryStore
from bot.storage import schema
from bot.storage.base import Store
from tests.bot.store_support import GUILD, finished, game

ANN, BOB, CY = 1, 2, 3


async def test_player_games_newest_first_in_one_server(store: Store) -> None:
    """Only played games of the player in this server are listed, newest first, paged."""
    history = HistoryStore(store)
    await store.save_game(finished(1, ANN, BOB, "X"))
    await store.save_game(finished(2, BOB, ANN, None))
    await store.save_game(finished(3, CY, BOB, "O"))  # not Ann's
    await store.save_game(finished(4, ANN, CY, "O", guild_id=GUILD + 1))  # another server
    await store.save_game(game(5, ANN, BOB))  # still being played
    await store.save_game(finished(6, ANN, BOB, None, ending=Ending.DECLINED))  # never played
    await store.save_game(finished(7, CY, ANN, "X", kind="ultimate", size=9, k=3))
    await store.save_game(finished(8, ANN, BOB, "O", ending=Ending.RESIGN, moves=()))
    found = await history.player_games(GUILD, ANN)
    assert [g.id for g in found] == [8, 7, 2, 1]
    assert all(g.status is Status.FINISHED for g in found)
    assert [g.id for g in await history.player_games(GUILD, ANN, limit=2, offset=1)] == [7, 2]
    assert [g.id for g in await history.player_games(GUILD, ANN, kind="ultimate")] == [7]
    assert [g.id for g in await history.player_games(GUILD, ANN, kind="classic")] == [8, 2, 1]
    assert [g.id for g in await history.player_games(GUILD, ANN, with_id=CY)] == [7]
    assert [g.id for g in await history.player_games(GUILD + 1, ANN)] == [4]
    assert await history.player_games(None, ANN) == []


async def test_direct_messages_are_server_zero(store: Store) -> None:
    """Games outside servers are listed together, apart from every server's."""
    history = HistoryStore(store)
    await store.save_game(finished(1, ANN, BOB, "X", guild_id=None))
    await store.save_game(finished(2, ANN, BOB, "X"))
    assert [g.id for g in await history.player_games(None, ANN)] == [1]
    assert [g.id for g in await history.player_games(None, BOB, with_id=ANN)] == [1]


async def test_rating_history_follows_every_rated_game(store: Store) -> None:
    """Each rated game adds both players' new ratings, the last equal to the rating now; games
    against the bot and unrated endings add nothing; a game saved again adds nothing more."""
    history_store = HistoryStore(store)
    await store.save_game(finished(1, ANN, BOB, "X"))
    await store.save_game(finished(1, ANN, BOB, "X"))  # saved again: counted once
    await store.save_game(finished(2, BOB, ANN, "X"))
    await store.save_game(finished(3, ANN, ANN, "X"))  # against themselves: not rated
    await store.save_game(finished(4, ANN, 999, "X", ai_side="O", ai_level="easy"))
    await store.save_game(finished(5, ANN, CY, None, kind="ultimate", size=9, k=3))
    history = await history_store.rating_history(GUILD, ANN)
    assert set(history) == {"classic", "ultimate"}
    classic = [value for _, value in history["classic"]]
    assert len(classic) == 2 and classic[0] > 1500 > classic[1]
    assert [at for at, _ in history["classic"]] == sorted(at for at, _ in history["classic"])
    assert classic[-1] == (await store.player_stats(GUILD, ANN)).rating
    assert [v for _, v in history["ultimate"]] == [1500.0]
    assert await history_store.rating_history(GUILD + 1, ANN) == {}
    assert len((await history_store.rating_history(GUILD, BOB))["classic"]) == 2


async def test_version_7_file_migrates_to_8(tmp_path: Path) -> None:
    """A file of schema 7 with games gets the players' indexes and an empty history."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for step in (s.sqlite for s in STEPS[:7]):
        for statement in step:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 7")
    columns = schema.COLUMNS.removesuffix(", move_seconds")  # as version 7 left them
    row = schema.to_row(finished(1, ANN, BOB, "X"))[:-1]
    conn.execute(f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(row))})", row)
    conn.commit()
    conn.close()
    store = sqlite_store(path)
    await store.open()
    history = HistoryStore(store)
    try:
        assert [g.id for g in await history.player_games(GUILD, BOB)] == [1]
        assert await history.rating_history(GUILD, ANN) == {}
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 9
    query = f"EXPLAIN QUERY PLAN {history_sql.PLAYER_GAMES.sqlite}"
    args = history_sql.games_args(GUILD, BOB, None, None, 11, 0)
    plan = " ".join(row[3] for row in conn.execute(query, args))
    assert "INDEX games_x_player (x_id=?)" in plan and "INDEX games_o_player (o_id=?)" in plan
    assert "games_status" not in plan and "SCAN games" not in plan
    conn.close()
