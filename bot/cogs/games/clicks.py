"""Board clicks: every button press reaches one listener, which reads its custom id once, loads
the game once, and does what the button asks, or says privately why not.

discord.py is handed no view for a board (see ``board.BoardView``), so no click is dropped in
silence: a forged or stale id gets its answer here like any other. Of two clicks that arrive
together only the first can change the game: both are decided under the game's lock.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.games.advice import Advice
from bot.cogs.games.flow import NOTHING, GameFlow, Shown
from bot.cogs.games.opening import open_game
from bot.cogs.games.replays import Replays
from bot.cogs.games.resigning import Resigns, asks
from bot.cogs.games.router import Router
from bot.cogs.games.texts import NOT_SAVED, UNSHOWN
from bot.compute import drawing
from bot.discord_ui import access, board, grid, replies, time_limits
from bot.games import kinds, may_ask, rules
from bot.games.record import Ending, GameRecord, Status
from bot.games.rules import Refused
from bot.i18n import N_, Text, translation
from bot.live.owners import Live
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

ELSEWHERE = N_(
    "That button belongs to a game on another message; use the buttons on that game's own board."
)
OFF_BOARD = N_("That cell is not on this board; pick an empty cell of the board.")
NOT_MINE = N_("That is not a button of mine, so it does nothing. Start a game with /tictactoe.")
DEAD = N_("That button no longer does anything.")
CLOSED = N_("That small board is closed; pick an open one.")
CHANGES = frozenset({board.ACCEPT, board.DECLINE, board.WITHDRAW, board.RESIGN})


class ClickCog(commands.Cog):
    """Routes every click on a board to what its button does."""

    def __init__(self, *, live: Live, flow: GameFlow, advice: Advice, router: Router) -> None:
        self.live, self.flow, self.advice, self.router = live, flow, advice, router
        self.showing = flow.showing
        self.replays = Replays(flow.showing.painter)
        self.resigns = Resigns(flow)  # Resign asks for a second click

    async def cog_unload(self) -> None:
        drawing.close()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer a button click, whatever its id, exactly once."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        for prefix, event in self.router.routes:  # a feature's button: its cog answers
            if custom_id.startswith(prefix):
                interaction.client.dispatch(event, interaction, custom_id)
                return
        try:
            parsed = board.parse_id(custom_id)
            if parsed is None:
                await replies.tell(interaction, NOT_MINE)
            elif parsed[1] == board.SHARE:  # under a private replay, not on a board
                await self.replays.answer(interaction, await self.flow.load(parsed[0]), share=True)
            else:
                await self.click(interaction, *parsed)
        except StorageError as error:  # the database is away (a finished game is read from it)
            log.debug("click on %r: %s", custom_id, error)
            await replies.tell_safely(interaction, NOT_SAVED)
        except Exception as error:
            if not replies.discords_trouble(error):
                log.exception("click on %r by %s failed", custom_id, interaction.user.id)
            else:  # Discord's own trouble answering: one line
                log.warning("click on %r: Discord refused an answer: %s", custom_id, error)
            if not replies.too_late(error):
                await replies.apologize(interaction)

    async def click(
        self, interaction: Interaction, game_id: int, what: str, ply: int | None = None
    ) -> None:
        """Do what a click on `what` (a cell number or an action) of game `game_id` asks;
        `ply`: the position the button was drawn at, where its kind stamps one.

        A click only counts on its game's own board. Afterwards a board whose last edit failed is
        shown again, so a refused click repairs it too.
        """
        changed, stuck = NOTHING, False
        async with self.live.locks(game_id), time_limits.opened(interaction):
            game = await self.flow.load(game_id)
            if game is not None and not _on_its_board(interaction, game):
                await replies.tell(interaction, ELSEWHERE)
                return
            if game is not None and game.message_id is None and interaction.message is not None:
                # Its board, posted before a crash kept its id from the store: a change saves it.
                game = dataclasses.replace(game, message_id=interaction.message.id)
            behind = self._behind(interaction, game)
            if what == board.BACK or what.startswith(board.PICK):
                await self._pick(interaction, game, what, ply)
                return
            changes = what.isdigit() or what in CHANGES or what.startswith(board.CONFIRM)
            if changes and self.live.games.is_unsaved(game_id):
                # A change of the bot's own (its move) waits for the database: nothing can be
                # saved before it, and it is shown as soon as it is.
                await replies.tell(interaction, NOT_SAVED)
                return
            if changes:
                user_id = interaction.user.id
                result = (
                    _cell(game, user_id, int(what))
                    if what.isdigit()
                    else _control(game, user_id, what)
                )
                if isinstance(result, Refused):
                    await self._refuse(interaction, game, result.text)
                    # The engine's move was lost (a failed save): a click sets it going again.
                    stuck = result.engine_turn and not self.flow.thinking.is_on(game_id)
                elif game is not None and what.isdigit() and _moved_on(interaction, game, ply):
                    # Played on a position the game has left: refused, not played blind.
                    if game.interactions_only:
                        self.showing.fell_behind(game.id)  # this click's answer shows it
                        await self._refuse(interaction, game, _since_shown(interaction, game, ply))
                    else:
                        await replies.tell(interaction, _since_shown(interaction, game, ply))
                        await self.showing.publish(game, interaction)
                elif (
                    not what.isdigit() and game and asks(game, user_id, what, self.live.clock.now())
                ):
                    await self.resigns.ask(interaction, game, user_id)
                else:
                    # On 3x3 the bot's reply is a lookup: both moves go in this one response.
                    reply = await self.flow.with_reply(result)
                    changed = await self.flow.change(interaction, reply)
        if not changes:
            await self._without_lock(interaction, game, what)
        on_board = changed.shown is Shown.ON_BOARD
        if stuck:
            await self.flow.ai_move(game_id)
        elif changed.engine_next:
            await self.flow.ai_move(game_id, interaction, on_board=on_board)
        if behind and self.live.boards.is_behind(game_id):
            await self._repair(game_id)
        # Naming what is missing is needed only when something is (rarely): one check first.
        if on_board and not interaction.app_permissions.is_superset(access.BOARD):
            lacking = access.missing(interaction)
            if lacking:  # the click showed the move, but nothing can be edited between clicks
                await replies.tell_safely(interaction, access.still_missing(lacking))

    async def _pick(
        self, interaction: Interaction, game: GameRecord | None, what: str, ply: int | None
    ) -> None:
        """Show the player to move the cells of the small board they picked (or the boards
        again, for Back): the choice lives in the message only, for that player and position."""
        found = rules.may_move(game, interaction.user.id)
        if isinstance(found, Refused):
            await self._refuse(interaction, game, found.text)
            return
        if ply is not None and ply != len(found.moves):  # drawn at a position the game has left
            await self._refuse(interaction, found, _since_shown(interaction, found, ply))
            return
        picked = None if what == board.BACK else int(what.removeprefix(board.PICK) or -1)
        if picked is not None and not kinds.of(found).can_pick(found, picked):
            await replies.tell(interaction, CLOSED)
            return
        try:
            await self.showing.painter.update(interaction, found, picked)
        except discord.HTTPException as exc:
            log.warning("could not show the board picked in game %s: %s", found.id, exc)
            await replies.tell_safely(interaction, UNSHOWN)
            return
        self.showing.note_board(found, interaction)

    async def _refuse(
        self, interaction: Interaction, game: GameRecord | None, text: Text | str
    ) -> None:
        """Say privately why a click changes nothing. Where only interactions reach the board
        and it is behind (the bot's move or a timeout shown to nobody yet: no token was alive,
        or the bot restarted), the click's answer shows the board first, the reason follows."""
        if game is not None and game.interactions_only and self.live.boards.is_behind(game.id):
            await self.showing.answer_with_board(interaction, game)
        await replies.tell(interaction, text)

    def _behind(self, interaction: Interaction, game: GameRecord | None) -> bool:
        """Whether the game's board is behind the stored game; the first click on a game that
        was live at start-up compares the clicked message with it (the last process may have
        died between saving a change and showing it), and so does any click on a finished
        game: a board showing the end takes no clicks, so the end may never have been shown
        (its edit failed, and the process that knew may be gone). An abandoned game's board is
        gone, as far as the bot knows: nothing to show there."""
        if game is None:
            return False
        ended = game.status is Status.FINISHED and game.ending is not Ending.ABANDONED  # gone
        check = ended or self.live.boards.first_click(game.id)
        return self.showing.checked(interaction, game, check=check)

    async def _repair(self, game_id: int) -> None:
        """Show the stored game on a board whose last edit failed (through the channel)."""
        async with self.live.locks(game_id):
            if not self.live.boards.is_behind(game_id):
                return
            game = await self.flow.load(game_id)
            if game is None:
                self.showing.caught_up(game_id)
                return
            await self.showing.publish(game)

    async def _without_lock(
        self, interaction: Interaction, game: GameRecord | None, what: str
    ) -> None:
        """Clicks that change no game: a rematch (a new game), a hint, a review."""
        if what == board.REMATCH:
            await self._rematch(interaction, game)
        elif what == board.HINT:
            await self.advice.hint(interaction, game)
        elif what == board.REVIEW:
            await self.advice.review(interaction, game)
        elif what == board.REPLAY:
            await self.replays.answer(interaction, game)
        else:
            await replies.tell(interaction, DEAD)

    async def _rematch(self, interaction: Interaction, game: GameRecord | None) -> None:
        """A new game for the same players and board with the first move swapped.

        Against the bot it starts at once; against a person it is a new challenge to the other
        player, who accepts or declines it like any other.
        """
        old = may_ask.replayable(game, interaction.user.id)
        if isinstance(old, Refused):
            await replies.tell(interaction, old.text)
            return
        user_id, now = interaction.user.id, self.live.clock.now()

        def remade(new_id: int) -> GameRecord:
            return rules.rematch_of(old, game_id=new_id, challenger_id=user_id, now=now)

        await open_game(self.flow, interaction, old.channel_id, remade, style=old.look.style)


