"""The SQL the SQLite store runs on its own thread: writing a game, counting results, reading
stats. Each function takes the connection, inside the caller's transaction where it writes; one
named after a ``Store`` method (``bot.storage.base``) reads what that method returns."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.games import rating
from bot.games.kinds import CLASSIC as CLASSIC_KIND
from bot.games.kinds import KINDS
from bot.games.record import Ending, GameRecord, Status
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats, Record
from bot.storage import rating_history, schema
from bot.storage.schema import PEOPLE, guild_key

CLASSIC = CLASSIC_KIND.name

UPSERT = (
    f"INSERT INTO games ({schema.COLUMNS}) VALUES ({', '.join('?' * schema.WIDTH)}) "
    "ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, "
    "channel_id = excluded.channel_id, x_id = excluded.x_id, o_id = excluded.o_id, "
    "challenger_id = excluded.challenger_id, size = excluded.size, k = excluded.k, "
    "ai_side = excluded.ai_side, ai_level = excluded.ai_level, "
    "moves = excluded.moves, status = excluded.status, ending = excluded.ending, "
    "winner = excluded.winner, message_id = excluded.message_id, "
    "deadline = excluded.deadline, locale = excluded.locale, "
    "interactions_only = excluded.interactions_only, look = excluded.look, "
    "kind = excluded.kind, move_seconds = excluded.move_seconds, "
    "created_at = CASE WHEN ? THEN excluded.created_at ELSE games.created_at END"
)


# The games table's indexed columns besides its id (``games_status``, ``games_x_player``,
# ``games_o_player``). SQLite rewrites an index's entry whenever an UPDATE sets one of its
# columns, changed or not: a save that keeps all three (a move) sets only the others, and so
# writes one page to the log instead of four.
_NAMES = schema.COLUMNS.split(", ")
_INDEXED = ("id", "x_id", "o_id", "status")
_REST = [name for name in _NAMES if name not in (*_INDEXED, "created_at")]
SAME_INDEXED = (
    f"UPDATE games SET {', '.join(f'{name} = ?' for name in _REST)}, "
    "created_at = CASE WHEN ? THEN ? ELSE created_at END "
    f"WHERE {' AND '.join(f'{name} = ?' for name in _INDEXED)}"
)
_REST_AT = [_NAMES.index(name) for name in _REST]
_INDEXED_AT = [_NAMES.index(name) for name in _INDEXED]
_CREATED_AT = _NAMES.index("created_at")


def upsert(conn: sqlite3.Connection, game: GameRecord) -> None:
    """Write one game; count its result when it first ends."""
    # Only a finished game needs its stored status: a result is counted the first time only.
    first_finish = game.status == Status.FINISHED
    if first_finish:
        row = conn.execute("SELECT status FROM games WHERE id = ?", (game.id,)).fetchone()
        first_finish = row is None or row[0] != Status.FINISHED.value
    values, created = schema.to_row(game), game.created_at is not None
    same = (
        *(values[i] for i in _REST_AT),
        created,
        values[_CREATED_AT],
        *(values[i] for i in _INDEXED_AT),
    )
    if first_finish or conn.execute(SAME_INDEXED, same).rowcount != 1:  # new, or a new status
        conn.execute(UPSERT, (*values, created))
    if first_finish and game.ending in schema.RESULT_ENDINGS:
        count_result(conn, game)


# Any other write that joins a batch: it runs on the connection, and its result is returned.
Body = Callable[[sqlite3.Connection], Any]


@dataclass(frozen=True, slots=True)
class Failed:
    """What a batch's `Body` raised: its own writes were undone, the batch's others stand."""

    error: Exception


def write(conn: sqlite3.Connection, item: GameRecord | Body | None) -> Any:
    """Save a game, or with None hand out a game id, which this returns, or run a `Body` in a
    savepoint of its own and return its result (`Failed`, its writes undone, if it raised),
    inside the caller's transaction. A body whose error ended the transaction fails the batch."""
    if item is None:
        return next_id(conn)
    if isinstance(item, GameRecord):
        upsert(conn, item)
        return None
    conn.execute("SAVEPOINT item")
    try:
        result = item(conn)
    except Exception as error:
        if not conn.in_transaction:
            raise
        conn.execute("ROLLBACK TO item")
        conn.execute("RELEASE item")
        return Failed(error)
    conn.execute("RELEASE item")
    return result


