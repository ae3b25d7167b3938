"""A player's past games and the history of their ratings: SQL written once for both backends.

Schema version 8: ``games`` gets an index on each player's column (``x_id``, ``o_id``, then the
id), so that a player's games are found without reading every game; ``rating_history`` keeps a
player's Elo after each rated game, written in the transaction that counts the game (see
``queries.count_result``), one row per (server, player, kind, game). Statements use ``?``
placeholders (``puzzle_sql.numbered`` gives PostgreSQL's).

Why the history is stored rather than worked out from the games: a rating after a game depends on
the order the server's games ended in and on each opponent's rating at that moment; ``games``
keeps when a game began, not when it ended, so replaying them could disagree with the ratings the
players saw, and would read every rated game of the server to draw one player's chart. A row per
rated player per game is written once and read by an index. Games rated before version 8 have no
rows: a chart begins with the first game rated after it (and always ends at the rating now).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.games.record import PLAYED
from bot.storage.puzzle_sql import TYPES

# A player's rating after each rated game, by kind, oldest first: (when, rating) points.
RatingHistory = dict[str, list[tuple[datetime, float]]]

TABLES = (
    "CREATE INDEX games_x_player ON games (x_id, id)",
    "CREATE INDEX games_o_player ON games (o_id, id)",
    """CREATE TABLE rating_history (
        guild_id {big} NOT NULL,
        user_id {big} NOT NULL,
        kind TEXT NOT NULL,
        game_id {big} NOT NULL,
        rating {real} NOT NULL,
        at {time} NOT NULL,
        PRIMARY KEY (guild_id, user_id, kind, game_id)
    ){rowid}""",
)
COPIED: dict[str, tuple[str, ...]] = {
    "rating_history": ("guild_id", "user_id", "kind", "game_id", "rating", "at"),
}
_ENDINGS = ", ".join(f"'{ending.value}'" for ending in sorted(PLAYED))

# A player's played games in one server (DMs: server 0); with `with_id` not 0, only those the two
# played together; with `kind` not '', only that kind's.
_PLAYED = (
    f"AND status = 'finished' AND ending IN ({_ENDINGS}) AND COALESCE(guild_id, 0) = ? "
    "AND (CAST(? AS BIGINT) = 0 OR x_id = ? OR o_id = ?) AND (CAST(? AS TEXT) = '' OR kind = ?)"
)
# After ``SELECT <the games' columns> FROM games``: those games, newest first, a page of them.
# Each side's newest are found by its player's index, read backwards until enough match, then
# merged: a page reads some dozens of rows however many games the file holds (one condition
# "x_id = ? OR o_id = ?" would read every finished game: ``benchmarks/history.py``).
PLAYER_GAMES = (
    f"WHERE id IN (SELECT id FROM (SELECT id FROM games WHERE x_id = ? {_PLAYED} "
    "ORDER BY id DESC LIMIT ?) AS as_x "
    f"UNION SELECT id FROM (SELECT id FROM games WHERE o_id = ? {_PLAYED} "
    "ORDER BY id DESC LIMIT ?) AS as_o) ORDER BY id DESC LIMIT ? OFFSET ?"
)
ADD = (
    "INSERT INTO rating_history (guild_id, user_id, kind, game_id, rating, at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
RATINGS = (
    "SELECT kind, at, rating FROM rating_history WHERE guild_id = ? AND user_id = ? "
    "ORDER BY kind, at, game_id"
)


def tables(*, sqlite: bool) -> tuple[str, ...]:
    """Schema step 8 for SQLite or for PostgreSQL."""
    return tuple(statement.format(**TYPES[sqlite]) for statement in TABLES)


def games_args(
    guild: int, user_id: int, with_id: int | None, kind: str | None, limit: int, offset: int
) -> tuple[Any, ...]:
    """The values of ``PLAYER_GAMES``."""
    played = (guild, with_id or 0, with_id or 0, with_id or 0, kind or "", kind or "")
    return (user_id, *played, limit + offset, user_id, *played, limit + offset, limit, offset)


def for_postgres(table: str, row: Sequence[Any]) -> tuple[Any, ...]:
    """A row of the SQLite file as PostgreSQL's columns of ``COPIED[table]`` take it."""
    return (*row[:5], datetime.fromisoformat(row[5]))


def by_kind(rows: Iterable[tuple[str, datetime, float]]) -> RatingHistory:
    """(kind, when, rating) rows, in order, as each kind's points."""
    found: RatingHistory = {}
    for kind, at, value in rows:
        found.setdefault(kind, []).append((at, float(value)))
    return found
