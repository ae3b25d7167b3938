"""The puzzle tables in words both databases read: their schema step (6), their statements and
their rows as values (the calls that run them: ``store``).

Statements are written once with ``?`` placeholders (``dialect.Query`` makes PostgreSQL's); what
an attempt does to ratings and streaks is ``model.settle``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.puzzles.model import AttemptRecord, PuzzlePlayer, PuzzleRow, puzzle_start
from bot.storage.dialect import Query, Step, Table, numbered
from engine.puzzles import Puzzle, glicko

ATTEMPT = (
    "id, guild_id, channel_id, user_id, puzzle, moves, hints, state, refutation, day, locale, "
    "interactions_only, created_at"
)
PLAYER = (
    "user_id, rating, deviation, volatility, attempts, solved, streak, best_streak, last_solved"
)

ADD_SERVER_PUZZLE = Query(
    "INSERT INTO server_puzzles (guild_id, puzzle_id, puzzle, game_id) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild_id, puzzle_id) DO NOTHING"
)
SERVER_PUZZLES = Query("SELECT puzzle FROM server_puzzles WHERE guild_id = ? ORDER BY seq")
CLAIM_DAILY_POST = Query(
    "INSERT INTO daily_posts (guild_id, day) VALUES (?, ?) ON CONFLICT DO NOTHING"
)
START = Query(
    "INSERT INTO puzzle_attempts (guild_id, channel_id, user_id, puzzle_id, puzzle, moves, hints, "
    "state, refutation, day, locale, interactions_only, created_at) "
    "VALUES (?, ?, ?, ?, ?, '', 0, 'playing', NULL, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id"
)
LOAD_ATTEMPT = Query(f"SELECT {ATTEMPT} FROM puzzle_attempts WHERE id = ?")
DAILY_ATTEMPT = Query(
    f"SELECT {ATTEMPT} FROM puzzle_attempts WHERE guild_id = ? AND user_id = ? AND day = ?"
)
# A move is saved only onto the moves and hints it followed, and only while the attempt is being
# played: a stale copy (a second click on the same board, a copy read before a hint) writes
# nothing.
SAVE_ATTEMPT = Query(
    "UPDATE puzzle_attempts SET moves = ?, hints = ?, state = ?, refutation = ? "
    "WHERE id = ? AND state = 'playing' AND moves = ? AND hints = ?"
)
TRIED = Query("SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE guild_id = ? AND user_id = ?")
PUZZLE_RATINGS = Query("SELECT puzzle_id, rating FROM puzzle_ratings")
_PUZZLE_RATING = "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?"
LOCK_PUZZLE_RATING = Query(_PUZZLE_RATING, postgres=numbered(_PUZZLE_RATING) + " FOR UPDATE")
SAVE_PUZZLE_RATING = Query(
    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts) "
    "VALUES (?, ?, ?, ?, 1) ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, "
    "deviation = excluded.deviation, volatility = excluded.volatility, "
    "attempts = puzzle_ratings.attempts + 1"
)
NEW_PUZZLE_RATING = Query(
    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts) "
    "VALUES (?, ?, ?, ?, 0) ON CONFLICT DO NOTHING"
)
_LOAD_PLAYER = f"SELECT {PLAYER} FROM puzzle_players WHERE guild_id = ? AND user_id = ?"
LOAD_PLAYER = Query(_LOAD_PLAYER)
# Read to write over it.
LOCK_PLAYER = Query(_LOAD_PLAYER, postgres=numbered(_LOAD_PLAYER) + " FOR UPDATE")
_INSERT_PLAYER = (
    "INSERT INTO puzzle_players (guild_id, user_id, rating, deviation, volatility, attempts, "
    "solved, streak, best_streak, last_solved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
)
NEW_PLAYER = Query(_INSERT_PLAYER + "ON CONFLICT DO NOTHING")
SAVE_PLAYER = Query(
    _INSERT_PLAYER
    + (
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, "
        "attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak, "
        "best_streak = excluded.best_streak, last_solved = excluded.last_solved"
    )
)
LEADERBOARD = Query(
    "SELECT user_id, rating, attempts, solved, best_streak FROM puzzle_players "
    "WHERE guild_id = ? AND attempts >= 1 ORDER BY rating DESC, attempts DESC, user_id ASC "
    "LIMIT ?"
)

# Schema step 6 (a released step never changes), in ``dialect.TYPES``' words.
_TABLES = (
    """CREATE TABLE puzzle_players (
        guild_id {big} NOT NULL,
        user_id {big} NOT NULL,
        rating {real} NOT NULL,
        deviation {real} NOT NULL,
        volatility {real} NOT NULL,
        attempts INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        last_solved INTEGER,
        PRIMARY KEY (guild_id, user_id)
    ){rowid}""",
    "CREATE INDEX puzzle_players_rank ON puzzle_players "
    "(guild_id, rating DESC, attempts DESC, user_id)",
    """CREATE TABLE puzzle_ratings (
        puzzle_id TEXT PRIMARY KEY,
        rating {real} NOT NULL,
        deviation {real} NOT NULL,
        volatility {real} NOT NULL,
        attempts INTEGER NOT NULL
    ){rowid}""",
    """CREATE TABLE puzzle_attempts (
        id {serial} PRIMARY KEY,
        guild_id {big} NOT NULL,
        channel_id {big} NOT NULL,
        user_id {big} NOT NULL,
        puzzle_id TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        moves TEXT NOT NULL,
        hints INTEGER NOT NULL,
        state TEXT NOT NULL,
        refutation INTEGER,
        day INTEGER,
        locale TEXT NOT NULL,
        interactions_only {flag} NOT NULL,
        created_at {time} NOT NULL
    )""",
    "CREATE INDEX puzzle_attempts_player ON puzzle_attempts (guild_id, user_id)",
    # One attempt a player a day at the daily puzzle (direct messages are server 0, not NULL,
    # so that they count here too).
    "CREATE UNIQUE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, user_id, day) "
    "WHERE day IS NOT NULL",
    """CREATE TABLE server_puzzles (
        seq {serial} PRIMARY KEY,
        guild_id {big} NOT NULL,
        puzzle_id TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        game_id {big} NOT NULL,
        UNIQUE (guild_id, puzzle_id)
    )""",
    """CREATE TABLE daily_posts (
        guild_id {big} NOT NULL,
        day INTEGER NOT NULL,
        PRIMARY KEY (guild_id, day)
    ){rowid}""",
)
STEP = Step.both(
    _TABLES,
    tables=(
        Table("puzzle_players", ("guild_id", "user_id", *PLAYER.split(", ")[1:])),
        Table("puzzle_ratings", ("puzzle_id", "rating", "deviation", "volatility", "attempts")),
        Table(
            "puzzle_attempts",
            (
                "id",
                "guild_id",
                "channel_id",
                "user_id",
                "puzzle_id",
                "puzzle",
                "moves",
                "hints",
                "state",
                "refutation",
                "day",
                "locale",
                "interactions_only",
                "created_at",
            ),
            times=frozenset({"created_at"}),
            flags=frozenset({"interactions_only"}),
            serial="id",
        ),
        Table(
            "server_puzzles", ("seq", "guild_id", "puzzle_id", "puzzle", "game_id"), serial="seq"
        ),
        Table("daily_posts", ("guild_id", "day")),
    ),
)


def start_args(record: AttemptRecord, guild: int, when: Any) -> tuple[Any, ...]:
    """The values of ``START`` for a new attempt (`when`: its creation time as stored)."""
    return (
        guild,
        record.channel_id,
        record.user_id,
        record.puzzle.id,
        record.puzzle.to_line(),
        record.day,
        record.locale,
        record.interactions_only,
        when,
    )


def save_args(record: AttemptRecord, before: AttemptRecord) -> tuple[Any, ...]:
    """The values of ``SAVE_ATTEMPT``: `record` written over the stored `before`."""
    moves, old = (",".join(map(str, r.moves)) for r in (record, before))
    return (moves, record.hints, record.state, record.refutation, record.id, old, before.hints)


def attempt_of(row: Sequence[Any], when: Any = None) -> AttemptRecord:
    """An attempt from a row of ``ATTEMPT`` (`when` reads the stored time; None keeps it)."""
    (
        aid,
        guild,
        channel,
        user,
        line,
        moves,
        hints,
        state,
        refutation,
        day,
        locale,
        interactions_only,
        created,
    ) = row
    return AttemptRecord(
        id=int(aid),
        guild_id=int(guild) or None,
        channel_id=int(channel),
        user_id=int(user),
        puzzle=Puzzle.from_line(line),
        moves=tuple(int(c) for c in moves.split(",")) if moves else (),
        hints=int(hints),
        state=state,
        refutation=refutation,
        day=day,
        locale=locale,
        interactions_only=bool(interactions_only),
        created_at=created if when is None else when(created),
    )


def player_of(user_id: int, row: Sequence[Any] | None) -> PuzzlePlayer:
    """A player from a row of ``PLAYER`` (None: a player who never finished a puzzle here)."""
    if row is None:
        return PuzzlePlayer(user_id)
    _, rating, deviation, volatility, attempts, solved, streak, best, last = row
    return PuzzlePlayer(
        user_id,
        glicko.Rating(float(rating), float(deviation), float(volatility)),
        int(attempts),
        int(solved),
        int(streak),
        int(best),
        last,
    )


def player_args(guild: int, player: PuzzlePlayer) -> tuple[Any, ...]:
    """The values of ``SAVE_PLAYER``."""
    r = player.rating
    return (
        guild,
        player.user_id,
        r.rating,
        r.deviation,
        r.volatility,
        player.attempts,
        player.solved,
        player.streak,
        player.best_streak,
        player.last_solved,
    )


def puzzle_rating_of(puzzle: Puzzle, row: Sequence[Any] | None) -> glicko.Rating:
    """A puzzle's rating from a row of ``PUZZLE_RATING`` (None: never tried)."""
    if row is None:
        return puzzle_start(puzzle)
    return glicko.Rating(float(row[0]), float(row[1]), float(row[2]))


def puzzle_rating_args(puzzle: Puzzle, rating: glicko.Rating) -> tuple[Any, ...]:
    """The values of ``SAVE_PUZZLE_RATING``."""
    return (puzzle.id, rating.rating, rating.deviation, rating.volatility)


def leaderboard_of(rows: Sequence[Sequence[Any]]) -> list[PuzzleRow]:
    """Leaderboard rows, ranked in order, from rows of ``LEADERBOARD``."""
    return [
        PuzzleRow(rank, int(u), float(r), int(a), int(s), int(b))
        for rank, (u, r, a, s, b) in enumerate(rows, 1)
    ]