def _cell(game: GameRecord | None, user_id: int, cell: int) -> GameRecord | Refused:
    """The game after a click on `cell`, or why the clicker may not play it."""
    if game is not None and cell >= kinds.of(game).cells(game):
        return Refused(OFF_BOARD)
    return rules.move(game, user_id, cell)


def _shown_moves(interaction: Interaction, game: GameRecord, ply: int | None) -> int | None:
    """How many moves the clicked board showed: the ply its button was drawn at, else the
    marks on its cells (None when there is nothing to read)."""
    return ply if ply is not None else grid.marks_on(interaction.message, game.look)


def _moved_on(interaction: Interaction, game: GameRecord, ply: int | None = None) -> bool:
    """Whether the clicked board shows fewer moves than the game has."""
    shown = _shown_moves(interaction, game, ply)
    return shown is not None and shown < len(game.moves)


def _since_shown(interaction: Interaction, game: GameRecord, ply: int | None = None) -> str:
    """The refusal of a click on an old position: the moves made since it was shown, in the
    clicker's language."""
    catalog = translation(str(interaction.locale))
    shown = _shown_moves(interaction, game, ply) or 0
    kind = kinds.of(game)
    played = ", ".join(
        N_("{side} played {cell}", side="XO"[n % 2], cell=kind.cell_name(game, cell)).render(
            catalog
        )
        for n, cell in enumerate(game.moves)
        if n >= shown
    )
    return N_(
        "The board changed before your click arrived: {moves}. "
        "Here it is as it stands now; click again if you still want to move there.",
        moves=played,
    ).render(catalog)


def _control(game: GameRecord | None, user_id: int, what: str) -> GameRecord | Refused:
    """The change a control button asks for, or why the clicker may not make it."""
    if what == board.ACCEPT:
        return rules.accept(game, user_id)
    if what == board.RESIGN or what.startswith(board.CONFIRM):
        return rules.resign(game, user_id)
    return rules.decline(game, user_id, withdraw=what == board.WITHDRAW)


def _on_its_board(interaction: Interaction, game: GameRecord) -> bool:
    if interaction.channel_id != game.channel_id:
        return False
    message = interaction.message
    return game.message_id is None or message is None or message.id == game.message_id
