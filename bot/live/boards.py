"""Whether each live game's board message shows the stored game.

A board falls behind when an edit fails (Discord refused, or no interaction reaches a game
shown only through interactions) and catches up when it is shown again. A game live at
start-up is unverified: the last process may have died between saving a change and showing
it, so its first click compares the clicked board with the stored game. One module writes
this status: the flow's showing (``bot.cogs.games.flow.showing``); the rest read it.
"""

from __future__ import annotations

from collections.abc import Callable


class BoardStatus:
    """The boards that are behind their games, and the games whose board is unverified."""

    def __init__(self, *, on_behind: Callable[[int], None] | None = None) -> None:
        self._on_behind = on_behind  # told each game whose board falls behind
        self._behind: set[int] = set()
        self._unverified: set[int] = set()

    def fell_behind(self, game_id: int) -> None:
        """The game's board fails to show the stored game; ``on_behind`` is told (the board
        catches up without a click)."""
        self._behind.add(game_id)
        if self._on_behind is not None:
            self._on_behind(game_id)

    def caught_up(self, game_id: int) -> None:
        """The game's board shows the stored game."""
        self._behind.discard(game_id)

    def is_behind(self, game_id: int) -> bool:
        """True when the game's last change could not be shown on its board."""
        return game_id in self._behind

    def unverified(self, game_id: int) -> None:
        """The game was live when the last process stopped: its board may not show it."""
        self._unverified.add(game_id)

    def first_click(self, game_id: int) -> bool:
        """True for the first click on a game that was live at start-up (once per game)."""
        if game_id not in self._unverified:
            return False
        self._unverified.discard(game_id)
        return True

    def ended(self, game_id: int) -> None:
        """The game left memory: its board is no more to verify."""
        self._unverified.discard(game_id)
