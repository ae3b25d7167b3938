"""Everything that changes a game: a click's change, the engine's turn, a save tried again.

Each change follows one order, under the game's lock: read the current game, decide, save,
then show. A move is never shown before it is stored, a save that fails leaves the game (and the
message) as it was, and nothing is ever written from a copy read before an await that another
change could have followed. A change returns what it came to (``Changed``): the caller goes on
from there without reading the game again. Edits made long after a click (deadlines, restarts)
go through the channel message, since an interaction token lives only 15 minutes; showing is
``showing``, the engine's replies ``thinking``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import discord

from bot.cogs.games import retry
from bot.cogs.games.events import KEYED_SAVE
from bot.cogs.games.flow.showing import Showing
from bot.cogs.games.flow.thinking import Thinking
from bot.cogs.games.texts import NOT_SAVED
from bot.compute.runner import EngineRunner
from bot.config import Settings
from bot.discord_ui import replies
from bot.games import kinds, rules
from bot.games.record import Ending, GameRecord
from bot.games.settings import DEFAULTS, ServerSettings
from bot.live.owners import Live
from bot.storage.base import StorageError, Store

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
MAX_ID = 2**63 - 1  # the largest id a game can have (SQLite's integer)
# Seconds a click's response waits for the bot's reply where the engine searches (both moves
# then go in the one response; else the reply follows in an edit). None: each kind's own wait
# (``Kind.reply_wait``, docs/figures.md); tests set 0 to show every such reply in an edit.
REPLY_WAIT: float | None = None


class Shown(Enum):
    """What a click's change came to."""

    NOT_SAVED = "not saved"  # nothing changed; the clicker was told
    ON_BOARD = "on board"  # saved, and the click's response is the board showing it
    SAVED = "saved"  # saved; the board could not show it (the clicker was told)


@dataclass(frozen=True, slots=True)
class Changed:
    """What a click's change came to, and the game as stored after it (None: not saved)."""

    shown: Shown
    game: GameRecord | None = None

    @property
    def engine_next(self) -> bool:
        """Whether the engine is to move next, in a game the change was saved to."""
        return self.game is not None and rules.ai_to_move(self.game)


NOTHING = Changed(Shown.NOT_SAVED)  # a click that changed nothing


class GameFlow:
    """Applies changes to games and shows them; the click handlers decide which change."""

    def __init__(
        self,
        *,
        client: discord.Client,
        store: Store,
        engine: EngineRunner,
        live: Live,
        settings: Settings,
        servers: dict[int, ServerSettings],
    ) -> None:
        self.client = client
        self.store = store
        self.engine = engine
        self.live = live
        self.settings = settings
        self.servers = servers
        self.thinking = Thinking(engine)
        self.showing = Showing(client=client, boards=live.boards, abandon=self.abandon)

    # ------------------------------------------------------------ storage

    async def load(self, game_id: int) -> GameRecord | None:
        """The game from memory, or from the store (finished games live only there)."""
        if not 0 < game_id <= MAX_ID:
            return None  # a forged id no game can have
        return self.live.games.get(game_id) or await self.store.load_game(game_id)

    async def commit(self, game: GameRecord, *, clock: bool = True) -> GameRecord:
        """Store the game with the right deadline, then remember it (lock held); returns it as
        stored. StorageError propagates, and then nothing changed. Without `clock` (a change
        that is no move, such as the board's look) the deadline stays as it is."""
        if clock:
            conf = self.servers.get(game.guild_id or 0, DEFAULTS)  # the server's own timeouts
            turn = game.move_seconds or conf.turn_timeout or self.settings.turn_timeout
            wait = conf.challenge_timeout or self.settings.challenge_timeout
            now = self.live.clock.now()
            game = rules.clocked(game, now, turn_timeout=turn, challenge_timeout=wait)
        await self.store.save_game(game)
        self.live.games.put(game)
        if game.look.reactions and game.message_id is not None and not game.interactions_only:
            self.client.dispatch(KEYED_SAVE, game)
        return game

    # -------------------------------------------------------------- changes

    async def change(self, interaction: Interaction, after: GameRecord) -> Changed:
        """Save a changed game and show it as this click's response (lock held)."""
        try:
            after = await self.commit(after)
        except StorageError as exc:
            log.debug("could not save game %s: %s", after.id, exc)
            await replies.tell(interaction, NOT_SAVED)
            return NOTHING
        shown = await self.showing.answer_click(interaction, after)
        return Changed(Shown.ON_BOARD if shown else Shown.SAVED, after)

    async def abandon(self, game: GameRecord, message_ids: set[int] | None = None) -> None:
        """End a live game whose board is gone (lock held); nobody wins. With `message_ids`,
        only if its board is one of them."""
        current = self.live.games.get(game.id)
        if current is None or (message_ids is not None and current.message_id not in message_ids):
            return
        dropped = rules.finish(current, Ending.ABANDONED, None)
        self.showing.forget_board(game.id)
        self.live.games.put(dropped)  # its board is gone, and its keys with it
        try:
            await self.store.save_game(dropped)
        except StorageError as exc:
            log.debug("could not mark game %s abandoned: %s", game.id, exc)
            self._save_later(game.id, lambda _: dropped, None, "the abandoned board")

    def _save_later(
        self,
        game_id: int,
        change: retry.Change,
        show: Callable[[GameRecord], Awaitable[None]] | None,
        what: str,
    ) -> None:
        """Save a change of the bot's own once the database answers (see `retry`)."""
        self.live.games.unsaved(game_id)
        saving = retry.save_later(
            self.live, game_id, change, commit=self.commit, show=show, what=what
        )
        self.live.tasks.spawn(saving, name=f"ttt-save-{game_id}")

    # -------------------------------------------------------------- engine

    async def with_reply(self, game: GameRecord) -> GameRecord:
        """`game` with the engine's reply played too when the engine answers within the wait
        (`REPLY_WAIT`; see ``Thinking.reply``): both moves are then saved and shown together."""
        wait = REPLY_WAIT if REPLY_WAIT is not None else kinds.of(game).reply_wait
        return await self.thinking.reply(game, wait)

    async def ai_move(
        self, game_id: int, interaction: Interaction | None = None, *, on_board: bool = False
    ) -> None:
        """Compute the engine's move off the event loop, then save and show it.

        `interaction` is the click (or command) that handed the engine its turn; `on_board` says
        whether its response is the board. The lock is not held while the engine thinks, so
        Resign still works; the move is applied only if the game is still where it was.
        """
        if not self.thinking.start(game_id):
            return
        try:
            game = self.live.games.get(game_id)
            if game is None or not rules.ai_to_move(game):
                return
            # The search a click's response waited for, if it is still the position's.
            search = self.thinking.search(game)
            cell = await search
            self.thinking.done_with(game_id, search)
            async with self.live.locks(game_id):
                current = self.live.games.get(game_id)
                if current is None or current.moves != game.moves or not rules.ai_to_move(current):
                    return  # resigned, timed out or restarted meanwhile
                try:
                    after = await self.commit(rules.play(current, cell))
                except StorageError as exc:
                    log.debug("could not save the engine's move in game %s: %s", game_id, exc)
                    replay = retry.engine_move(current.moves, cell)

                    async def show(stored: GameRecord) -> None:
                        await self.showing.publish(stored, interaction, on_board=on_board)

                    self._save_later(game_id, replay, show, "the engine's move")
                    return
                await self.showing.publish(after, interaction, on_board=on_board)
        finally:
            self.thinking.stop(game_id)
