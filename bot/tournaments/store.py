"""Tournaments in the store: their calls, written once for both databases against
``bot.storage.base.Tx`` (the statements and rows: ``sql``; the schema step: ``sql.STEP``).

Each call is one transaction. A call that reads before it writes (joining, leaving, pairing an
arena) locks the tournament's row first (PostgreSQL's ``FOR UPDATE``; SQLite's writer takes the
file's lock at ``BEGIN IMMEDIATE``), so two processes or shards asking at once take turns; a
Swiss round moves on by one statement that applies only from the round before, so a round
started twice is stored once. A pairing's game is attached with the saves of the games around
it (SQLite's group commit).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime

from bot.storage.base import Database, Tx
from bot.tournaments.record import Bye, Game
from bot.tournaments.sql import (
    ATTACH,
    BYES,
    COUNT,
    CREATE,
    ENTERED,
    ENTRANTS,
    FINISH,
    FREE,
    JOIN,
    LIVE,
    LOAD,
    LOCK,
    MESSAGES,
    NEXT_ROUND,
    PAIRING_OF_GAME,
    PAIRINGS,
    PAUSE,
    PLAYING,
    PRESENCE,
    RESULT,
    START,
    arena_pairings,
    arena_rows,
    create_args,
    entrant_of,
    leaving,
    pairing_of,
    round_rows,
    tournament_of,
)
from bot.tournaments.tournament import (
    Entrant,
    Join,
    Pairing,
    Presence,
    Stage,
    Tournament,
    check_round,
    join_outcome,
)


class TournamentStore:
    """Tournaments, their entrants, rounds, games and byes, on the database it is given."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament; it as stored, with its id (``tournament.id`` is ignored)."""
        created = tournament.created_at or datetime.now(UTC)

        async def create(tx: Tx) -> Tournament:
            tid = await tx.value(CREATE, *create_args(tournament, tx.time(created), tx.time))
            found = await _tournament(tx, tid)
            assert found is not None
            return found

        what = f"create a tournament in {tournament.guild_id}"
        return await self.db.write("create_tournament", what, create)

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        """The stored tournament, or None."""
        what = f"load tournament {tournament_id}"
        return await self.db.read("get_tournament", what, lambda tx: _tournament(tx, tournament_id))

    async def tournaments_running(
        self, guild_ids: Collection[int] | None = None
    ) -> list[Tournament]:
        """Every tournament open or running in these servers (None: every server), by id."""

        async def load(tx: Tx) -> list[Tournament]:
            found = [tournament_of(row, tx.when) for row in await tx.rows(LIVE)]
            return [t for t in found if guild_ids is None or t.guild_id in guild_ids]

        return await self.db.read("tournaments_running", "load the live tournaments", load)

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[Tournament]:
        """The finished tournaments of a server that a player entered, by id."""

        async def load(tx: Tx) -> list[Tournament]:
            rows = await tx.rows(ENTERED, guild_id, user_id)
            return [tournament_of(row, tx.when) for row in rows]

        what = f"load the tournaments of {user_id}"
        return await self.db.read("tournaments_entered", what, load)

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        at: datetime,
        ends_at: datetime | None = None,
        rounds: int | None = None,
    ) -> bool:
        """Open to running, started `at` (an arena ending `ends_at`, a Swiss playing `rounds`
        rounds if given: its number fixed from the field at the start); False if it was not open."""

        async def start(tx: Tx) -> bool:
            return (
                await tx.changed(START, tx.time(at), tx.time(ends_at), rounds, tournament_id) == 1
            )

        what = f"start tournament {tournament_id}"
        return await self.db.write("start_tournament", what, start, single=True)

    async def finish_tournament(self, tournament_id: int, stage: Stage = Stage.FINISHED) -> bool:
        """Open or running to finished (or cancelled); False if it was over already."""

        async def finish(tx: Tx) -> bool:
            return await tx.changed(FINISH, Stage(stage).value, tournament_id) == 1

        what = f"end tournament {tournament_id}"
        return await self.db.write("finish_tournament", what, finish, single=True)

    async def set_tournament_messages(
        self,
        tournament_id: int,
        *,
        message_id: int | None = None,
        final_message_id: int | None = None,
    ) -> None:
        """Keep the announcement's and the final message's ids (None: the stored one stays)."""

        async def keep(tx: Tx) -> None:
            await tx.changed(MESSAGES, message_id, final_message_id, tournament_id)

        what = f"keep the messages of tournament {tournament_id}"
        await self.db.write("set_tournament_messages", what, keep, single=True)

    async def join_tournament(
        self,
        tournament_id: int,
        user_id: int,
        *,
        rating: float | None = None,
        at: datetime | None = None,
    ) -> Join:
        """Add a player if ``tournament.join_outcome`` allows it (their rating now seeds them);
        what asking gave. Two asking at once for the last place: one joins."""
        joined = at or datetime.now(UTC)

        async def join(tx: Tx) -> Join:
            tournament = await _tournament(tx, tournament_id, lock=True)
            presence = await tx.value(PRESENCE, tournament_id, user_id)
            count, last = await tx.row(COUNT, tournament_id) or (0, 0)
            outcome = join_outcome(tournament, count, presence and Presence(presence))
            if outcome is Join.JOINED:
                await tx.changed(JOIN, tournament_id, user_id, last + 1, rating, tx.time(joined))
            return outcome

        what = f"add player {user_id} to tournament {tournament_id}"
        return await self.db.write("join_tournament", what, join)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Before the start the player's entry goes; once running they are left, never paired
        again. False if nothing changed."""

        async def leave(tx: Tx) -> bool:
            statement = leaving(await _tournament(tx, tournament_id, lock=True))
            return (
                statement is not None and await tx.changed(statement, tournament_id, user_id) == 1
            )

        what = f"take player {user_id} out of tournament {tournament_id}"
        return await self.db.write("leave_tournament", what, leave)

    async def pause_entrant(self, tournament_id: int, user_id: int, paused: bool) -> bool:
        """Pause an entrant (an arena's) or bring them back; False if nothing changed."""
        presence = (Presence.PAUSED if paused else Presence.IN).value

        async def pause(tx: Tx) -> bool:
            return await tx.changed(PAUSE, presence, tournament_id, user_id, presence) == 1

        what = f"pause player {user_id} in tournament {tournament_id}"
        return await self.db.write("pause_entrant", what, pause, single=True)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The entrants in the order they joined (``tournament.seeded`` puts them in seed order)."""

        async def load(tx: Tx) -> list[Entrant]:
            return [entrant_of(row, tx.when) for row in await tx.rows(ENTRANTS, tournament_id)]

        return await self.db.read("entrants", f"load the entrants of {tournament_id}", load)

    async def start_round(
        self,
        tournament_id: int,
        round: int,
        pairs: tuple[tuple[int, int], ...],
        bye: int | None = None,
    ) -> bool:
        """Store a Swiss round (pairs ❌ first, in board order; the bye) and move the
        tournament's round on, in one transaction: all of it or nothing. False, writing nothing,
        unless it is a running Swiss whose last round is ``round - 1`` (a round is stored once).
        A player seated twice or still playing, or a second bye: ``tournament.RoundError`` (a
        ValueError), nothing written."""
        check_round(pairs, bye)

        async def start(tx: Tx) -> bool:
            if await tx.changed(NEXT_ROUND, round, tournament_id, round - 1) != 1:
                return False
            await _check(tx, tournament_id, pairs, bye)
            for statement, args in round_rows(tournament_id, round, pairs, bye):
                await tx.changed(statement, *args)
            return True

        what = f"start round {round} of tournament {tournament_id}"
        return await self.db.write("start_round", what, start)

    async def pair_arena(
        self, tournament_id: int, pairs: tuple[tuple[int, int], ...]
    ) -> list[Pairing]:
        """Store an arena's new games, numbered after its last, in one transaction; [] unless
        it is a running arena. A player still playing there: RoundError, nothing written."""
        check_round(pairs, None)

        async def pair(tx: Tx) -> list[Pairing]:
            made = arena_pairings(await _tournament(tx, tournament_id, lock=True), pairs)
            if made:
                await _check(tx, tournament_id, pairs, None)
            for statement, args in arena_rows(made):
                await tx.changed(statement, *args)
            return made

        what = f"pair players in tournament {tournament_id}"
        return await self.db.write("pair_arena", what, pair)

    async def attach_game(
        self, pairing: Pairing, *, game_id: int | None = None, thread_id: int | None = None
    ) -> Pairing | None:
        """Give a pairing its bot game (``games``' id) and thread, each once: a second keeps the
        first. The pairing as stored after it (None: no such pairing)."""
        p = pairing

        async def attach(tx: Tx) -> Pairing | None:
            row = await tx.row(ATTACH, game_id, thread_id, p.tournament_id, p.round, p.board)
            return None if row is None else pairing_of(row)

        what = f"attach game {game_id} to tournament {p.tournament_id}"
        # With the round's other games' writes, on SQLite; one statement on PostgreSQL.
        return await self.db.write("attach_game", what, attach, together=True, single=True)

    async def record_result(self, pairing: Pairing, result: float) -> bool:
        """Record a game's result (❌'s score), freeing both players: True once, False after."""
        p = pairing

        async def record(tx: Tx) -> bool:
            row = await tx.row(RESULT, result, p.tournament_id, p.round, p.board)
            if row is None:
                return False
            await tx.changed(FREE, False, p.tournament_id, p.round, *row)
            return True

        what = f"record a result of tournament {p.tournament_id}"
        return await self.db.write("record_result", what, record)

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """Every game of the tournament with its ids, by round and board."""

        async def load(tx: Tx) -> list[Pairing]:
            return [pairing_of(row) for row in await tx.rows(PAIRINGS, tournament_id)]

        return await self.db.read("pairings", f"load the games of tournament {tournament_id}", load)

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        """The tournament game that bot game `game_id` is, or None."""

        async def load(tx: Tx) -> Pairing | None:
            row = await tx.row(PAIRING_OF_GAME, game_id)
            return None if row is None else pairing_of(row)

        what = f"load the tournament of game {game_id}"
        return await self.db.read("pairing_of_game", what, load)

    async def games_of(self, tournament_id: int) -> list[Game]:
        """The tournament's games as pairing and standings take them, by round and board."""
        return [pairing.game for pairing in await self.pairings(tournament_id)]

    async def byes_of(self, tournament_id: int) -> list[Bye]:
        """The tournament's byes, by round."""

        async def load(tx: Tx) -> list[Bye]:
            return [Bye(row[0], int(row[1])) for row in await tx.rows(BYES, tournament_id)]

        what = f"load the byes of tournament {tournament_id}"
        return await self.db.read("byes_of", what, load)


async def _tournament(tx: Tx, tid: int, *, lock: bool = False) -> Tournament | None:
    row = await tx.row(LOCK if lock else LOAD, tid)
    return None if row is None else tournament_of(row, tx.when)


async def _check(tx: Tx, tid: int, pairs: Sequence[tuple[int, int]], bye: int | None) -> None:
    """``check_round`` against the players still playing and those who had a bye."""
    playing = [row[0] for row in await tx.rows(PLAYING, tid)]
    had_bye = [row[1] for row in await tx.rows(BYES, tid)]
    check_round(pairs, bye, playing=playing, had_bye=had_bye)
