"""The live games of this process: by id and by channel, and the places reserved for games
being created.

The store is the record of truth; this is the fast path in front of it. It is filled from
``store.live_games()`` when the game cog loads, so a restart picks every game up again. A game
put here arms its deadline (``Deadlines``); a live game that leaves it finished is reported
(``on_end(game)``, which the game cog turns into an event).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games import rules
from bot.games.record import GameRecord
from bot.live.deadlines import Deadlines

RESERVED = 0  # a channel whose game is being created (no id yet)


class LiveGames:
    """The live games, the channels they are in, and the changes of the bot's not yet saved."""

    def __init__(
        self, *, deadlines: Deadlines, on_end: Callable[[GameRecord], None] | None = None
    ) -> None:
        self._games: dict[int, GameRecord] = {}
        # channel id -> its live games' ids (RESERVED for one being created)
        self._channels: dict[int, list[int]] = {}
        self._deadlines = deadlines
        self._on_end = on_end
        self._unsaved: set[int] = set()  # games with a change of the bot's waiting to be saved

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
            self._leave(game.channel_id, game.id)
        live = rules.is_live(game) and game.deadline is not None
        self._deadlines.set(game.id, game.deadline if live else None)

    def live(self) -> list[GameRecord]:
        """Every live game."""
        return list(self._games.values())

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

    def unsaved(self, game_id: int, *, waiting: bool = True) -> None:
        """Mark a game as having a change of the bot's that waits to be saved (or no more)."""
        if waiting:
            self._unsaved.add(game_id)
        else:
            self._unsaved.discard(game_id)

    def is_unsaved(self, game_id: int) -> bool:
        """Whether a change of the bot's to this game waits to be saved: nothing else can be
        saved before it."""
        return game_id in self._unsaved