def batch_name(items: Sequence[GameRecord | Body | None]) -> str:
    """What a batch of `write`'s items does, as an error names it."""
    ids = [str(item.id) for item in items if isinstance(item, GameRecord)]
    what = [f"save game{'s' if len(ids) > 1 else ''} {', '.join(ids)}"] if ids else []
    what += ["hand out a game id"] if None in items else []
    what += ["write a puzzle's or a tournament's changes"] if any(map(callable, items)) else []
    return " and ".join(what)


def next_id(conn: sqlite3.Connection) -> int:
    """A fresh game id: one more than every id handed out or saved before."""
    row = conn.execute(
        "UPDATE counter SET last = MAX(last, (SELECT COALESCE(MAX(id), 0) FROM games)) + 1 "
        "RETURNING last"
    ).fetchone()
    return int(row[0])


def tally(game: GameRecord) -> tuple[list[tuple[int, str, float]], tuple[int, int, float] | None]:
    """What a finished game adds: (user, opponent kind, score) records, and the rated pair
    (x, o, x's score) when two different people played."""
    score_x = rating.DRAW if game.winner is None else (1.0 if game.winner == "X" else 0.0)
    if game.ending == Ending.DRAW:
        score_x = rating.DRAW
    players = (("X", game.x_id, score_x), ("O", game.o_id, 1.0 - score_x))
    if game.vs_bot:
        opponent = game.ai_level or "unknown"
        return [
            (user, opponent, score) for side, user, score in players if side != game.ai_side
        ], None
    records = [(user, PEOPLE, score) for _side, user, score in players]
    # Nobody gains rating against themselves.
    return records, None if game.x_id == game.o_id else (game.x_id, game.o_id, score_x)


def count_result(conn: sqlite3.Connection, game: GameRecord) -> None:
    """Add a finished game's result to the records (and ratings, between people)."""
    guild, kind = guild_key(game.guild_id), game.kind
    records, rated = tally(game)
    for user_id, opponent, score in records:
        add_record(conn, (kind, guild, user_id), opponent, score)
    if rated is None:
        return
    x_id, o_id, score_x = rated
    rx, ro = (rating_of(conn, guild, user_id, kind) for user_id in (x_id, o_id))
    new_x, new_o = rating.update(rx, ro, score_x)
    at = schema.iso(datetime.now(UTC))
    for user_id, value in ((x_id, new_x), (o_id, new_o)):
        conn.execute(
            "INSERT INTO ratings (kind, guild_id, user_id, rating, rated_games) "
            "VALUES (?, ?, ?, ?, 1) ON CONFLICT DO UPDATE SET rating = excluded.rating, "
            "rated_games = rated_games + 1",
            (kind, guild, user_id, value),
        )
        conn.execute(rating_history.ADD, (guild, user_id, kind, game.id, value, at))


def add_record(
    conn: sqlite3.Connection, who: tuple[str, int, int], opponent: str, score: float
) -> None:
    """Count one result of a (kind, server, user) against an opponent kind."""
    wins, draws, losses = int(score == 1.0), int(score == 0.5), int(score == 0.0)
    conn.execute(
        "INSERT INTO records (kind, guild_id, user_id, opponent, wins, draws, losses) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET wins = wins + excluded.wins, "
        "draws = draws + excluded.draws, losses = losses + excluded.losses",
        (*who, opponent, wins, draws, losses),
    )


def rating_of(conn: sqlite3.Connection, guild: int, user_id: int, kind: str = CLASSIC) -> float:
    row = conn.execute(
        "SELECT rating FROM ratings WHERE kind = ? AND guild_id = ? AND user_id = ?",
        (kind, guild, user_id),
    ).fetchone()
    return rating.DEFAULT_RATING if row is None else float(row[0])


def player_stats(
    conn: sqlite3.Connection, guild: int, user_id: int, kind: str = CLASSIC
) -> PlayerStats:
    records = conn.execute(
        "SELECT opponent, wins, draws, losses FROM records "
        "WHERE kind = ? AND guild_id = ? AND user_id = ?",
        (kind, guild, user_id),
    ).fetchall()
    row = conn.execute(
        "SELECT rating, rated_games FROM ratings WHERE kind = ? AND guild_id = ? AND user_id = ?",
        (kind, guild, user_id),
    ).fetchone()
    return stats_of(user_id, records, row, kind)


