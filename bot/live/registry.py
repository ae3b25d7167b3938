"""Live games in memory: by id and by channel, one lock per game, and one clock for all deadlines.

The store is the record of truth; this registry is the fast path in front of it and the place
where per-process things live (locks, tasks, who is thinking, challenge cooldowns, boards that
are behind). It is filled from ``store.live_games()`` when the game cog loads, so a restart picks
every game up again.

Deadlines are kept in a heap watched by a single task, not a sleeping task per game: a thousand
live games cost a thousand heap entries, and a start-up re-arms them all at once. When one comes
due the registry calls ``on_due(game_id)``, which the game cog turns into an event; so is a live
game that leaves it finished (``on_end(game)``). The clock itself is passed in (``now``), so
a simulated Discord can move it.
"""

from __future__ import annotations

import asyncio
import heapq
import weakref
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

from bot.games import rules
from bot.games.record import GameRecord

RESERVED = 0  # a channel whose game is being created (no id yet)

# The tasks holding games' locks -> (how many, the loop time the first was taken): calls to
# Discord are bounded then. By task, not context: a task started under a lock holds nothing.
_holders: weakref.WeakKeyDictionary[Any, tuple[int, float]] = weakref.WeakKeyDictionary()


def held_since() -> float | None:
    """The loop time the running task took the game's lock it holds (None: it holds none)."""
    task = asyncio.current_task()
    held = _holders.get(task) if task is not None else None
    return held[1] if held is not None else None


class GameLock(asyncio.Lock):
    """A game's lock, which its holder knows it holds: a call to Discord made while one is
    held is bounded (``bot.discord_ui.window``), so no click waits on another's retries."""

    async def __aenter__(self) -> None:
        await super().__aenter__()
        task = asyncio.current_task()
        if task is not None:
            count, since = _holders.get(task, (0, asyncio.get_running_loop().time()))
            _holders[task] = (count + 1, since)

    async def __aexit__(self, *exc: Any) -> None:
        task = asyncio.current_task()
        count, since = _holders.pop(task, (0, 0.0))
        if count > 1:
            _holders[task] = (count - 1, since)
        await super().__aexit__(*exc)


