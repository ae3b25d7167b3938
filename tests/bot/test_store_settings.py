"""Schema version 2 on a real SQLite file: each game's board language, and server settings."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.assembly import STEPS, sqlite_store
from bot.games.look import Look
from bot.games.record import GameRecord
from bot.games.settings import MAX_LISTED, ServerSettings
from bot.storage import schema


def game(gid: int, **changes: object) -> GameRecord:
    return GameRecord(
        id=gid,
        guild_id=10,
        channel_id=20,
        x_id=1,
        o_id=2,
        challenger_id=1,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        **changes,  # type: ignore[arg-type]
    )


async def test_a_version_one_file_is_migrated_and_its_games_read_as_english(
    tmp_path: Path,
) -> None:
    """Rows written before the board had a language are kept, in English, and can be saved
    again with one."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        for statement in STEPS[0].sqlite:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        columns = schema.COLUMNS.removesuffix(
            ", locale, interactions_only, look, kind, move_seconds"
        )
        row = schema.to_row(game(7))[:-5]
        conn.execute(f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(row))})", row)
    store = sqlite_store(path)
    await store.open()
    try:
        old = await store.load_game(7)
        assert old is not None and old.locale == "en-US"
        await store.save_game(game(7, locale="pt-BR"))
        again = await store.load_game(7)
        assert again is not None and again.locale == "pt-BR" and not again.interactions_only
        await store.save_game(game(7, interactions_only=True))
        again = await store.load_game(7)
        assert again is not None and again.interactions_only
        cats = Look(x="🐱", o="<:dog:123456789012345678>", input="both")
        await store.save_game(game(7, look=cats))
        again = await store.load_game(7)
        assert again is not None and again.look == cats
        assert await store.server_settings() == {}
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(STEPS) == 9


async def test_server_settings_are_stored_per_server_and_replaced(tmp_path: Path) -> None:
    """Each server's settings come back as saved, after a reopen; a save replaces them."""
    path = tmp_path / "s.db"
    store = sqlite_store(path)
    await store.open()
    first = ServerSettings(channels=(5, 6), size=4, turn_timeout=60, language="fr")
    await store.save_server_settings(1, first)
    await store.save_server_settings(2, ServerSettings(games_per_channel=3))
    await store.save_server_settings(2, ServerSettings(difficulty="easy"))
    await store.close()
    store = sqlite_store(path)
    await store.open()
    try:
        assert await store.server_settings() == {
            1: first,
            2: ServerSettings(difficulty="easy"),
        }
    finally:
        await store.close()


def test_settings_json_drops_what_is_out_of_bounds() -> None:
    """A value no server may choose (edited by hand, or from an older bot) reads as default."""
    text = (
        '{"size": 7, "turn_timeout": 5, "language": "xx", "difficulty": "easy", '
        '"games_per_channel": 2, "roles": [1, 1, 2], "junk": true}'
    )
    read = ServerSettings.from_json(text)
    assert read == ServerSettings(difficulty="easy", games_per_channel=2, roles=(1, 2))
    assert ServerSettings.from_json(read.to_json()) == read
    many = ServerSettings.from_json(json.dumps({"channels": list(range(40))}))
    assert len(many.channels) == MAX_LISTED


@pytest.mark.parametrize("settings", [ServerSettings(), ServerSettings(language="zh-CN")])
def test_settings_round_trip(settings: ServerSettings) -> None:
    """to_json and from_json agree."""
    assert ServerSettings.from_json(settings.to_json()) == settings


def test_a_channel_holds_as_many_games_as_its_limit() -> None:
    """Reservations count against the limit; a game takes its reservation's place and frees it
    when it ends."""
    from bot.games import rules
    from bot.live.deadlines import Deadlines
    from bot.live.games import LiveGames

    clock = Deadlines(on_due=lambda _: None, now=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    games = LiveGames(deadlines=clock)
    assert games.reserve(20, 2) and games.reserve(20, 2)
    assert not games.reserve(20, 2)
    games.put(game(1))
    games.release(20)
    assert [g.id for g in games.games_in(20)] == [1]
    assert games.reserve(20, 2)
    games.put(game(2))
    assert [g.id for g in games.games_in(20)] == [1, 2] and not games.reserve(20, 2)
    games.put(rules.finish(game(1), rules.Ending.ABANDONED, None))
    assert games.in_channel(20) == game(2) and games.reserve(20, 2)