def stats_of(
    user_id: int,
    records: Iterable[Sequence[Any]],
    rated: Sequence[Any] | None,
    kind: str = CLASSIC,
) -> PlayerStats:
    """PlayerStats from (opponent, wins, draws, losses) rows and a (rating, rated games) row."""
    by_opponent = {opponent: Record(w, d, lost) for opponent, w, d, lost in records}
    vs_bot: dict[str, Record] = {level: Record() for level in KINDS[kind].levels}
    vs_bot.update({k: v for k, v in by_opponent.items() if k != schema.PEOPLE})
    return PlayerStats(
        user_id=user_id,
        vs_people=by_opponent.get(schema.PEOPLE, Record()),
        vs_bot=vs_bot,
        rating=float(rated[0]) if rated else rating.DEFAULT_RATING,
        rated_games=int(rated[1]) if rated else 0,
    )


def leaderboard(
    conn: sqlite3.Connection, guild: int, limit: int, kind: str = CLASSIC
) -> list[LeaderboardRow]:
    rows = conn.execute(
        "SELECT r.user_id, r.rating, COALESCE(c.wins, 0), COALESCE(c.draws, 0), "
        "COALESCE(c.losses, 0), "
        "(SELECT COALESCE(SUM(b.wins), 0) || ',' || COALESCE(SUM(b.draws), 0) || ',' || "
        "COALESCE(SUM(b.losses), 0) FROM records AS b WHERE b.kind = r.kind "
        "AND b.guild_id = r.guild_id AND b.user_id = r.user_id AND b.opponent != ?) "
        "FROM ratings AS r LEFT JOIN records AS c ON c.kind = r.kind "
        "AND c.guild_id = r.guild_id AND c.user_id = r.user_id AND c.opponent = ? "
        "WHERE r.kind = ? AND r.guild_id = ? AND r.rated_games >= 1 "
        "ORDER BY r.rating DESC, r.rated_games DESC, r.user_id ASC LIMIT ?",
        (schema.PEOPLE, schema.PEOPLE, kind, guild, max(0, limit)),
    ).fetchall()
    return ranked(
        (user_id, value, wins, draws, losses, *(int(n) for n in vs_bot.split(",")))
        for user_id, value, wins, draws, losses, vs_bot in rows
    )


def ranked(rows: Iterable[Sequence[Any]]) -> list[LeaderboardRow]:
    """Leaderboard rows, ranked in order, from (user, rating, w, d, l, bot w, bot d, bot l)."""
    return [
        LeaderboardRow(
            rank,
            int(row[0]),
            float(row[1]),
            Record(*map(int, row[2:5])),
            Record(*map(int, row[5:8])),
        )
        for rank, row in enumerate(rows, 1)
    ]


def server_settings(conn: sqlite3.Connection) -> dict[int, ServerSettings]:
    rows = conn.execute("SELECT guild_id, settings FROM server_settings").fetchall()
    return {int(guild): ServerSettings.from_json(text) for guild, text in rows}


def save_settings(conn: sqlite3.Connection, guild_id: int, text: str) -> None:
    """Replace one server's settings."""
    conn.execute(
        "INSERT INTO server_settings (guild_id, settings) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
        (guild_id, text),
    )


def explain(exc: sqlite3.Error, path: Path, busy_timeout: float) -> str:
    """One line for what a SQLite error means for the database at `path`."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    where = f"the database {path}"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return f"{where} is locked by another process (waited {busy_timeout:g} s)"
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return f"{where} is corrupt or not a SQLite database ({exc})"
    if name.startswith("SQLITE_FULL"):
        return f"the disk holding {where} is full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM")):
        return f"{where} is read-only ({exc})"
    if name.startswith("SQLITE_CANTOPEN"):
        return f"{where} cannot be opened ({exc})"
    if name.startswith("SQLITE_IOERR"):
        return f"reading or writing {where} failed ({exc})"
    return f"{where}: {exc}"
