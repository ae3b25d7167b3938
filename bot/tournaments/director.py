"""Running tournaments: starting them, pairing each Swiss round when the last game of the round
before ends and each arena's free players as soon as two are free, recording results, ending them.

Everything it decides is read from the store and written to it first (``Store.start_round`` is
stored once, ``pair_arena`` refuses a player still playing, ``record_result`` counts once), one
tournament at a time (a lock for each), so a step begun twice, by a restart or by two events at
once, changes nothing the second time. At start-up (``resume``) every open or running tournament
of this process's servers goes on from the store: a result a crash left unrecorded is recorded,
a round paired but not set up gets its threads and boards (``tables.Tables``), a start or an
arena's end that came due meanwhile happens now. Between two such reads it holds what it read
(``last_read.LastRead``): a result in a Swiss round still being played needs no read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.cogs.games.texts import NOT_SAVED
from bot.discord_ui import replies
from bot.games.record import GameRecord, Status
from bot.i18n import N_, Text
from bot.storage.base import StorageError
from bot.tournaments import arena, swiss
from bot.tournaments.announcer import Announcer
from bot.tournaments.last_read import LastRead
from bot.tournaments.record import Tally, tally
from bot.tournaments.tables import Tables
from bot.tournaments.texts import CREATED, NOT_POSTED, RUNNING_HERE, STARTED, TOO_FEW
from bot.tournaments.tournament import (
    Format,
    Pairing,
    Presence,
    RoundError,
    Stage,
    Tournament,
    seeded,
    swiss_rounds,
)

log = logging.getLogger(__name__)

RETRY = 10.0  # seconds before a step the database or Discord refused is tried again


class Director:
    """Moves this process's tournaments on, each under its own lock."""

    def __init__(self, *, client: discord.Client, tables: Tables, announcer: Announcer) -> None:
        self.client = client
        self.tables = tables
        self.announcer = announcer
        self.flow = tables.flow
        self.store = tables.store
        self.tournament_store = tables.tournament_store
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._retrying: set[int] = set()  # servers whose tournaments are tried again soon
        self._held: dict[int, LastRead] = {}  # running tournaments as last read (``last_read``)
        self._changes: dict[int, int] = {}  # entrants' changes of each tournament, counted
        self._closed = False

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        if self._closed:  # the bot is stopping: a restart goes on with it
            work.close()
            return
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        self._closed = True
        for task in [*self._tasks, *self._timers.values()]:
            task.cancel()

    def _lock(self, tid: int) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    # ------------------------------------------------------------------ start and end

    async def start(self, t: Tournament) -> Text | None:
        """Start an open tournament now; why not, if it cannot start."""
        players = [
            e for e in await self.tournament_store.entrants(t.id) if e.presence is Presence.IN
        ]
        if len(players) < 2:
            return N_(TOO_FEW.msgid, n=len(players))
        now = discord.utils.utcnow()
        ends = now + timedelta(minutes=t.minutes) if t.minutes is not None else None
        rounds = swiss_rounds(t.rounds, len(players)) if t.rounds is not None else None
        if not await self.tournament_store.start_tournament(
            t.id, at=now, ends_at=ends, rounds=rounds
        ):
            return STARTED
        if ends is not None:
            self._at(t.id, ends, lambda: self.advance(t.id))
        self.spawn(self.advance(t.id))
        return None

    async def _start_due(self, tid: int) -> None:
        """A scheduled start: started, or cancelled with fewer than 2 players."""
        t: Tournament | None = None
        try:
            t = await self.tournament_store.get_tournament(tid)
            refusal = await self.start(t) if t is not None and t.stage is Stage.OPEN else None
            if t is not None and refusal is not None and refusal.msgid == TOO_FEW.msgid:
                if not await self.announcer.show_end(t, Stage.CANCELLED):
                    self.retry(t.guild_id)  # the start is due still: cancelled then
                    return
                await self.tournament_store.finish_tournament(tid, Stage.CANCELLED)
        except StorageError as error:  # tried again after the outage
            log.debug("could not start tournament %s: %s", tid, error)
            self.retry(None if t is None else t.guild_id)

    def _at(self, tid: int, when: datetime, work: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        """Run `work()` at `when` (at once if it is past); one timer a tournament."""

        async def later() -> None:
            await asyncio.sleep(max(0.0, (when - discord.utils.utcnow()).total_seconds()))
            await work()

        if (old := self._timers.pop(tid, None)) is not None:
            old.cancel()
        if not self._closed:  # stopping: the next start schedules it again
            self._timers[tid] = asyncio.create_task(later())

    async def announce(self, t: Tournament, where: discord.TextChannel) -> Text:
        """Store a new tournament, post its announcement in `where` and schedule its start; what
        came of it, for its creator (a tournament already running there refuses it; one whose
        announcement cannot be posted is cancelled)."""
        try:
            live = await self.tournament_store.tournaments_running([t.guild_id])
            if any(other.channel_id == t.channel_id for other in live):
                return N_(RUNNING_HERE.msgid, channel=where.mention)
            t = await self.tournament_store.create_tournament(t)
            try:
                sent = await self.announcer.post(t, where)
            except replies.CALL_FAILED as error:
                why = replies.describe(error)
                log.warning("could not post tournament %s in %s: %s", t.id, where.id, why)
                await self.tournament_store.finish_tournament(t.id, Stage.CANCELLED)
                return N_(NOT_POSTED.msgid, channel=where.mention)
            await self.tournament_store.set_tournament_messages(t.id, message_id=sent)
        except StorageError as error:
            log.debug("could not create a tournament: %s", error)
            return NOT_SAVED
        self.schedule(t)
        return N_(CREATED.msgid, channel=where.mention)

    def schedule(self, t: Tournament) -> None:
        """A tournament's next time: its start, or an arena's end."""
        if t.stage is Stage.OPEN and t.starts_at is not None:
            self._at(t.id, t.starts_at, lambda: self._start_due(t.id))
        elif t.stage is Stage.RUNNING and t.ends_at is not None:
            self._at(t.id, t.ends_at, lambda: self.advance(t.id))

    def changed(self, tid: int) -> None:
        """A player joined, left or paused: the tournament is read again at its next step, and
        the announcement edited as the store has it."""
        self._changes[tid] = self._changes.get(tid, 0) + 1
        self._held.pop(tid, None)
        self.announcer.refresh(tid)

    # ------------------------------------------------------------------ results

    async def game_ended(self, game: GameRecord) -> None:
        """A finished game: if it is a tournament's, its result counts, its thread is archived
        and the tournament moves on."""
        try:
            held = (h.of_game(game.id) for h in list(self._held.values()))
            pairing = next(filter(None, held), None) or await self.tournament_store.pairing_of_game(
                game.id
            )
            if pairing is None:
                return
            result = pairing.result
            if result is None:  # recorded once: a second record (the same game's) changes nothing
                result = game.cross_score
                await self.tournament_store.record_result(pairing, result)
        except StorageError as error:  # tried again after the outage
            log.debug("could not record the result of game %s: %s", game.id, error)
            self.retry(game.guild_id)
            return
        if not await self.tables.archive(pairing.thread_id, game.id):
            self.retry(game.guild_id)  # archived by `settle` then
        await self.advance(pairing.tournament_id, result=(pairing, result))

    def retry(self, guild_id: int | None) -> None:
        """Go on with a server's tournaments in `RETRY` seconds (once, however often asked)."""
        guild = guild_id or 0
        if guild in self._retrying:
            return
        self._retrying.add(guild)

        async def later() -> None:
            await asyncio.sleep(RETRY)
            self._retrying.discard(guild)
            await self.resume({guild})

        self.spawn(later())

    async def resume(self, guilds: set[int] | None = None) -> None:
        """Every open or running tournament of this process's servers (or of `guilds`) goes on
        from the store."""
        try:
            found = await self.tournament_store.tournaments_running(guilds)
        except StorageError as error:
            log.debug("could not load the tournaments to go on with: %s", error)
            for guild in guilds or [guild.id for guild in self.client.guilds]:
                self.retry(guild)
            return
        for t in found:
            if self.client.get_guild(t.guild_id) is None:
                continue  # another process's server
            if t.message_id is None:
                self.spawn(self._announce(t))
            self.schedule(t)
            if t.stage is Stage.RUNNING:
                self.spawn(self.settle(t))
            self.announcer.refresh(t.id)

    async def _announce(self, t: Tournament) -> None:
        """An announcement a crash kept from the store: found or posted, then shown."""
        try:
            recovered = await self.announcer.recover(t)
        except StorageError as error:
            log.debug("could not store the announcement of tournament %s: %s", t.id, error)
            recovered = False
        if not recovered:
            self.retry(t.guild_id)  # found or posted then
            return
        self.announcer.refresh(t.id)

    async def settle(self, t: Tournament) -> None:
        """Record the results of games that ended unrecorded (a crash, an outage), archive their
        threads, keep each live game's clock, then move the tournament on."""
        try:
            for p in await self.tournament_store.pairings(t.id):
                if p.game_id is None:
                    continue
                if p.result is None:
                    game = self.flow.live.games.get(p.game_id) or await self.store.load_game(
                        p.game_id
                    )
                    if game is None or game.status is not Status.FINISHED:
                        continue
                    await self.tournament_store.record_result(p, game.cross_score)
                # Its thread archived, unless Discord failed or a stop came first: now.
                await self.tables.archive(p.thread_id, p.game_id, t.guild_id)
        except StorageError as error:
            log.debug("could not go on with tournament %s: %s", t.id, error)
            self.retry(t.guild_id)
            return
        await self.advance(t.id)

    # ------------------------------------------------------------------ pairing

    async def advance(self, tid: int, *, result: tuple[Pairing, float] | None = None) -> None:
        """Pair what can be paired, set up the games that lack a table, end what is over.

        After a `result` (stored already) in a Swiss round still being played, as the
        tournament held says (``last_read``), there is nothing to pair: the result is held and the
        announcement shows it. Otherwise the store is read: after a result only the games
        this pairs now are set up (the other live games have theirs); otherwise (a start,
        start-up, a retry, an arena's newcomer) every game still being played is given
        whatever it lacks; and the tournament is held again as read."""
        async with self._lock(tid):
            held = self._held.get(tid)
            if held is not None and result is not None:
                held.recorded(*result)
            if held is None or result is None or not held.round_going_on():
                held = await self._step(tid, ended=result is not None)
        self.announcer.refresh(tid, held)

    async def _step(self, tid: int, *, ended: bool) -> LastRead | None:
        """`advance` from the store; the tournament held after it (None once it is over, or
        if the store failed: tried again soon)."""
        self._held.pop(tid, None)
        changes = self._changes.get(tid, 0)
        t: Tournament | None = None
        try:
            t = await self.tournament_store.get_tournament(tid)
            if t is None or t.stage is not Stage.RUNNING:
                return None
            step = self._swiss if t.format is Format.SWISS else self._arena
            t, new = await step(t)
            if t.stage is not Stage.RUNNING:
                return None
            listed = await self.tournament_store.pairings(tid) if not ended else new
            if not await self.tables.make_all(t, [p for p in listed if p.result is None]):
                self.retry(t.guild_id)
            entrants, pairings = (
                await self.tournament_store.entrants(tid),
                await self.tournament_store.pairings(tid),
            )
            held = LastRead(t, entrants, pairings, await self.tournament_store.byes_of(tid))
            if changes == self._changes.get(tid, 0):  # else what it read may be old already
                self._held[tid] = held
            return held
        except StorageError as error:
            log.debug("could not move tournament %s on: %s", tid, error)
            self.retry(None if t is None else t.guild_id)
            return None

    async def _swiss(self, t: Tournament) -> tuple[Tournament, list[Pairing]]:
        """The tournament after pairing its next round if the last is over; that round's games."""
        pairings = await self.tournament_store.pairings(t.id)
        if any(p.result is None for p in pairings):
            return t, []
        entrants = seeded(await self.tournament_store.entrants(t.id))
        players = [e.user_id for e in entrants if e.presence is Presence.IN]
        if t.round >= (t.rounds or 0) or len(players) < 2:
            return await self._finish(t, pairings), []
        games = [p.game for p in pairings]
        paired = swiss.pair(players, games, await self.tournament_store.byes_of(t.id))
        try:
            await self.tournament_store.start_round(t.id, t.round + 1, paired.pairs, paired.bye)
        except RoundError as error:  # a field that left too few to pair: it ends here
            log.warning("tournament %s ends early: %s", t.id, error)
            return await self._finish(t, pairings), []
        t = await self.tournament_store.get_tournament(t.id) or t
        return t, [p for p in await self.tournament_store.pairings(t.id) if p.round == t.round]

    async def _arena(self, t: Tournament) -> tuple[Tournament, list[Pairing]]:
        """The tournament after pairing its free players; the games paired now."""
        pairings = await self.tournament_store.pairings(t.id)
        going = [p for p in pairings if p.result is None]
        if t.ends_at is not None and discord.utils.utcnow() >= t.ends_at:
            return (t if going else await self._finish(t, pairings)), []
        busy = {p.x for p in going} | {p.o for p in going}
        last = {player: p.round for p in pairings for player in (p.x, p.o)}
        entrants = await self.tournament_store.entrants(t.id)
        free = [e for e in entrants if e.presence is Presence.IN and e.user_id not in busy]
        free.sort(key=lambda e: (last.get(e.user_id, 0), e.seq))
        records = tally(p.game for p in pairings)
        ids = [e.user_id for e in free]
        known = {player: records.get(player, Tally()) for player in ids}
        pairs = arena.pair_free(ids, known, playing=len(going))
        new = await self.tournament_store.pair_arena(t.id, tuple(pairs)) if pairs else []
        return await self.tournament_store.get_tournament(t.id) or t, new

    async def _finish(self, t: Tournament, pairings: list[Pairing]) -> Tournament:
        """The final message (once), the announcement showing the end, then the tournament
        over (stored last: a crash before leaves it running, and the next start ends it);
        tried again if Discord fails."""
        if t.message_id is None:  # its announcement is found or posted first (``recover``)
            if not await self.announcer.recover(t):
                self.retry(t.guild_id)
                return t
            t = await self.tournament_store.get_tournament(t.id) or t
        if t.final_message_id is None and not await self.announcer.post_final(t, pairings):
            self.retry(t.guild_id)
            return t
        if not await self.announcer.show_end(t):
            self.retry(t.guild_id)
            return t
        await self.tournament_store.finish_tournament(t.id)
        timer = self._timers.pop(t.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        return await self.tournament_store.get_tournament(t.id) or t
