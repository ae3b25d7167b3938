"""How the bot replies to a click: the policy of a game's engine turn on a click's path.

A reply that needs no search (3x3's table; a win, a forced block or a book on a bigger board) is
found at once and goes in the click's own response with the player's move. A search is a task
kept by game position, which a click waits for briefly; one that outlasts the wait goes on, and
the bot's own move (``GameFlow.ai_move``) takes its answer over. The engine itself (threads,
processes, budgets) is ``bot.compute.runner``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import BrokenExecutor

from bot.compute.runner import EngineRunner
from bot.games import kinds, rules
from bot.games.record import GameRecord

log = logging.getLogger(__name__)


class Thinking:
    """The engine's replies to clicks, and its searches under way, by game."""

    def __init__(self, engine: EngineRunner) -> None:
        self.engine = engine
        self._moving: set[int] = set()  # games whose engine move is being made (``ai_move``)
        # game id -> (the moves it was started on, the engine's search): a search that outlasts
        # a click's wait goes on, and the bot's move (``GameFlow.ai_move``) takes its answer over.
        self._searches: dict[int, tuple[tuple[int, ...], asyncio.Future[int]]] = {}

    def start(self, game_id: int) -> bool:
        """Note that the engine's move in this game is being made; False if it already is."""
        if game_id in self._moving:
            return False
        self._moving.add(game_id)
        return True

    def stop(self, game_id: int) -> None:
        """The engine's move in this game is no longer being made."""
        self._moving.discard(game_id)

    def is_on(self, game_id: int) -> bool:
        """True while the engine's move in this game is being made."""
        return game_id in self._moving

    def busy(self) -> bool:
        """True while the engine makes a move in some game."""
        return bool(self._moving)

    async def reply(self, game: GameRecord, wait: float) -> GameRecord:
        """`game` with the engine's reply played too when it comes in time (both moves are then
        saved and shown together, one response per click). A reply that needs no search (3x3's
        table; a win, a block, a book) is microseconds, found at once; a search, waited for
        `wait` seconds at most (the lock held that long): one that needs longer goes on, the
        game comes back as it is, and `ai_move` plays the search's answer when it comes."""
        if not rules.ai_to_move(game) or (wait <= 0 and kinds.of(game).searches(game)):
            return game  # no wait: `ai_move` starts the search
        found, seed = self._searches.get(game.id), None
        if found is None or found[0] != game.moves:  # no search yet: most replies need none
            seed = self.engine.seed()  # the quick move and the search choose alike
            level = game.ai_level or kinds.of(game).strongest
            try:
                quick = await self.engine.quick_move(game, level=level, seed=seed)
            except Exception as error:
                quick = _any_move(game, error, self.engine.closed)
            if quick is not None:
                return rules.play(game, quick)
        search = self.search(game, seed=seed)
        try:
            cell = await asyncio.wait_for(asyncio.shield(search), wait)
        except TimeoutError:
            return game
        self.done_with(game.id, search)
        return rules.play(game, cell)

    def search(self, game: GameRecord, *, seed: int | None = None) -> asyncio.Future[int]:
        """The engine's search for the position of `game`, started once for that position
        (`seed`: its quick move was tried with that seed, and found none)."""
        found = self._searches.get(game.id)
        if found is not None and found[0] == game.moves:
            return found[1]
        search = asyncio.ensure_future(self.cell(game, seed=seed))
        self._searches[game.id] = (game.moves, search)
        return search

    def done_with(self, game_id: int, search: asyncio.Future[int]) -> None:
        """Forget a search whose answer was taken (and only that one)."""
        found = self._searches.get(game_id)
        if found is not None and found[1] is search:
            del self._searches[game_id]

    async def cell(self, game: GameRecord, *, seed: int | None = None) -> int:
        """The engine's move in `game`, computed off the event loop (`seed`: see `search`)."""
        try:
            level = game.ai_level or kinds.of(game).strongest
            tried = seed is not None
            return await self.engine.best_move(game, level=level, seed=seed, quick_tried=tried)
        except Exception as error:
            return _any_move(game, error, self.engine.closed)


def _any_move(game: GameRecord, error: Exception, closed: bool) -> int:
    """A broken engine must not freeze the game: any legal move. An engine `closed` (the bot
    stopping) or its workers dead again at once are one line; anything else is a bug."""
    if closed or isinstance(error, BrokenExecutor):
        log.warning("no engine for game %s (%s); playing a random move", game.id, error)
    else:
        log.error("engine failed in game %s; playing a random move", game.id, exc_info=error)
    return random.choice(list(rules.board_of(game).legal_moves()))
