"""The SQL the PostgreSQL store runs: writing a game, counting results, reading stats.

Each function takes a connection, inside the caller's transaction where it writes, and does what
its namesake in ``bot.storage.queries`` does on SQLite (or, without one, the ``Store`` method of
its name). Locks are always taken in one order (the game's row, then records, then ratings, each
by user id), so two games ending at once wait for each other instead of deadlocking, and neither
loses an update.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.games import rating
from bot.games.record import GameRecord, Status
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.storage import pg_schema, queries, rating_history, schema
from bot.storage.dialect import numbered
from bot.storage.schema import PEOPLE, guild_key

ADD_RATING = numbered(rating_history.ADD)

Connection = Any  # asyncpg.Connection or a pool's proxy of one; asyncpg ships no type hints


class StaleGame(Exception):
    """A save from a copy of a game older than the one stored (another process moved it on)."""


async def upsert(conn: Connection, game: GameRecord) -> None:
    """As ``queries.upsert``, even if another process saves the same game at once."""
    lock = "SELECT status FROM games WHERE id = $1 FOR UPDATE"
    before = await conn.fetchval(lock, game.id)
    args = pg_schema.to_args(game)
    if before is None:
        inserted = await conn.fetchval(pg_schema.INSERT, *args[:-1])
        if inserted is None:  # another transaction inserted it meanwhile: now it is committed
            before = await conn.fetchval(lock, game.id)
    if before is not None and await conn.execute(pg_schema.UPDATE, *args) == "UPDATE 0":
        raise StaleGame(game.id)
    first_finish = game.status == Status.FINISHED and before != Status.FINISHED.value
    if first_finish and game.ending in schema.RESULT_ENDINGS:
        await count_result(conn, game)


async def count_result(conn: Connection, game: GameRecord) -> None:
    guild, kind = guild_key(game.guild_id), game.kind
    records, rated = queries.tally(game)
    for user_id, opponent, score in sorted(records):
        wins, draws, losses = int(score == 1.0), int(score == 0.5), int(score == 0.0)
        await conn.execute(
            "INSERT INTO records (kind, guild_id, user_id, opponent, wins, draws, losses) "
            "VALUES ($7, $1, $2, $3, $4, $5, $6) "
            "ON CONFLICT (kind, guild_id, user_id, opponent) "
            "DO UPDATE SET wins = records.wins + excluded.wins, "
            "draws = records.draws + excluded.draws, losses = records.losses + excluded.losses",
            guild,
            user_id,
            opponent,
            wins,
            draws,
            losses,
            kind,
        )
    if rated is None:
        return
    x_id, o_id, score_x = rated
    ids = sorted((x_id, o_id))
    # Rows must exist to be locked; a row created here counts as unrated until updated below.
    await conn.executemany(
        "INSERT INTO ratings (kind, guild_id, user_id, rating, rated_games) "
        "VALUES ($4, $1, $2, $3, 0) ON CONFLICT (kind, guild_id, user_id) DO NOTHING",
        [(guild, user_id, rating.DEFAULT_RATING, kind) for user_id in ids],
    )
    rows = await conn.fetch(
        "SELECT user_id, rating FROM ratings WHERE kind = $3 AND guild_id = $1 "
        "AND user_id = ANY($2::bigint[]) ORDER BY user_id FOR UPDATE",
        guild,
        ids,
        kind,
    )
    current = {row[0]: float(row[1]) for row in rows}
    new_x, new_o = rating.update(current[x_id], current[o_id], score_x)
    await conn.executemany(
        "UPDATE ratings SET rating = $3, rated_games = rated_games + 1 "
        "WHERE kind = $4 AND guild_id = $1 AND user_id = $2",
        [(guild, x_id, new_x, kind), (guild, o_id, new_o, kind)],
    )
    at = datetime.now(UTC)
    rows = [
        (guild, user_id, kind, game.id, value, at)
        for user_id, value in ((x_id, new_x), (o_id, new_o))
    ]
    await conn.executemany(ADD_RATING, rows)


async def load_game(conn: Connection, game_id: int) -> GameRecord | None:
    row = await conn.fetchrow(f"SELECT {pg_schema.COLUMNS} FROM games WHERE id = $1", game_id)
    return None if row is None else pg_schema.from_row(row)


async def live_games(conn: Connection) -> list[GameRecord]:
    rows = await conn.fetch(
        f"SELECT {pg_schema.COLUMNS} FROM games WHERE status IN ('challenge', 'active') ORDER BY id"
    )
    return [pg_schema.from_row(row) for row in rows]


async def player_stats(conn: Connection, guild: int, user_id: int, kind: str) -> PlayerStats:
    records = await conn.fetch(
        "SELECT opponent, wins, draws, losses FROM records "
        "WHERE kind = $3 AND guild_id = $1 AND user_id = $2",
        guild,
        user_id,
        kind,
    )
    rated = await conn.fetchrow(
        "SELECT rating, rated_games FROM ratings WHERE kind = $3 AND guild_id = $1 "
        "AND user_id = $2",
        guild,
        user_id,
        kind,
    )
    return queries.stats_of(user_id, records, rated, kind)


async def leaderboard(conn: Connection, guild: int, limit: int, kind: str) -> list[LeaderboardRow]:
    rows = await conn.fetch(
        "SELECT r.user_id, r.rating, COALESCE(c.wins, 0), COALESCE(c.draws, 0), "
        "COALESCE(c.losses, 0), COALESCE(b.wins, 0), COALESCE(b.draws, 0), "
        "COALESCE(b.losses, 0) FROM ratings AS r LEFT JOIN records AS c ON c.kind = r.kind "
        "AND c.guild_id = r.guild_id AND c.user_id = r.user_id AND c.opponent = $1 "
        "LEFT JOIN LATERAL (SELECT SUM(wins) AS wins, SUM(draws) AS draws, "
        "SUM(losses) AS losses FROM records AS s WHERE s.kind = r.kind "
        "AND s.guild_id = r.guild_id AND s.user_id = r.user_id AND s.opponent <> $1) AS b ON TRUE "
        "WHERE r.kind = $4 AND r.guild_id = $2 AND r.rated_games >= 1 "
        "ORDER BY r.rating DESC, r.rated_games DESC, r.user_id ASC LIMIT $3",
        PEOPLE,
        guild,
        max(0, limit),
        kind,
    )
    return queries.ranked(rows)


async def server_settings(conn: Connection) -> dict[int, ServerSettings]:
    rows = await conn.fetch("SELECT guild_id, settings FROM server_settings")
    return {int(row[0]): ServerSettings.from_json(row[1]) for row in rows}


async def save_settings(conn: Connection, guild_id: int, text: str) -> None:
    await conn.execute(
        "INSERT INTO server_settings (guild_id, settings) VALUES ($1, $2) "
        "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
        guild_id,
        text,
    )
