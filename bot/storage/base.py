"""The storage interface the bot talks to, and the one error every backend raises.

Two faces: the games' own calls (`Store`: the click path's, each as fast as its backend allows),
and one transaction surface every feature writes its calls against once (`Database`, `Tx`):
a feature's body reads and writes through a `Tx` and runs on either database unchanged. A call
that goes through a store is counted at one entry point, by name, when a `Watch` is given (the
operator's metrics): its time, and whether it failed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.storage.dialect import Query

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds a command gives the store's part of its answer, so that the one response Discord waits
# 3 s for comes in time.
READ_BUDGET = 2.0


class StorageError(Exception):
    """Storage failed; the message is one line saying what and where, the cause is chained."""


async def in_time(work: Awaitable[T]) -> T:
    """The store's part of a command's answer, within `READ_BUDGET` so that the interaction's
    one response comes in time; past it a StorageError (said here in one line: the store's call
    was cancelled, so the store says nothing)."""
    try:
        return await asyncio.wait_for(work, READ_BUDGET)
    except TimeoutError:
        log.warning("the store took over %g s for a command's answer", READ_BUDGET)
        raise StorageError(f"the store took over {READ_BUDGET:g} s") from None


class Outage:
    """Whether the database answers, told in two log lines: one when it stops answering, one
    when it answers again. The calls that fail meanwhile log nothing more than debug lines (each
    caller says what it could not do), so an outage of an hour is two lines, not thousands.

    A store calls `failed` with each StorageError of a call that reached for the database, and
    `answered` after a call that succeeded while `since` is set (only then: a plain attribute
    check on every call, no call at all while the database answers).
    """

    def __init__(self) -> None:
        self.since: float | None = None  # monotonic time of the first failure, while down
        self.failures = 0

    def failed(self, error: StorageError) -> None:
        """A call failed: the first one of an outage is said, the others counted."""
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            log.error("the database stopped answering: %s", error)

    def answered(self) -> None:
        """A call succeeded: the end of an outage is said once."""
        if self.since is None:
            return
        log.info(
            "the database answers again after %.1f s (%d calls failed meanwhile)",
            time.monotonic() - self.since,
            self.failures,
        )
        self.since, self.failures = None, 0


class Watch(Protocol):
    """Who counts a store's calls (``bot.metrics``): each by name, its time and whether it
    failed; and each game's saves, so that a save after a failed one counts as a retry."""

    def called(self, name: str, seconds: float, failed: bool) -> None:
        """A call ended (`failed`: with a StorageError)."""

    def saved(self, game_id: int, failed: bool) -> None:
        """A game's save ended."""


async def watched(watch: Watch, name: str, work: Awaitable[T]) -> T:
    """`work`, its time and its failure told to `watch` under `name`."""
    started = time.perf_counter()
    try:
        result = await work
    except StorageError:
        watch.called(name, time.perf_counter() - started, True)
        raise
    watch.called(name, time.perf_counter() - started, False)
    return result


Row = Sequence[Any]


class Tx(Protocol):
    """One transaction, as a feature's calls see it on either database. ``sqlite`` says which,
    for the rare statement that differs."""

    sqlite: bool

    async def rows(self, q: Query, *args: Any) -> list[Row]:
        """Every row the statement gives."""

    async def row(self, q: Query, *args: Any) -> Row | None:
        """The statement's first row, or None."""

    async def value(self, q: Query, *args: Any) -> Any:
        """The first column of the first row, or None."""

    async def changed(self, q: Query, *args: Any) -> int:
        """Run the statement; how many rows it inserted, updated or deleted."""

    def time(self, moment: datetime | None) -> Any:
        """A time as this database stores it (None stays None)."""

    def when(self, stored: Any) -> datetime:
        """A stored time read back: aware, in UTC."""

    def game(self, row: Row) -> GameRecord:
        """A game from a row of the games' columns (``schema.COLUMNS``)."""


Body = Callable[[Tx], Coroutine[Any, Any, T]]


def drive(work: Coroutine[Any, Any, T]) -> T:
    """A body run to its end in one step: on SQLite a `Tx` never waits (each statement runs
    at once, on the thread that runs the body), so its coroutine ends at its first step."""
    try:
        work.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    work.close()
    raise RuntimeError("a transaction's body waited on something other than its Tx")


class Database(Protocol):
    """Transactions for the features' calls, each written once against `Tx`.

    `name` names the call (the operator's metrics count it), `what` says in words what failed
    ("cannot {what}: ..."). Failures raise StorageError, after a rollback.
    """

    async def read(self, name: str, what: str, body: Body[T]) -> T:
        """`body` in a transaction that only reads."""

    async def write(
        self, name: str, what: str, body: Body[T], *, together: bool = False, single: bool = False
    ) -> T:
        """`body` in a transaction that writes. `together`: it may share its commit with the
        saves of games queued beside it (SQLite's group commit); `single`: it is one statement,
        a transaction by itself (PostgreSQL sends no BEGIN and COMMIT for it)."""


class Store(Database, Protocol):
    """What the bot needs from storage. Every method runs its I/O off the event loop.

    Failures raise ``StorageError`` (a clear message, the cause chained); no method ever leaves a
    game half written. `watch`, when set, is told of every call.
    """

    watch: Watch | None

    async def open(self) -> None:
        """Create or migrate the database; called once from ``setup_hook``."""

    async def close(self) -> None:
        """Flush and close; called from the bot's ``close``."""

    async def next_game_id(self) -> int:
        """A fresh game id, never used before in this database."""

    async def save_game(self, game: GameRecord) -> None:
        """Insert or update the game (committed before this returns).

        When the game is finished for the first time, its result is counted in the stats and
        ratings in the same transaction; saving a finished game again counts nothing more.
        """

    async def load_game(self, game_id: int) -> GameRecord | None:
        """The stored game, or None."""

    async def live_games(self) -> list[GameRecord]:
        """Every game that is a pending challenge or still being played, oldest id first."""

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "classic"
    ) -> PlayerStats:
        """A player's records (vs people, vs each bot level) and rating in a server, in games of
        one kind (``bot.games.kinds``; zeros for someone who never played)."""

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 10, kind: str = "classic"
    ) -> list[LeaderboardRow]:
        """The best-rated players of a server in games of one kind, against people: those with
        at least one rated game, best rating first (then more rated games, lower id)."""

    async def server_settings(self) -> dict[int, ServerSettings]:
        """Every server's own settings, by server id (servers that set nothing are left out)."""

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        """Store a server's settings in place of its old ones (one row of JSON; committed before
        this returns)."""
