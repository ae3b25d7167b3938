"""The database's tables, their migrations, and games as rows (run on the store's own thread).

Layout (schema version 9, kept in ``PRAGMA user_version``):

- ``games``: one row per game; ``moves`` is a comma-separated list of cells ("0,4,8"),
  ``deadline`` and ``created_at`` are ISO 8601 UTC text with microseconds (exact round trip).
- ``records``: wins/draws/losses per (server, player, opponent kind), where the kind is
  ``"people"`` or a bot level name. Direct messages (``guild_id`` None) are stored as server 0.
- ``ratings``: Elo rating and number of rated games per (server, player), people only.
- ``counter``: the last game id handed out, so ids are never reused.
- ``server_settings`` (version 2): one row per server that changed a setting; ``settings`` is a
  JSON object of the settings it set (``ServerSettings.to_json``).

Version 2 also gave ``games`` its ``locale`` (the board's language); older rows read as English.
Version 3 gave ``games`` its ``interactions_only`` flag (0 or 1: a game in a place where the bot
has no channel access, shown only through interactions); older rows read as 0.
Version 4 gave ``games`` its ``look`` (the marks and the input the board started with, JSON text;
empty: the default look, as older rows read).
Version 5 gave ``games`` its ``kind`` ("classic" or "ultimate": ``bot.games.kinds``; older rows
read as classic), and put the kind in the keys of ``records`` and ``ratings`` (each kind of game
has its own records, Elo and leaderboard; the rows before it are classic games').
Version 6 added puzzles (``bot.puzzles.model``; SQL in ``bot.puzzles.sql``), every older row
untouched:
``puzzle_players`` (a player's Glicko-2 puzzle rating and daily streak per server, direct
messages as server 0), ``puzzle_ratings`` (each puzzle's, by puzzle id, across servers),
``puzzle_attempts`` (each attempt, its puzzle as a data-file line; at most one per player and
daily puzzle), ``server_puzzles`` (puzzles made from a server's games, oldest first) and
``daily_posts`` (the days a server's daily puzzle was posted, claimed once).
Version 7 added tournaments (``bot.tournaments``; SQL in ``bot.tournaments.sql``), every older
row untouched:

- ``tournaments``: one row each, its own id (a sequence); server, channel, creator, the
  announcement's and the final message's ids; ``format`` swiss or arena (a Swiss has ``rounds``,
  an arena ``minutes``: checked); the game (``kind``, ``size``, ``k``), ``move_seconds``,
  ``starts_at`` (NULL: started by hand), ``capacity`` (NULL: no limit), ``locale``; ``stage``
  open, running, finished or cancelled; ``round``: the last Swiss round paired, or an arena's
  last game number; ``created_at``, ``started_at``, ``ends_at`` (an arena's end).
- ``tournament_entrants``: (tournament, player) once; ``seq`` the order of joining (unique in
  the tournament), ``rating`` when joining (the seeding), ``presence`` in, left (a Swiss player
  who left after the start) or paused (an arena player), ``joined_at``. Leaving before the start
  deletes the row.
- ``tournament_seats``: a player's seat in a round, (tournament, round, player) once, so nobody
  is paired twice in a round; ``playing`` while the seat's game goes on, true for at most one
  seat of a player in a tournament (a partial unique index). Every game's two players and every
  bye refer to a seat, and every seat to an entrant.
- ``tournament_games``: (tournament, round, board) once (an arena's games each their own round,
  board 1); ❌ and ⭕ (different players), the bot's game (``games.id``, unique) and its thread
  once made, ``result`` (❌'s score: 0, 0.5 or 1; NULL while played), written once.
- ``tournament_byes``: at most one per player per tournament and one per round, each on a seat.

Version 8 added each player's games found by an index, and ``rating_history``: a player's Elo
after each rated game (``rating_history`` says what and why), every older row untouched.
Version 9 gave ``games`` its ``move_seconds`` (a game's own move time: a tournament's; NULL, as
older rows read: the server's turn timeout).

A Swiss round is stored in one transaction with the tournament's ``round`` moving on from the
round before (seats, games, bye): a crash leaves the whole round or none of it, and a round
stored twice is stored once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from bot.games.look import Look
from bot.games.record import PLAYED, Ending, GameRecord, Status
from bot.storage.dialect import Step

if TYPE_CHECKING:
    from engine import Level, Side

PEOPLE = "people"
DM_GUILD = 0  # Discord never uses 0 as a server id
RESULT_ENDINGS = PLAYED
LIVE = (Status.CHALLENGE.value, Status.ACTIVE.value)

# The games' own steps, 1 to 5 (``steps``): each takes the schema from version i to i + 1.
MIGRATIONS: list[Sequence[str]] = [
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            x_id INTEGER NOT NULL,
            o_id INTEGER NOT NULL,
            challenger_id INTEGER NOT NULL,
            size INTEGER NOT NULL,
            k INTEGER NOT NULL,
            ai_side TEXT,
            ai_level TEXT,
            moves TEXT NOT NULL,
            status TEXT NOT NULL,
            ending TEXT,
            winner TEXT,
            message_id INTEGER,
            deadline TEXT,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX games_status ON games (status)",
        """CREATE TABLE records (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            opponent TEXT NOT NULL,
            wins INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, user_id, opponent)
        ) WITHOUT ROWID""",
        """CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            rating REAL NOT NULL,
            rated_games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX ratings_rank ON ratings (guild_id, rating DESC, rated_games DESC, user_id)",
        "CREATE TABLE counter (last INTEGER NOT NULL)",
        "INSERT INTO counter (last) VALUES (0)",
    ),
    (
        "ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en-US'",
        """CREATE TABLE server_settings (
            guild_id INTEGER PRIMARY KEY,
            settings TEXT NOT NULL
        )""",
    ),
    ("ALTER TABLE games ADD COLUMN interactions_only INTEGER NOT NULL DEFAULT 0",),
    ("ALTER TABLE games ADD COLUMN look TEXT NOT NULL DEFAULT ''",),
    (
        "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'classic'",
        # Records and ratings by kind of game: the tables again with the kind in their keys,
        # every row copied as it was (a classic game's).
        # (The kind comes first: SQLite's integrity check misreads a WITHOUT ROWID table whose
        # key starts with a column declared after the others.)
        """CREATE TABLE records_by_kind (
            kind TEXT NOT NULL DEFAULT 'classic',
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            opponent TEXT NOT NULL,
            wins INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (kind, guild_id, user_id, opponent)
        ) WITHOUT ROWID""",
        "INSERT INTO records_by_kind (guild_id, user_id, opponent, wins, draws, losses) "
        "SELECT guild_id, user_id, opponent, wins, draws, losses FROM records",
        "DROP TABLE records",
        "ALTER TABLE records_by_kind RENAME TO records",
        """CREATE TABLE ratings_by_kind (
            kind TEXT NOT NULL DEFAULT 'classic',
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            rating REAL NOT NULL,
            rated_games INTEGER NOT NULL,
            PRIMARY KEY (kind, guild_id, user_id)
        ) WITHOUT ROWID""",
        "INSERT INTO ratings_by_kind (guild_id, user_id, rating, rated_games) "
        "SELECT guild_id, user_id, rating, rated_games FROM ratings",
        "DROP TABLE ratings",
        "ALTER TABLE ratings_by_kind RENAME TO ratings",
        "CREATE INDEX ratings_rank ON ratings "
        "(kind, guild_id, rating DESC, rated_games DESC, user_id)",
    ),
    # Steps 6 (puzzles) and 7 (tournaments) are the features'; 8 is ``rating_history``'s, 9
    # each game's own move time (``steps.MOVE_TIME``).
]

