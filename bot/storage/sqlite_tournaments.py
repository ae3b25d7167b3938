"""The SQLite store's tournament methods (a base class of ``SQLiteStore``), run on its own thread.

Each call is one transaction (``BEGIN IMMEDIATE``: the file's writer lock is taken first, so a
call that reads before it writes reads what it writes over), but ``attach_game``, which joins the
store's group commit (in a savepoint of its own, as a puzzle attempt's writes do).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from bot.games.tournaments.record import Bye, Game
from bot.games.tournaments.tournament import (
    Entrant,
    Join,
    Pairing,
    Presence,
    Stage,
    Tournament,
    check_round,
    join_outcome,
)
from bot.storage import tournament_sql as sql
from bot.storage.schema import iso

T = TypeVar("T")


class SQLiteTournaments:
    """Tournaments, their entrants, rounds, games and byes on the SQLite file."""

    if TYPE_CHECKING:

        async def _run(self, fn: Callable[..., T], *args: Any) -> T: ...
        def _read(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...
        def _write(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...
        async def _together(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T: ...

    async def _in(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """`body` in one write transaction on the store's thread."""
        return await self._run(self._write, what, body)

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament and give it its id (``tournament.id`` is ignored)."""
        created = iso(tournament.created_at or datetime.now(UTC))
        args = sql.create_args(tournament, created, iso)

        def create(conn: sqlite3.Connection) -> Tournament:
            found = _tournament(conn, conn.execute(sql.CREATE, args).fetchone()[0])
            assert found is not None
            return found

        return await self._in(f"create a tournament in {tournament.guild_id}", create)

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        """The stored tournament, or None."""
        what = f"load tournament {tournament_id}"
        return await self._run(self._read, what, lambda c: _tournament(c, tournament_id))

    async def tournaments_running(
        self, guild_ids: Collection[int] | None = None
    ) -> list[Tournament]:
        """Every tournament open or running in these servers (None: in every server)."""

        def load(conn: sqlite3.Connection) -> list[Tournament]:
            found = [sql.tournament_of(row, _when) for row in conn.execute(sql.LIVE)]
            return [t for t in found if guild_ids is None or t.guild_id in guild_ids]

        return await self._run(self._read, "load the live tournaments", load)

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[Tournament]:
        """The finished tournaments of a server that a player entered, by id."""

        def load(conn: sqlite3.Connection) -> list[Tournament]:
            rows = conn.execute(sql.ENTERED, (guild_id, user_id))
            return [sql.tournament_of(row, _when) for row in rows]

        return await self._run(self._read, f"load the tournaments of {user_id}", load)

    async def start_tournament(
        self, tournament_id: int, *, at: datetime, ends_at: datetime | None = None,
        rounds: int | None = None,
    ) -> bool:  # fmt: skip
        """Open to running, started `at` (an arena ending `ends_at`); False if not open."""
        args = (iso(at), iso(ends_at), rounds, tournament_id)
        return await self._in(
            f"start tournament {tournament_id}", lambda c: c.execute(sql.START, args).rowcount == 1
        )

    async def finish_tournament(self, tournament_id: int, stage: Stage = Stage.FINISHED) -> bool:
        """Open or running to finished (or cancelled); False if it was over already."""
        args = (Stage(stage).value, tournament_id)
        return await self._in(
            f"end tournament {tournament_id}", lambda c: c.execute(sql.FINISH, args).rowcount == 1
        )

    async def set_tournament_messages(
        self, tournament_id: int, *, message_id: int | None = None,
        final_message_id: int | None = None,
    ) -> None:  # fmt: skip
        """Keep the announcement's and the final message's ids (None: the stored one stays)."""
        args = (message_id, final_message_id, tournament_id)
        what = f"keep the messages of tournament {tournament_id}"
        await self._in(what, lambda c: c.execute(sql.MESSAGES, args))

    async def join_tournament(
        self, tournament_id: int, user_id: int, *, rating: float | None = None,
        at: datetime | None = None,
    ) -> Join:  # fmt: skip
        """Add a player (their rating now seeds them) if ``join_outcome`` allows; what it gave."""
        joined = iso(at or datetime.now(UTC))

        def join(conn: sqlite3.Connection) -> Join:
            row = conn.execute(sql.PRESENCE, (tournament_id, user_id)).fetchone()
            count, last = conn.execute(sql.COUNT, (tournament_id,)).fetchone()
            presence = None if row is None else Presence(row[0])
            outcome = join_outcome(_tournament(conn, tournament_id), count, presence)
            if outcome is Join.JOINED:
                conn.execute(sql.JOIN, (tournament_id, user_id, last + 1, rating, joined))
            return outcome

        return await self._in(f"add player {user_id} to tournament {tournament_id}", join)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Before the start the player's entry goes; once running they are marked left and never
        paired again. False if they were not in it (or had left, or it is over)."""

        def leave(conn: sqlite3.Connection) -> bool:
            statement = sql.leaving(_tournament(conn, tournament_id))
            return bool(statement and conn.execute(statement, (tournament_id, user_id)).rowcount)

        return await self._in(f"take player {user_id} out of tournament {tournament_id}", leave)

    async def pause_entrant(self, tournament_id: int, user_id: int, paused: bool) -> bool:
        """Pause an entrant (or bring them back); False if nothing changed."""
        presence = (Presence.PAUSED if paused else Presence.IN).value
        args = (presence, tournament_id, user_id, presence)
        what = f"pause player {user_id} in tournament {tournament_id}"
        return await self._in(what, lambda c: c.execute(sql.PAUSE, args).rowcount == 1)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The tournament's entrants in the order they joined (``tournament.seeded`` seeds)."""

        def load(conn: sqlite3.Connection) -> list[Entrant]:
            rows = conn.execute(sql.ENTRANTS, (tournament_id,))
            return [sql.entrant_of(row, _when) for row in rows]

        return await self._run(self._read, f"load the entrants of {tournament_id}", load)

    async def start_round(
        self, tournament_id: int, round: int, pairs: tuple[tuple[int, int], ...],
        bye: int | None = None,
    ) -> bool:  # fmt: skip
        """Store a Swiss round's pairs (❌ first, boards in order) and bye, and move the
        tournament's round on, all in one transaction; False, writing nothing, unless the
        tournament is a running Swiss whose last round is ``round - 1``; RoundError, writing
        nothing, for a player seated twice or still playing, or a second bye."""
        check_round(pairs, bye)

        def start(conn: sqlite3.Connection) -> bool:
            if conn.execute(sql.NEXT_ROUND, (round, tournament_id, round - 1)).rowcount != 1:
                return False
            _check(conn, tournament_id, pairs, bye)
            for statement, args in sql.round_rows(tournament_id, round, pairs, bye):
                conn.execute(statement, args)
            return True

        return await self._in(f"start round {round} of tournament {tournament_id}", start)

    async def pair_arena(
        self, tournament_id: int, pairs: tuple[tuple[int, int], ...]
    ) -> list[Pairing]:
        """Store an arena's new games (each numbered after the last) in one transaction; none
        unless it is a running arena. A player still playing there is a RoundError."""
        check_round(pairs, None)

        def pair(conn: sqlite3.Connection) -> list[Pairing]:
            made = sql.arena_pairings(_tournament(conn, tournament_id), pairs)
            if made:
                _check(conn, tournament_id, pairs, None)
            for statement, args in sql.arena_rows(made):
                conn.execute(statement, args)
            return made

        return await self._in(f"pair players in tournament {tournament_id}", pair)

    async def attach_game(
        self, pairing: Pairing, *, game_id: int | None = None, thread_id: int | None = None
    ) -> Pairing | None:
        """Give a pairing its bot game and thread, each once (a second keeps the first); the
        pairing as stored after it, or None if there is no such pairing."""
        args = (game_id, thread_id, pairing.tournament_id, pairing.round, pairing.board)

        def attach(conn: sqlite3.Connection) -> Pairing | None:
            row = conn.execute(sql.ATTACH, args).fetchone()
            return None if row is None else sql.pairing_of(row)

        what = f"attach game {game_id} to tournament {pairing.tournament_id}"
        return await self._together(what, attach)  # with the round's other games' writes

    async def record_result(self, pairing: Pairing, result: float) -> bool:
        """Record a game's result (❌'s score) once, freeing both players; False if it had one."""
        p = pairing

        def record(conn: sqlite3.Connection) -> bool:
            row = conn.execute(sql.RESULT, (result, p.tournament_id, p.round, p.board)).fetchone()
            if row is None:
                return False
            conn.execute(sql.FREE, (False, p.tournament_id, p.round, *row))
            return True

        return await self._in(f"record a result of tournament {p.tournament_id}", record)

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """Every game of the tournament with its ids, by round and board."""

        def load(conn: sqlite3.Connection) -> list[Pairing]:
            return [sql.pairing_of(row) for row in conn.execute(sql.PAIRINGS, (tournament_id,))]

        return await self._run(self._read, f"load the games of tournament {tournament_id}", load)

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        """The tournament game that bot game `game_id` is, or None."""

        def load(conn: sqlite3.Connection) -> Pairing | None:
            row = conn.execute(sql.PAIRING_OF_GAME, (game_id,)).fetchone()
            return None if row is None else sql.pairing_of(row)

        return await self._run(self._read, f"load the tournament of game {game_id}", load)

    async def games_of(self, tournament_id: int) -> list[Game]:
        """The tournament's games as pairing and standings take them, by round and board."""
        return [pairing.game for pairing in await self.pairings(tournament_id)]

    async def byes_of(self, tournament_id: int) -> list[Bye]:
        """The tournament's byes, by round."""

        def load(conn: sqlite3.Connection) -> list[Bye]:
            return [Bye(r, int(u)) for r, u in conn.execute(sql.BYES, (tournament_id,))]

        return await self._run(self._read, f"load the byes of tournament {tournament_id}", load)


def _check(
    conn: sqlite3.Connection, tid: int, pairs: Sequence[tuple[int, int]], bye: int | None
) -> None:
    """``check_round`` against the players still playing and those who had a bye."""
    playing = [row[0] for row in conn.execute(sql.PLAYING, (tid,))]
    had_bye = [row[1] for row in conn.execute(sql.BYES, (tid,))]
    check_round(pairs, bye, playing=playing, had_bye=had_bye)


def _tournament(conn: sqlite3.Connection, tid: int) -> Tournament | None:
    row = conn.execute(sql.LOAD, (tid,)).fetchone()
    return None if row is None else sql.tournament_of(row, _when)


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)
