"""Everything that changes a game: opening it, a click's change, the engine's turn, showing it.

Each change follows one order, under the game's lock: read the current game, decide, save,
then show. A move is never shown before it is stored, a save that fails leaves the game (and the
message) as it was, and nothing is ever written from a copy read before an await that another
change could have followed. Edits made long after a click (deadlines, restarts) go through the
channel message, since an interaction token lives only 15 minutes.

A game where the bot has no channel (``GameRecord.interactions_only``: an app installed to a
person's account) is shown only through interactions: edits without a click of their own go
through the newest interaction whose response is its board, kept in memory while its token
lives (never stored). With none, the board is behind until the next click, which shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import Any

import discord

from bot.cogs.games import retry
from bot.cogs.games.events import KEYED_SAVE
from bot.cogs.games.painter import Painter
from bot.cogs.games.texts import BOARD_GONE, NOT_SAVED, UNSHOWN
from bot.compute.runner import EngineRunner, Thinking
from bot.config import Settings
from bot.discord_ui import access, board, replies, window
from bot.games import kinds, rules
from bot.games.record import Ending, GameRecord
from bot.games.settings import DEFAULTS, ServerSettings
from bot.live.registry import GameRegistry
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


class GameFlow:
    """Applies changes to games and shows them; the click handlers decide which change."""

    def __init__(
        self,
        *,
        client: discord.Client,
        store: Store,
        engine: EngineRunner,
        games: GameRegistry,
        settings: Settings,
        servers: dict[int, ServerSettings],
    ) -> None:
        self.client = client
        self.store = store
        self.engine = engine
        self.games = games
        self.settings = settings
        self.servers = servers  # each server's own settings, by server id
        self.thinking = Thinking(engine)
        self.painter = Painter(client)  # the boards drawn as pictures, and replays
        # game id -> the newest interaction whose response is its board, for games shown only
        # through interactions; memory only, so a token is never stored.
        self._boards: dict[int, Interaction] = {}

    # ------------------------------------------------------------ storage

    async def load(self, game_id: int) -> GameRecord | None:
        """The game from memory, or from the store (finished games live only there)."""
        if not 0 < game_id <= MAX_ID:
            return None  # a forged id no game can have
        return self.games.get(game_id) or await self.store.load_game(game_id)

    async def commit(self, game: GameRecord, *, clock: bool = True) -> GameRecord:
        """Store the game with the right deadline, then remember it (lock held); returns it as
        stored. StorageError propagates, and then nothing changed. Without `clock` (a change
        that is no move, such as the board's look) the deadline stays as it is."""
        if clock:
            conf = self.servers.get(game.guild_id or 0, DEFAULTS)  # the server's own timeouts
            turn = game.move_seconds or conf.turn_timeout or self.settings.turn_timeout
            wait = conf.challenge_timeout or self.settings.challenge_timeout
            game = rules.clocked(game, self.games.now(), turn_timeout=turn, challenge_timeout=wait)
        await self.store.save_game(game)
        self.games.put(game)
        if game.look.reactions and game.message_id is not None and not game.interactions_only:
            self.client.dispatch(KEYED_SAVE, game)
        return game

    # -------------------------------------------------------------- showing

    def note_board(self, game: GameRecord, interaction: Interaction) -> None:
        """Remember `interaction`, whose response is the board of `game`, as the way to edit it
        later, where nothing else reaches it (an interactions-only game)."""
        if game.interactions_only:
            self._boards[game.id] = interaction

    async def show(self, game: GameRecord, interaction: Interaction | None = None) -> bool:
        """Edit the board message: through `interaction` (whose response is the board) while it
        is fresh, else through the channel; False when nothing could reach it (a game shown only
        through interactions, with no live token)."""
        drawn = await self.painter.drawn(game)
        if interaction is None and game.interactions_only:
            interaction = self._boards.get(game.id)
        if interaction is not None and not interaction.is_expired():
            try:
                edit = interaction.edit_original_response
                await self.painter.send(drawn, lambda **kw: window.call(edit(**kw)))
                if not rules.is_live(game):
                    self._boards.pop(game.id, None)
                return True
            except discord.HTTPException as exc:  # its token died, or Discord failed: one line
                log.warning("editing game %s via its interaction failed: %s", game.id, exc)
                if game.interactions_only and replies.discords_trouble(exc):
                    raise  # a passing failure: tried again while the token lives
        if game.interactions_only:
            log.info("game %s is shown at its next click: no interaction reaches it", game.id)
            return False
        if game.message_id is not None:
            channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            message = channel.get_partial_message(game.message_id)
            await self.painter.send(drawn, lambda **kw: window.call(message.edit(**kw)))
        return True

    async def publish(
        self, game: GameRecord, interaction: Interaction | None = None, *, on_board: bool = False
    ) -> bool:
        """Show the game (lock held), through `interaction` if its response is the board
        (`on_board`); True if the board now shows it. If Discord refuses, the stored game stays:
        a deleted board ends the game as abandoned, anything else leaves the board behind (it
        catches up in the background: ``behind``). The clicker, if any, is told why privately."""
        try:
            shown = await self.show(game, interaction if on_board else None)
        except discord.HTTPException as exc:
            await self._unshown(game, exc, interaction)
            return False
        self.games.behind(game.id, behind=not shown)
        return shown

    async def answer_with_board(self, interaction: Interaction, game: GameRecord) -> bool:
        """Answer a click with its board showing the game as stored (lock held): how a board
        that is behind catches up where only interactions reach it. False if Discord refused."""
        try:
            await self.painter.update(interaction, game)
        except discord.HTTPException as exc:
            log.warning("could not show game %s with a click: %s", game.id, exc)
            return False
        self.games.behind(game.id, behind=False)
        self.note_board(game, interaction)
        return True

    async def _unshown(
        self, game: GameRecord, error: discord.HTTPException, interaction: Interaction | None
    ) -> None:
        """Deal with a board that could not be edited (lock held) and tell the clicker why."""
        if access.board_gone(error):
            log.warning("the board of game %s is gone (%s); the game is abandoned", game.id, error)
            await self.abandon(game)
            text = BOARD_GONE
        else:
            log.warning("could not edit the board of game %s: %s", game.id, error)
            self.games.behind(game.id)
            text = UNSHOWN
            if isinstance(error, discord.Forbidden) and interaction is not None:
                text = access.cannot_show(interaction, error)
        if interaction is not None:
            await replies.tell_safely(interaction, text)

    # -------------------------------------------------------------- changes

    async def change(self, interaction: Interaction, after: GameRecord) -> Shown:
        """Save a changed game and show it as this click's response (lock held)."""
        try:
            after = await self.commit(after)
        except StorageError as exc:
            log.debug("could not save game %s: %s", after.id, exc)
            await replies.tell(interaction, NOT_SAVED)
            return Shown.NOT_SAVED
        try:
            if after.look.picture:
                await self.painter.update(interaction, after)
            else:  # an emoji board: nothing to draw on a click's path
                await window.update(interaction, view=board.view(after))
        except discord.HTTPException as exc:
            return await self._answer_unshown(interaction, after, exc)
        self.games.behind(after.id, behind=False)
        self.note_board(after, interaction)
        return Shown.ON_BOARD

    async def _answer_unshown(
        self, interaction: Interaction, game: GameRecord, error: discord.HTTPException
    ) -> Shown:
        """The click's board update failed after the change was saved: answer it exactly once.
        A passing failure (a 5xx, a rate limit) may spare the channel's edit endpoint, so that
        is tried at once; if it shows the board, the click is acknowledged without a word."""
        log.warning("could not update the board of game %s with the click: %s", game.id, error)
        if replies.too_late(error):  # no answer can count now: the board catches up (``behind``)
            self.games.behind(game.id)
            return Shown.SAVED
        if isinstance(error, discord.Forbidden) or access.board_gone(error):
            await self._unshown(game, error, interaction)
            return Shown.SAVED
        if await self.publish(game):
            try:
                await window.answer(interaction, interaction.response.defer())
                self.note_board(game, interaction)
                return Shown.ON_BOARD
            except discord.HTTPException as late:
                if replies.too_late(late):
                    replies.log_too_late(interaction, f"the click on game {game.id}")
                else:
                    log.warning("could not acknowledge interaction %s: %s", interaction.id, late)
                return Shown.SAVED
        await replies.tell_safely(interaction, UNSHOWN)
        return Shown.SAVED

    async def abandon(self, game: GameRecord, message_ids: set[int] | None = None) -> None:
        """End a live game whose board is gone (lock held); nobody wins. With `message_ids`,
        only if its board is one of them."""
        current = self.games.get(game.id)
        if current is None or (message_ids is not None and current.message_id not in message_ids):
            return
        dropped = rules.finish(current, Ending.ABANDONED, None)
        self._boards.pop(game.id, None)
        self.games.put(dropped)  # its board is gone, and its keys with it
        self.games.behind(game.id, behind=False)
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
        self.games.unsaved(game_id)
        saving = retry.save_later(
            self.games, game_id, change, commit=self.commit, show=show, what=what
        )
        self.games.spawn(saving, name=f"ttt-save-{game_id}")

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
        if not self.games.start_thinking(game_id):
            return
        try:
            game = self.games.get(game_id)
            if game is None or not rules.ai_to_move(game):
                return
            # The search a click's response waited for, if it is still the position's.
            search = self.thinking.search(game)
            cell = await search
            self.thinking.done_with(game_id, search)
            async with self.games.lock(game_id):
                current = self.games.get(game_id)
                if current is None or current.moves != game.moves or not rules.ai_to_move(current):
                    return  # resigned, timed out or restarted meanwhile
                try:
                    after = await self.commit(rules.play(current, cell))
                except StorageError as exc:
                    log.debug("could not save the engine's move in game %s: %s", game_id, exc)
                    replay = retry.engine_move(current.moves, cell)

                    async def show(stored: GameRecord) -> None:
                        await self.publish(stored, interaction, on_board=on_board)

                    self._save_later(game_id, replay, show, "the engine's move")
                    return
                await self.publish(after, interaction, on_board=on_board)
        finally:
            self.games.stop_thinking(game_id)
