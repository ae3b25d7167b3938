"""The PostgreSQL store's tournament methods (a base class of ``PostgresStore``).

The same SQL as SQLite's (``tournament_sql``, placeholders numbered). A call that reads before it
writes (joining, leaving, pairing an arena) locks the tournament's row first (``FOR UPDATE``), so
two processes or shards asking at once take turns; a Swiss round moves on by one statement that
applies only from the round before, so a round started twice is stored once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
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
from bot.storage.pg_schema import utc as _utc
from bot.storage.puzzle_sql import numbered as N

T = TypeVar("T")
LOCK = N(sql.LOAD) + " FOR UPDATE"


class PostgresTournaments:
    """Tournaments, their entrants, rounds, games and byes on PostgreSQL."""

    if TYPE_CHECKING:

        async def _transaction(
            self, what: str, body: Callable[[Any], Awaitable[T]], *, single: bool = False
        ) -> T: ...

    async def _changed(self, what: str, statement: str, *args: Any) -> bool:
        """One statement by itself; whether it changed a row."""

        async def run(conn: Any) -> bool:
            return bool((await conn.execute(N(statement), *args)).endswith(" 1"))

        return await self._transaction(what, run, single=True)

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament and give it its id (``tournament.id`` is ignored)."""
        created = tournament.created_at or datetime.now(UTC)
        args = sql.create_args(tournament, created, _utc)

        async def create(conn: Any) -> Tournament:
            tid = await conn.fetchval(N(sql.CREATE), *args)
            found = await _tournament(conn, tid)
            assert found is not None
            return found

        return await self._transaction(f"create a tournament in {tournament.guild_id}", create)

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        """The stored tournament, or None."""
        return await self._transaction(
            f"load tournament {tournament_id}", lambda c: _tournament(c, tournament_id)
        )

    async def tournaments_running(
        self, guild_ids: Collection[int] | None = None
    ) -> list[Tournament]:
        """Every tournament open or running in these servers (None: in every server)."""

        async def load(conn: Any) -> list[Tournament]:
            found = [sql.tournament_of(row, _utc) for row in await conn.fetch(sql.LIVE)]
            return [t for t in found if guild_ids is None or t.guild_id in guild_ids]

        return await self._transaction("load the live tournaments", load)

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[Tournament]:
        """The finished tournaments of a server that a player entered, by id."""

        async def load(conn: Any) -> list[Tournament]:
            rows = await conn.fetch(N(sql.ENTERED), guild_id, user_id)
            return [sql.tournament_of(row, _utc) for row in rows]

        return await self._transaction(f"load the tournaments of {user_id}", load)

    async def start_tournament(
        self, tournament_id: int, *, at: datetime, ends_at: datetime | None = None,
        rounds: int | None = None,
    ) -> bool:  # fmt: skip
        """Open to running, started `at` (an arena ending `ends_at`); False if not open."""
        what = f"start tournament {tournament_id}"
        return await self._changed(what, sql.START, _utc(at), _utc(ends_at), rounds, tournament_id)

    async def finish_tournament(self, tournament_id: int, stage: Stage = Stage.FINISHED) -> bool:
        """Open or running to finished (or cancelled); False if it was over already."""
        what = f"end tournament {tournament_id}"
        return await self._changed(what, sql.FINISH, Stage(stage).value, tournament_id)

    async def set_tournament_messages(
        self, tournament_id: int, *, message_id: int | None = None,
        final_message_id: int | None = None,
    ) -> None:  # fmt: skip
        """Keep the announcement's and the final message's ids (None: the stored one stays)."""
        what = f"keep the messages of tournament {tournament_id}"
        await self._changed(what, sql.MESSAGES, message_id, final_message_id, tournament_id)

    async def join_tournament(
        self, tournament_id: int, user_id: int, *, rating: float | None = None,
        at: datetime | None = None,
    ) -> Join:  # fmt: skip
        """Add a player (their rating now seeds them) if ``join_outcome`` allows; what it gave."""
        joined = _utc(at or datetime.now(UTC))

        async def join(conn: Any) -> Join:
            tournament = await _tournament(conn, tournament_id, lock=True)
            presence = await conn.fetchval(N(sql.PRESENCE), tournament_id, user_id)
            count, last = await conn.fetchrow(N(sql.COUNT), tournament_id)
            outcome = join_outcome(tournament, count, presence and Presence(presence))
            if outcome is Join.JOINED:
                await conn.execute(N(sql.JOIN), tournament_id, user_id, last + 1, rating, joined)
            return outcome

        return await self._transaction(f"add player {user_id} to tournament {tournament_id}", join)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Before the start the player's entry goes; once running they are marked left and never
        paired again. False if they were not in it (or had left, or it is over)."""

        async def leave(conn: Any) -> bool:
            statement = sql.leaving(await _tournament(conn, tournament_id, lock=True))
            if statement is None:
                return False
            return bool((await conn.execute(N(statement), tournament_id, user_id)).endswith(" 1"))

        what = f"take player {user_id} out of tournament {tournament_id}"
        return await self._transaction(what, leave)

    async def pause_entrant(self, tournament_id: int, user_id: int, paused: bool) -> bool:
        """Pause an entrant (or bring them back); False if nothing changed."""
        presence = (Presence.PAUSED if paused else Presence.IN).value
        what = f"pause player {user_id} in tournament {tournament_id}"
        return await self._changed(what, sql.PAUSE, presence, tournament_id, user_id, presence)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The tournament's entrants in the order they joined (``tournament.seeded`` seeds)."""

        async def load(conn: Any) -> list[Entrant]:
            rows = await conn.fetch(N(sql.ENTRANTS), tournament_id)
            return [sql.entrant_of(row, _utc) for row in rows]

        return await self._transaction(f"load the entrants of {tournament_id}", load)

    async def start_round(
        self, tournament_id: int, round: int, pairs: tuple[tuple[int, int], ...],
        bye: int | None = None,
    ) -> bool:  # fmt: skip
        """Store a Swiss round's pairs (❌ first, boards in order) and bye, and move the
        tournament's round on, all in one transaction; False, writing nothing, unless the
        tournament is a running Swiss whose last round is ``round - 1``; RoundError, writing
        nothing, for a player seated twice or still playing, or a second bye."""
        check_round(pairs, bye)

        async def start(conn: Any) -> bool:
            moved = await conn.execute(N(sql.NEXT_ROUND), round, tournament_id, round - 1)
            if moved != "UPDATE 1":
                return False
            await _check(conn, tournament_id, pairs, bye)
            for statement, args in sql.round_rows(tournament_id, round, pairs, bye):
                await conn.execute(N(statement), *args)
            return True

        return await self._transaction(f"start round {round} of tournament {tournament_id}", start)

    async def pair_arena(
        self, tournament_id: int, pairs: tuple[tuple[int, int], ...]
    ) -> list[Pairing]:
        """Store an arena's new games (each numbered after the last) in one transaction; none
        unless it is a running arena. A player still playing there is a RoundError."""
        check_round(pairs, None)

        async def pair(conn: Any) -> list[Pairing]:
            made = sql.arena_pairings(await _tournament(conn, tournament_id, lock=True), pairs)
            if made:
                await _check(conn, tournament_id, pairs, None)
            for statement, args in sql.arena_rows(made):
                await conn.execute(N(statement), *args)
            return made

        return await self._transaction(f"pair players in tournament {tournament_id}", pair)

    async def attach_game(
        self, pairing: Pairing, *, game_id: int | None = None, thread_id: int | None = None
    ) -> Pairing | None:
        """Give a pairing its bot game and thread, each once (a second keeps the first); the
        pairing as stored after it, or None if there is no such pairing."""
        p = pairing

        async def attach(conn: Any) -> Pairing | None:
            row = await conn.fetchrow(
                N(sql.ATTACH), game_id, thread_id, p.tournament_id, p.round, p.board
            )
            return None if row is None else sql.pairing_of(row)

        what = f"attach game {game_id} to tournament {p.tournament_id}"
        return await self._transaction(what, attach, single=True)

    async def record_result(self, pairing: Pairing, result: float) -> bool:
        """Record a game's result (❌'s score) once, freeing both players; False if it had one."""
        p = pairing

        async def record(conn: Any) -> bool:
            row = await conn.fetchrow(N(sql.RESULT), result, p.tournament_id, p.round, p.board)
            if row is None:
                return False
            await conn.execute(N(sql.FREE), False, p.tournament_id, p.round, *row)
            return True

        return await self._transaction(f"record a result of tournament {p.tournament_id}", record)

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """Every game of the tournament with its ids, by round and board."""

        async def load(conn: Any) -> list[Pairing]:
            return [sql.pairing_of(row) for row in await conn.fetch(N(sql.PAIRINGS), tournament_id)]

        return await self._transaction(f"load the games of tournament {tournament_id}", load)

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        """The tournament game that bot game `game_id` is, or None."""

        async def load(conn: Any) -> Pairing | None:
            row = await conn.fetchrow(N(sql.PAIRING_OF_GAME), game_id)
            return None if row is None else sql.pairing_of(row)

        return await self._transaction(f"load the tournament of game {game_id}", load)

    async def games_of(self, tournament_id: int) -> list[Game]:
        """The tournament's games as pairing and standings take them, by round and board."""
        return [pairing.game for pairing in await self.pairings(tournament_id)]

    async def byes_of(self, tournament_id: int) -> list[Bye]:
        """The tournament's byes, by round."""

        async def load(conn: Any) -> list[Bye]:
            rows = await conn.fetch(N(sql.BYES), tournament_id)
            return [Bye(row[0], int(row[1])) for row in rows]

        return await self._transaction(f"load the byes of tournament {tournament_id}", load)


async def _tournament(conn: Any, tid: int, *, lock: bool = False) -> Tournament | None:
    row = await conn.fetchrow(LOCK if lock else N(sql.LOAD), tid)
    return None if row is None else sql.tournament_of(row, _utc)


async def _check(conn: Any, tid: int, pairs: Sequence[tuple[int, int]], bye: int | None) -> None:
    """``check_round`` against the players still playing and those who had a bye."""
    playing = [row[0] for row in await conn.fetch(N(sql.PLAYING), tid)]
    had_bye = [row[1] for row in await conn.fetch(N(sql.BYES), tid)]
    check_round(pairs, bye, playing=playing, had_bye=had_bye)