COLUMNS = (
    "id, guild_id, channel_id, x_id, o_id, challenger_id, size, k, ai_side, ai_level, moves, "
    "status, ending, winner, message_id, deadline, created_at, locale, interactions_only, look, "
    "kind, move_seconds"
)
WIDTH = len(COLUMNS.split(", "))


# -- functions (run on the storage thread) --------------------------------------------------


def prepare(conn: sqlite3.Connection, synchronous: str) -> str | None:
    """Check the file and set the connection up (WAL, `synchronous`, foreign keys); what is
    wrong with the file ("is corrupt (...)", "refused WAL mode"), or None."""
    problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        return f"is corrupt ({problems[0]})"
    if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
        return "refused WAL mode"
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    return None


def migrate(conn: sqlite3.Connection, steps: Sequence[Step]) -> None:
    """Run the steps after the file's version, in the caller's transaction."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    for step in steps[version:]:
        for statement in step.sqlite:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {len(steps)}")


def guild_key(guild_id: int | None) -> int:
    return DM_GUILD if guild_id is None else guild_id


def iso(moment: datetime | None) -> str | None:
    """A time as SQLite stores it: ISO 8601 UTC text with microseconds (an exact round trip)."""
    if moment is None:
        return None
    if moment.tzinfo is None:  # the contract says aware UTC; read a naive time as UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def to_row(game: GameRecord, *, when: Callable[[datetime | None], Any] = iso) -> tuple[Any, ...]:
    """A game's column values in ``COLUMNS`` order; ``when`` stores a time (ISO text here)."""
    return (
        game.id,
        game.guild_id,
        game.channel_id,
        game.x_id,
        game.o_id,
        game.challenger_id,
        game.size,
        game.k,
        game.ai_side,
        game.ai_level,
        ",".join(map(str, game.moves)),
        Status(game.status).value,
        None if game.ending is None else Ending(game.ending).value,
        game.winner,
        game.message_id,
        when(game.deadline),
        when(game.created_at) or when(datetime.now(UTC)),
        game.locale,
        game.interactions_only,
        game.look.to_text(),
        game.kind,
        game.move_seconds,
    )


def from_row(
    row: Sequence[Any], *, when: Callable[[Any], datetime] = datetime.fromisoformat
) -> GameRecord:
    """A game from a row of ``COLUMNS``; ``when`` reads a stored time."""
    (
        gid,
        guild,
        channel,
        x,
        o,
        challenger,
        size,
        k,
        ai_side,
        ai_level,
        moves,
        status,
        ending,
        winner,
        message,
        deadline,
        created,
        locale,
        interactions_only,
        look,
        kind,
        move_seconds,
    ) = row
    return GameRecord(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        x_id=x,
        o_id=o,
        challenger_id=challenger,
        size=size,
        k=k,
        ai_side=cast("Side | None", ai_side),
        ai_level=cast("Level | None", ai_level),
        moves=tuple(int(cell) for cell in moves.split(",")) if moves else (),
        status=Status(status),
        ending=None if ending is None else Ending(ending),
        winner=cast("Side | None", winner),
        message_id=message,
        deadline=None if deadline is None else when(deadline),
        created_at=when(created),
        locale=locale,
        interactions_only=bool(interactions_only),
        look=Look.from_text(look),
        kind=kind,
        move_seconds=move_seconds,
    )
