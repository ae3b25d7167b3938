"""This process's live state, held by its owners: the live games, their locks, their boards'
status, the clock of their deadlines, the challenge cooldowns and the background tasks.

The game extension's ``setup`` builds one ``Live`` and hands it to each game cog and the flow;
each reaches the owner it needs by its name (``live.games``, ``live.locks(game_id)``,
``live.boards``, ``live.clock``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.games.record import GameRecord
from bot.live.boards import BoardStatus
from bot.live.cooldowns import Cooldowns
from bot.live.deadlines import Deadlines
from bot.live.games import LiveGames
from bot.live.locks import GameLocks
from bot.live.tasks import Background


@dataclass(frozen=True, slots=True)
class Live:
    """The owners of this process's live state."""

    games: LiveGames
    locks: GameLocks
    boards: BoardStatus
    clock: Deadlines
    cooldowns: Cooldowns
    tasks: Background

    @classmethod
    def build(
        cls,
        *,
        on_due: Callable[[int], None],
        now: Callable[[], datetime],
        on_end: Callable[[GameRecord], None] | None = None,
        on_behind: Callable[[int], None] | None = None,
    ) -> Live:
        """The owners of a fresh process: `on_due(game_id)` when a deadline falls, `on_end`
        when a live game ends, `on_behind(game_id)` when a board falls behind its game."""
        boards = BoardStatus(on_behind=on_behind)
        clock = Deadlines(on_due=on_due, now=now)

        def ended(game: GameRecord) -> None:
            boards.ended(game.id)
            if on_end is not None:
                on_end(game)

        return cls(
            games=LiveGames(deadlines=clock, on_end=ended),
            locks=GameLocks(),
            boards=boards,
            clock=clock,
            cooldowns=Cooldowns(),
            tasks=Background(),
        )

    def restore(self, game: GameRecord) -> None:
        """Take a game that was live when the last process stopped; its board is unverified."""
        self.games.put(game)
        self.boards.unverified(game.id)

    def close(self) -> None:
        """Stop the clock and cancel every background task."""
        self.clock.close()
        self.tasks.close()
