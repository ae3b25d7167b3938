"""A player's history in the store: their played games, newest first, and their rating after
each rated game, by kind. Reads only, written once for both databases against
``bot.storage.base.Tx``; the rows are the games' own and the rating history the games' save
writes (``bot.storage.rating_history``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bot.games.record import PLAYED, GameRecord
from bot.storage.base import Database, Tx
from bot.storage.dialect import Query
from bot.storage.schema import COLUMNS, guild_key

# A player's rating after each rated game, by kind, oldest first: (when, rating) points.
RatingHistory = dict[str, list[tuple[datetime, float]]]

_ENDINGS = ", ".join(f"'{ending.value}'" for ending in sorted(PLAYED))
# A player's played games in one server (DMs: server 0); with `with_id` not 0, only those the two
# played together; with `kind` not '', only that kind's.
_PLAYED = (
    f"AND status = 'finished' AND ending IN ({_ENDINGS}) AND COALESCE(guild_id, 0) = ? "
    "AND (CAST(? AS BIGINT) = 0 OR x_id = ? OR o_id = ?) AND (CAST(? AS TEXT) = '' OR kind = ?)"
)
# Those games, newest first, a page of them. Each side's newest are found by its player's index,
# read backwards until enough match, then merged: a page reads some dozens of rows however many
# games the file holds (one condition "x_id = ? OR o_id = ?" would read every finished game:
# ``benchmarks/history.py``).
PLAYER_GAMES = Query(
    f"SELECT {COLUMNS} FROM games "
    f"WHERE id IN (SELECT id FROM (SELECT id FROM games WHERE x_id = ? {_PLAYED} "
    "ORDER BY id DESC LIMIT ?) AS as_x "
    f"UNION SELECT id FROM (SELECT id FROM games WHERE o_id = ? {_PLAYED} "
    "ORDER BY id DESC LIMIT ?) AS as_o) ORDER BY id DESC LIMIT ? OFFSET ?"
)
RATINGS = Query(
    "SELECT kind, at, rating FROM rating_history WHERE guild_id = ? AND user_id = ? "
    "ORDER BY kind, at, game_id"
)


def games_args(
    guild: int, user_id: int, with_id: int | None, kind: str | None, limit: int, offset: int
) -> tuple[Any, ...]:
    """The values of ``PLAYER_GAMES``."""
    played = (guild, with_id or 0, with_id or 0, with_id or 0, kind or "", kind or "")
    return (user_id, *played, limit + offset, user_id, *played, limit + offset, limit, offset)


def by_kind(rows: Iterable[tuple[str, datetime, float]]) -> RatingHistory:
    """(kind, when, rating) rows, in order, as each kind's points."""
    found: RatingHistory = {}
    for kind, at, value in rows:
        found.setdefault(kind, []).append((at, float(value)))
    return found


class HistoryStore:
    """A player's games and ratings' history, read from the database it is given."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def player_games(
        self,
        guild_id: int | None,
        user_id: int,
        *,
        with_id: int | None = None,
        kind: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameRecord]:
        """A player's played games (a result counted: won, drawn, resigned, timed out) in a
        server (None: direct messages), newest first, `offset` of them skipped; with `with_id`
        only those against that player, with `kind` only that kind's."""
        args = games_args(guild_key(guild_id), user_id, with_id, kind, limit, offset)

        async def load(tx: Tx) -> list[GameRecord]:
            return [tx.game(row) for row in await tx.rows(PLAYER_GAMES, *args)]

        return await self.db.read("player_games", f"load the games of player {user_id}", load)

    async def rating_history(self, guild_id: int | None, user_id: int) -> RatingHistory:
        """A player's Elo after each rated game in a server, by kind, oldest first."""

        async def load(tx: Tx) -> RatingHistory:
            rows = await tx.rows(RATINGS, guild_key(guild_id), user_id)
            return by_kind((kind, tx.when(at), rating) for kind, at, rating in rows)

        what = f"load the ratings of player {user_id}"
        return await self.db.read("rating_history", what, load)