class GameRegistry:
    """Live games of this process, and the locks, clock and tasks that go with them."""

    def __init__(
        self,
        *,
        on_due: Callable[[int], None],
        now: Callable[[], datetime],
        on_end: Callable[[GameRecord], None] | None = None,
        on_behind: Callable[[int], None] | None = None,
    ) -> None:
        self._games: dict[int, GameRecord] = {}
        # channel id -> its live games' ids (RESERVED for one being created)
        self._channels: dict[int, list[int]] = {}
        # A lock lives as long as someone holds or waits for it: ids of games long gone (or
        # never real: forged clicks) leave nothing behind.
        self._locks: weakref.WeakValueDictionary[int, GameLock] = weakref.WeakValueDictionary()
        self._on_due = on_due
        self._on_end = on_end
        self._on_behind = on_behind  # told each game whose board falls behind
        self.now = now  # the clock deadlines are read on (aware UTC)
        self._deadlines: dict[int, datetime] = {}  # game id -> when it is due
        self._heap: list[tuple[datetime, int]] = []  # (when, game id); stale entries skipped
        self._clock: asyncio.Task[None] | None = None
        self._clock_wakes_at: datetime | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_challenge: dict[int, datetime] = {}
        self._thinking: set[int] = set()  # games whose engine move is being computed
        self._unsaved: set[int] = set()  # games with a change of the bot's waiting to be saved
        self._stale: set[int] = set()  # games whose board failed to show the last change
        # Games live at start-up: the last process may have died between saving a change and
        # showing it, so the first click on each compares its board with the stored game.
        self._unverified: set[int] = set()

    # ------------------------------------------------------------------ games

    def get(self, game_id: int) -> GameRecord | None:
        """The live game with this id, or None."""
        return self._games.get(game_id)

    def put(self, game: GameRecord) -> None:
        """Remember the game as saved and arm its deadline; a finished game leaves memory and
        frees its channel."""
        if rules.is_live(game):
            self._games[game.id] = game
            ids = self._channels.setdefault(game.channel_id, [])
            if game.id not in ids:
                # The game takes a reservation's place, if one is waiting in its channel.
                if RESERVED in ids:
                    ids[ids.index(RESERVED)] = game.id
                else:
                    ids.append(game.id)
        else:
            if self._games.pop(game.id, None) is not None and self._on_end is not None:
                self._on_end(game)  # it was live: it has just ended
            self._unverified.discard(game.id)
            self._leave(game.channel_id, game.id)
        live = rules.is_live(game) and game.deadline is not None
        self.set_deadline(game.id, game.deadline if live else None)

    def restore(self, game: GameRecord) -> None:
        """Take a game that was live when the last process stopped; its board is unverified."""
        self.put(game)
        self._unverified.add(game.id)

    def live(self) -> list[GameRecord]:
        """Every live game."""
        return list(self._games.values())

    def lock(self, game_id: int) -> GameLock:
        """The lock that serializes every change to one game."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock()
        return lock

    # --------------------------------------------------------------- channels

    def in_channel(self, channel_id: int) -> GameRecord | None:
        """The oldest live game in a channel, if any (not a reservation)."""
        games = self.games_in(channel_id)
        return games[0] if games else None

    def games_in(self, channel_id: int) -> list[GameRecord]:
        """The live games in a channel, oldest first."""
        ids = self._channels.get(channel_id, ())
        return [self._games[game_id] for game_id in ids if game_id in self._games]

    def reserve(self, channel_id: int, limit: int = 1) -> bool:
        """Claim a place in a channel for a game about to be created; False if the channel
        already has `limit` games (or games being created).

        Synchronous on purpose: two commands in one channel cannot both pass it.
        """
        ids = self._channels.setdefault(channel_id, [])
        if len(ids) >= limit:
            return False
        ids.append(RESERVED)
        return True

    def release(self, channel_id: int) -> None:
        """Give back a reservation whose game was never created."""
        self._leave(channel_id, RESERVED)

    def _leave(self, channel_id: int, game_id: int) -> None:
        ids = self._channels.get(channel_id)
        if ids is not None and game_id in ids:
            ids.remove(game_id)
        if not ids:
            self._channels.pop(channel_id, None)

    # -------------------------------------------------------------- cooldowns

    def cooldown_left(self, user_id: int, now: datetime, cooldown: float) -> float:
        """Seconds until `user_id` may challenge someone again (0 if they may now)."""
        last = self._last_challenge.get(user_id)
        if last is None:
            return 0.0
        return max(0.0, (last + timedelta(seconds=cooldown) - now).total_seconds())

    def note_challenge(self, user_id: int, now: datetime) -> None:
        """Start the user's challenge cooldown."""
        self._last_challenge[user_id] = now

    # ------------------------------------------------------- what is going on

    def start_thinking(self, game_id: int) -> bool:
        """Note that the engine's move in this game is being computed; False if it already is."""
        if game_id in self._thinking:
            return False
        self._thinking.add(game_id)
        return True

    def stop_thinking(self, game_id: int) -> None:
        """The engine's move in this game is no longer being computed."""
        self._thinking.discard(game_id)

    def is_thinking(self, game_id: int) -> bool:
        """True while the engine's move in this game is being computed."""
        return game_id in self._thinking

    def unsaved(self, game_id: int, *, waiting: bool = True) -> None:
        """Mark a game as having a change of the bot's that waits to be saved (or no more)."""
        if waiting:
            self._unsaved.add(game_id)
        else:
            self._unsaved.discard(game_id)

    def is_unsaved(self, game_id: int) -> bool:
        """Whether a change of the bot's to this game waits to be saved."""
        return game_id in self._unsaved

    def busy(self) -> bool:
        """True while some game is being changed, or the engine thinks about a move."""
        return bool(self._thinking) or any(lock.locked() for lock in list(self._locks.values()))

    def behind(self, game_id: int, *, behind: bool = True) -> None:
        """Note whether the game's board message fails to show the stored game; a board that
        falls behind is reported (``on_behind``: it catches up without a click)."""
        if behind:
            self._stale.add(game_id)
            if self._on_behind is not None:
                self._on_behind(game_id)
        else:
            self._stale.discard(game_id)

    def is_behind(self, game_id: int) -> bool:
        """True when the game's last change could not be shown on its board."""
        return game_id in self._stale

    def first_click(self, game_id: int) -> bool:
        """True for the first click on a game that was live at start-up (once per game)."""
        if game_id not in self._unverified:
            return False
        self._unverified.discard(game_id)
        return True

    # ------------------------------------------------------------------ clock

    def set_deadline(self, game_id: int, when: datetime | None) -> None:
        """When the game is due (``on_due(game_id)`` runs then); None: it has no deadline."""
        old = self._deadlines.pop(game_id, None)
        if when is not None:
            self._deadlines[game_id] = when
            heapq.heappush(self._heap, (when, game_id))
        wakes = self._clock_wakes_at
        if when is not None and (wakes is None or when < wakes):
            self._restart_clock()
        elif old is not None and old == wakes:
            # The deadline the clock sleeps for was replaced (a move) or cleared (the game
            # ended): start it again, so it sleeps until the earliest deadline that stands.
            self._restart_clock()

    def deadline(self, game_id: int) -> datetime | None:
        """When the game's deadline falls, if it has one."""
        return self._deadlines.get(game_id)

    def _restart_clock(self) -> None:
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock = asyncio.create_task(self._run_clock(), name="ttt-deadlines")

    async def _run_clock(self) -> None:
        """Sleep until the earliest deadline; report every game that is due."""
        while True:
            now = self.now()
            while self._heap:
                when, game_id = self._heap[0]
                if self._deadlines.get(game_id) != when:
                    heapq.heappop(self._heap)  # replaced or cleared since
                elif when <= now:
                    heapq.heappop(self._heap)
                    del self._deadlines[game_id]
                    self._on_due(game_id)
                else:
                    break
            if not self._heap:
                self._clock_wakes_at = None
                self._clock = None
                return
            self._clock_wakes_at = self._heap[0][0]
            await asyncio.sleep((self._clock_wakes_at - now).total_seconds())

    # ------------------------------------------------------------------ tasks

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run background work (an engine move after a restart) and keep a reference to it."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Cancel every task this registry started."""
        for task in [self._clock, *self._tasks]:
            if task is not None:
                task.cancel()
        self._clock = self._clock_wakes_at = None
        self._deadlines.clear()
        self._heap.clear()
        self._tasks.clear()
