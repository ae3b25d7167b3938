"""The tournament tables in words both databases read: their schema step (7), their statements
and their rows as values (the calls that run them: ``store``).

Statements are written once with ``?`` placeholders (``dialect.Query`` makes PostgreSQL's); what
may be done (who may join) is ``tournament``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bot.storage.dialect import Query, Step, Table, numbered
from bot.tournaments.tournament import Entrant, Format, Pairing, Presence, Stage, Tournament

TOURNAMENT = (
    "id, guild_id, channel_id, creator_id, format, kind, size, k, move_seconds, starts_at, "
    "rounds, minutes, capacity, locale, stage, round, message_id, final_message_id, created_at, "
    "started_at, ends_at"
)
ENTRANT = "user_id, seq, rating, presence, joined_at"
PAIRING = "tournament_id, round, board, x_id, o_id, result, game_id, thread_id"

CREATE = Query(
    f"INSERT INTO tournaments ({TOURNAMENT.removeprefix('id, ')}) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
_LOAD = f"SELECT {TOURNAMENT} FROM tournaments WHERE id = ?"
LOAD = Query(_LOAD)
# Read to write over it.
LOCK = Query(_LOAD, postgres=numbered(_LOAD) + " FOR UPDATE")
LIVE = Query(f"SELECT {TOURNAMENT} FROM tournaments WHERE stage IN ('open', 'running') ORDER BY id")
ENTERED = Query(
    f"SELECT {', '.join('t.' + column for column in TOURNAMENT.split(', '))} FROM tournaments t "
    "JOIN tournament_entrants e ON e.tournament_id = t.id "
    "WHERE t.guild_id = ? AND e.user_id = ? AND t.stage = 'finished' ORDER BY t.id"
)
START = Query(
    "UPDATE tournaments SET stage = 'running', started_at = ?, ends_at = ?, "
    "rounds = COALESCE(?, rounds) WHERE id = ? AND stage = 'open'"
)
FINISH = Query("UPDATE tournaments SET stage = ? WHERE id = ? AND stage IN ('open', 'running')")
MESSAGES = Query(
    "UPDATE tournaments SET message_id = COALESCE(?, message_id), "
    "final_message_id = COALESCE(?, final_message_id) WHERE id = ?"
)
# A Swiss round moves on only from the round before it: a second start of the same round (a
# restart that paired again, another process) changes no row, and so writes nothing more.
NEXT_ROUND = Query(
    "UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND stage = 'running' "
    "AND format = 'swiss'"
)
ARENA_ROUND = Query("UPDATE tournaments SET round = ? WHERE id = ?")

ENTRANTS = Query(f"SELECT {ENTRANT} FROM tournament_entrants WHERE tournament_id = ? ORDER BY seq")
PRESENCE = Query("SELECT presence FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?")
COUNT = Query(
    "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM tournament_entrants WHERE tournament_id = ?"
)
JOIN = Query(
    "INSERT INTO tournament_entrants (tournament_id, user_id, seq, rating, presence, joined_at) "
    "VALUES (?, ?, ?, ?, 'in', ?)"
)
WITHDRAW = Query("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?")
LEAVE = Query(
    "UPDATE tournament_entrants SET presence = 'left' "
    "WHERE tournament_id = ? AND user_id = ? AND presence <> 'left'"
)
PAUSE = Query(
    "UPDATE tournament_entrants SET presence = ? "
    "WHERE tournament_id = ? AND user_id = ? AND presence IN ('in', 'paused') AND presence <> ?"
)

SEAT = Query(
    "INSERT INTO tournament_seats (tournament_id, round, user_id, playing) VALUES (?, ?, ?, ?)"
)
GAME = Query(
    "INSERT INTO tournament_games (tournament_id, round, board, x_id, o_id) VALUES (?, ?, ?, ?, ?)"
)
BYE = Query("INSERT INTO tournament_byes (tournament_id, round, user_id) VALUES (?, ?, ?)")
_KEY = "WHERE tournament_id = ? AND round = ? AND board = ?"
# Each is set once: a second attach keeps what the first stored (the caller reads it back).
ATTACH = Query(
    "UPDATE tournament_games SET game_id = COALESCE(game_id, ?), "
    f"thread_id = COALESCE(thread_id, ?) {_KEY} RETURNING {PAIRING}"
)
# A result is recorded once: only over none, and the players' seats freed in the same transaction.
RESULT = Query(
    f"UPDATE tournament_games SET result = ? {_KEY} AND result IS NULL RETURNING x_id, o_id"
)
FREE = Query(
    "UPDATE tournament_seats SET playing = ? "
    "WHERE tournament_id = ? AND round = ? AND user_id IN (?, ?)"
)
PAIRINGS = Query(
    f"SELECT {PAIRING} FROM tournament_games WHERE tournament_id = ? ORDER BY round, board"
)
PAIRING_OF_GAME = Query(f"SELECT {PAIRING} FROM tournament_games WHERE game_id = ?")
BYES = Query("SELECT round, user_id FROM tournament_byes WHERE tournament_id = ? ORDER BY round")
PLAYING = Query("SELECT user_id FROM tournament_seats WHERE tournament_id = ? AND playing")

# Schema step 7 (a released step never changes), in ``dialect.TYPES``' words. A player's seat in
# a round is one row of ``tournament_seats`` (its key: nobody sits twice in a round), which each
# game's two players and each bye refer to; ``playing`` is true while the seat's game goes on,
# and a player has one such seat at most.
_TABLES = (
    """CREATE TABLE tournaments (
        id {serial} PRIMARY KEY,
        guild_id {big} NOT NULL,
        channel_id {big} NOT NULL,
        creator_id {big} NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('swiss', 'arena')),
        kind TEXT NOT NULL,
        size INTEGER NOT NULL,
        k INTEGER NOT NULL,
        move_seconds INTEGER NOT NULL CHECK (move_seconds > 0),
        starts_at {time},
        rounds INTEGER CHECK (rounds > 0),
        minutes INTEGER CHECK (minutes > 0),
        capacity INTEGER CHECK (capacity >= 2),
        locale TEXT NOT NULL,
        stage TEXT NOT NULL CHECK (stage IN ('open', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL CHECK (round >= 0),
        message_id {big},
        final_message_id {big},
        created_at {time} NOT NULL,
        started_at {time},
        ends_at {time},
        CHECK ((format = 'swiss') = (rounds IS NOT NULL)),
        CHECK ((format = 'arena') = (minutes IS NOT NULL))
    )""",
    "CREATE INDEX tournaments_live ON tournaments (stage) WHERE stage IN ('open', 'running')",
    """CREATE TABLE tournament_entrants (
        tournament_id {big} NOT NULL REFERENCES tournaments (id),
        user_id {big} NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        rating {real},
        presence TEXT NOT NULL CHECK (presence IN ('in', 'left', 'paused')),
        joined_at {time} NOT NULL,
        PRIMARY KEY (tournament_id, user_id),
        UNIQUE (tournament_id, seq)
    ){rowid}""",
    """CREATE TABLE tournament_seats (
        tournament_id {big} NOT NULL,
        round INTEGER NOT NULL,
        user_id {big} NOT NULL,
        playing {flag} NOT NULL,
        PRIMARY KEY (tournament_id, round, user_id),
        FOREIGN KEY (tournament_id, user_id)
            REFERENCES tournament_entrants (tournament_id, user_id)
    ){rowid}""",
    "CREATE UNIQUE INDEX tournament_seats_playing ON tournament_seats (tournament_id, user_id) "
    "WHERE playing",
    """CREATE TABLE tournament_games (
        tournament_id {big} NOT NULL,
        round INTEGER NOT NULL CHECK (round >= 1),
        board INTEGER NOT NULL CHECK (board >= 1),
        x_id {big} NOT NULL,
        o_id {big} NOT NULL,
        result {real} CHECK (result IN (0, 0.5, 1)),
        game_id {big} UNIQUE,
        thread_id {big},
        PRIMARY KEY (tournament_id, round, board),
        FOREIGN KEY (tournament_id, round, x_id)
            REFERENCES tournament_seats (tournament_id, round, user_id),
        FOREIGN KEY (tournament_id, round, o_id)
            REFERENCES tournament_seats (tournament_id, round, user_id),
        CHECK (x_id <> o_id)
    ){rowid}""",
    # (A WITHOUT ROWID table's key columns come first, in the key's order: SQLite's integrity
    # check misreads the table otherwise.)
    """CREATE TABLE tournament_byes (
        tournament_id {big} NOT NULL,
        user_id {big} NOT NULL,
        round INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, user_id),
        UNIQUE (tournament_id, round),
        FOREIGN KEY (tournament_id, round, user_id)
            REFERENCES tournament_seats (tournament_id, round, user_id)
    ){rowid}""",
)

_TIMES = frozenset({"starts_at", "created_at", "started_at", "ends_at", "joined_at"})
STEP = Step.both(
    _TABLES,
    tables=(
        Table("tournaments", tuple(TOURNAMENT.split(", ")), times=_TIMES, serial="id"),
        Table("tournament_entrants", ("tournament_id", *ENTRANT.split(", ")), times=_TIMES),
        Table(
            "tournament_seats",
            ("tournament_id", "round", "user_id", "playing"),
            flags=frozenset({"playing"}),
        ),
        Table("tournament_games", tuple(PAIRING.split(", "))),
        Table("tournament_byes", ("tournament_id", "round", "user_id")),
    ),
)


def create_args(
    t: Tournament, created: Any, when: Callable[[datetime | None], Any]
) -> tuple[Any, ...]:
    """The values of ``CREATE`` (`created`: the creation time as stored; `when` stores a time)."""
    return (
        t.guild_id,
        t.channel_id,
        t.creator_id,
        t.format.value,
        t.kind,
        t.size,
        t.k,
        t.move_seconds,
        when(t.starts_at),
        t.rounds,
        t.minutes,
        t.capacity,
        t.locale,
        t.stage.value,
        t.round,
        t.message_id,
        t.final_message_id,
        created,
        when(t.started_at),
        when(t.ends_at),
    )


def tournament_of(row: Sequence[Any], when: Callable[[Any], Any]) -> Tournament:
    """A tournament from a row of ``TOURNAMENT`` (`when` reads a stored time, never None)."""
    (
        tid,
        guild,
        channel,
        creator,
        fmt,
        kind,
        size,
        k,
        move_seconds,
        starts_at,
        rounds,
        minutes,
        capacity,
        locale,
        stage,
        round_,
        message,
        final,
        created,
        started,
        ends,
    ) = row

    def read(value: Any) -> Any:
        return None if value is None else when(value)

    return Tournament(
        int(tid),
        int(guild),
        int(channel),
        int(creator),
        Format(fmt),
        kind,
        size,
        k,
        move_seconds,
        read(starts_at),
        rounds,
        minutes,
        capacity,
        locale,
        Stage(stage),
        round_,
        message,
        final,
        read(created),
        read(started),
        read(ends),
    )


def entrant_of(row: Sequence[Any], when: Callable[[Any], Any]) -> Entrant:
    """An entrant from a row of ``ENTRANT``."""
    user, seq, rating, presence, joined = row
    rating = None if rating is None else float(rating)
    return Entrant(int(user), int(seq), rating, Presence(presence), when(joined))


def pairing_of(row: Sequence[Any]) -> Pairing:
    """A pairing from a row of ``PAIRING``."""
    tid, round_, board, x, o, result, game, thread = row
    result = None if result is None else float(result)
    return Pairing(int(tid), round_, board, int(x), int(o), result, game, thread)


def round_rows(
    tid: int, round: int, pairs: Sequence[tuple[int, int]], bye: int | None = None
) -> list[tuple[Query, tuple[Any, ...]]]:
    """The statements that store a round's games and bye: seats first (the rest refer to them)."""
    rows: list[tuple[Query, tuple[Any, ...]]] = []
    for board, (x, o) in enumerate(pairs, 1):
        rows += [(SEAT, (tid, round, x, True)), (SEAT, (tid, round, o, True))]
        rows.append((GAME, (tid, round, board, x, o)))
    if bye is not None:
        rows += [(SEAT, (tid, round, bye, False)), (BYE, (tid, round, bye))]
    return rows


def arena_pairings(
    tournament: Tournament | None, pairs: Sequence[tuple[int, int]]
) -> list[Pairing]:
    """An arena's new games, numbered after its last (none unless it is a running arena)."""
    if tournament is None or tournament.stage is not Stage.RUNNING:
        return []
    if tournament.format is not Format.ARENA:
        return []
    first = tournament.round + 1
    return [Pairing(tournament.id, first + n, 1, x, o) for n, (x, o) in enumerate(pairs)]


def arena_rows(made: Sequence[Pairing]) -> list[tuple[Query, tuple[Any, ...]]]:
    """The statements that store an arena's new games and move its last number on."""
    rows = [row for p in made for row in round_rows(p.tournament_id, p.round, ((p.x, p.o),))]
    return [*rows, (ARENA_ROUND, (made[-1].round, made[-1].tournament_id))] if made else []


def leaving(tournament: Tournament | None) -> Query | None:
    """The statement that takes a player out: before the start their entry goes, while it runs
    they are marked left; None once it is over (or if there is no such tournament)."""
    if tournament is None or tournament.stage not in (Stage.OPEN, Stage.RUNNING):
        return None
    return WITHDRAW if tournament.stage is Stage.OPEN else LEAVE
