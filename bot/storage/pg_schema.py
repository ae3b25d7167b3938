"""The PostgreSQL tables, their migrations, and games as query arguments and rows.

The same layout as the SQLite schema (see ``schema``), typed for PostgreSQL: ids are BIGINT
(Discord ids fit), times are TIMESTAMPTZ. The version lives in ``schema_version``; migrations
run under a transaction-scoped advisory lock, so several processes starting together migrate
once. Version 2 follows SQLite's: each game's language, each server's settings, and no more
unique index on a live game's channel, since a server may allow several games in a channel (a
channel's server lives on one shard, so one process counts its games). Version 3 too: whether a
game is shown only through interactions. Version 4 too: each game's look. Version 5 too: each
game's kind, and the kind in the keys of records and ratings. Version 6 too: puzzles (players'
and puzzles' ratings, attempts, server puzzles, daily posts); attempt and server-puzzle ids are
sequences. Version 7 too: tournaments, their entrants, seats, games and byes (``schema`` says
what each holds and which constraints hold there); a tournament's id is a sequence. Version 8
too: the players' indexes on games and each rated game's new ratings (``rating_history``).
Version 9 too: each game's own move time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.games.record import GameRecord
from bot.storage import schema

# Any constant shared by every process of this bot; pg_advisory_xact_lock takes a bigint.
MIGRATION_LOCK = 0x7454_5454_0001
LIVE_CHANNEL_INDEX = "games_live_channel"

# Each step takes the schema from version i to i + 1; all pending steps run in one transaction.
MIGRATIONS: list[Sequence[str]] = [
    (
        """CREATE TABLE games (
            id BIGINT PRIMARY KEY,
            guild_id BIGINT,
            channel_id BIGINT NOT NULL,
            x_id BIGINT NOT NULL,
            o_id BIGINT NOT NULL,
            challenger_id BIGINT NOT NULL,
            size INTEGER NOT NULL,
            k INTEGER NOT NULL,
            ai_side TEXT,
            ai_level TEXT,
            moves TEXT NOT NULL,
            status TEXT NOT NULL,
            ending TEXT,
            winner TEXT,
            message_id BIGINT,
            deadline TIMESTAMPTZ,
            created_at TIMESTAMPTZ NOT NULL
        )""",
        "CREATE INDEX games_status ON games (status) WHERE status IN ('challenge', 'active')",
        f"CREATE UNIQUE INDEX {LIVE_CHANNEL_INDEX} ON games (channel_id) "
        "WHERE status IN ('challenge', 'active')",
        """CREATE TABLE records (
            guild_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL,
            opponent TEXT NOT NULL,
            wins INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, user_id, opponent)
        )""",
        """CREATE TABLE ratings (
            guild_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rated_games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        )""",
        "CREATE INDEX ratings_rank ON ratings (guild_id, rating DESC, rated_games DESC, user_id)",
        "CREATE TABLE counter (last BIGINT NOT NULL)",
        "INSERT INTO counter (last) VALUES (0)",
    ),
    (
        "ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en-US'",
        """CREATE TABLE server_settings (
            guild_id BIGINT PRIMARY KEY,
            settings TEXT NOT NULL
        )""",
        f"DROP INDEX {LIVE_CHANNEL_INDEX}",
    ),
    ("ALTER TABLE games ADD COLUMN interactions_only BOOLEAN NOT NULL DEFAULT FALSE",),
    ("ALTER TABLE games ADD COLUMN look TEXT NOT NULL DEFAULT ''",),
    (
        "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'classic'",
        "ALTER TABLE records ADD COLUMN kind TEXT NOT NULL DEFAULT 'classic'",
        "ALTER TABLE records DROP CONSTRAINT records_pkey",
        "ALTER TABLE records ADD PRIMARY KEY (kind, guild_id, user_id, opponent)",
        "ALTER TABLE ratings ADD COLUMN kind TEXT NOT NULL DEFAULT 'classic'",
        "ALTER TABLE ratings DROP CONSTRAINT ratings_pkey",
        "ALTER TABLE ratings ADD PRIMARY KEY (kind, guild_id, user_id)",
        "DROP INDEX ratings_rank",
        "CREATE INDEX ratings_rank ON ratings "
        "(kind, guild_id, rating DESC, rated_games DESC, user_id)",
    ),
    # Steps 6 (puzzles) and 7 (tournaments) are the features'; 8 is ``rating_history``'s.
]

COLUMNS = schema.COLUMNS
PLACES = ", ".join(f"${n}" for n in range(1, schema.WIDTH + 1))
GIVEN = f"${schema.WIDTH + 1}"  # whether created_at was given


def _rank(moves: str, status: str) -> str:
    """How far a game has gone, as SQL: (moves played, challenge 0 < active 1 < finished 2)."""
    commas = f"length({moves}) - length(replace({moves}, ',', ''))"
    count = f"CASE WHEN {moves} = '' THEN 0 ELSE {commas} + 1 END"
    step = f"CASE {status} WHEN 'challenge' THEN 0 WHEN 'active' THEN 1 ELSE 2 END"
    return f"({count}, {step})"


# A save never takes a game back (the WHERE of both statements below): a process holding an
# older copy, read before another process moved the game on, writes nothing, and is told (the
# statement changes no row). Every column is written but the id, and created_at unless given.
UPDATE = (
    "UPDATE games SET guild_id = $2, channel_id = $3, x_id = $4, o_id = $5, "
    "challenger_id = $6, size = $7, k = $8, ai_side = $9, ai_level = $10, moves = $11, "
    "status = $12, ending = $13, winner = $14, message_id = $15, deadline = $16, "
    "locale = $18, interactions_only = $19, look = $20, kind = $21, move_seconds = $22, "
    f"created_at = CASE WHEN {GIVEN} THEN $17 ELSE created_at END WHERE id = $1 AND "
    + _rank("$11::text", "$12::text")
    + " >= "
    + _rank("games.moves", "games.status")
)
INSERT = f"INSERT INTO games ({COLUMNS}) VALUES ({PLACES}) ON CONFLICT (id) DO NOTHING RETURNING id"
# One statement for a save that counts nothing (most moves): the row lock lives only inside it.
UPSERT = (
    f"INSERT INTO games ({COLUMNS}) VALUES ({PLACES}) ON CONFLICT (id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS.split(", ")[1:] if c != "created_at")
    + f", created_at = CASE WHEN {GIVEN} THEN excluded.created_at ELSE games.created_at END WHERE "
    + _rank("excluded.moves", "excluded.status")
    + " >= "
    + _rank("games.moves", "games.status")
)


def utc(moment: datetime | None) -> datetime | None:
    """An aware UTC time (a naive one is read as UTC, as the contract says)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def when(moment: Any) -> datetime:
    """A stored time read back (asyncpg gives aware datetimes)."""
    value = utc(moment)
    assert value is not None
    return value


def to_args(game: GameRecord) -> tuple[Any, ...]:
    """The column values of a game in ``COLUMNS`` order, then whether created_at was given."""
    return (*schema.to_row(game, when=utc), game.created_at is not None)


def from_row(row: Sequence[Any]) -> GameRecord:
    """A game from a row of ``COLUMNS``."""
    return schema.from_row(row, when=when)
