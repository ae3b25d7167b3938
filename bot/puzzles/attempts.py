"""Puzzle attempts as the player sees them: a puzzle chosen and shown, then each click answered.

Every answer is the interaction's one response: a new message for a new puzzle, an edit of the
board the button is on for a click (type 7), a private line for a refusal. The engine's work (a
move judged and the defence found, a hint) is a search, so it runs in the engine's worker
processes; the response waits for it briefly, and only an answer that takes longer is shown in
two steps (the move with "thinking", then the defence through the interaction's webhook). The
attempt is stored before it is shown, so a restart, even by SIGKILL, loses nothing shown.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from typing import Any

import discord

from bot.compute.runner import EngineRunner
from bot.discord_ui import access, replies
from bot.discord_ui.board import BoardView
from bot.games.rules import THINKING
from bot.i18n import N_
from bot.puzzles import board as drawn
from bot.puzzles.answers import Answers
from bot.puzzles.board import Extras
from bot.puzzles.model import AttemptRecord, day_of
from bot.puzzles.store import PuzzleStore
from bot.storage.base import Store, in_time
from engine.puzzles import Attempt, Puzzle, daily, near

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

NEAR, DAILY, SERVER = "near", "daily", "server"
# A click's response waits this long for the engine (a judged move: median under 2 ms, p99
# 0.35 s, worst about 1 s on 5x5, docs/engine.md); past it the move shows first, the defence after.
REPLY_WAIT = 1.0
RECENT = 4096  # attempts kept in memory
NOT_YOURS = N_("This puzzle is {player}'s; start your own with /tictactoe-puzzle.")
GONE = N_("This puzzle no longer exists; start another with /tictactoe-puzzle.")
OFF_BOARD = N_("That cell is taken or not on this board; pick an empty cell.")
SOLVED_TODAY = N_("You already solved today's puzzle here. A new one comes at midnight UTC.")
TRIED_TODAY = N_("You already tried today's puzzle here. A new one comes at midnight UTC.")
NO_SERVER_PUZZLES = N_(
    "There are no puzzles from games played here yet: they come from games in which a player "
    "missed a forced win. Try a puzzle near your rating instead."
)
QUIET = discord.AllowedMentions.none()


def today() -> int:
    """Today's day number, UTC, by the bot's clock (as the daily post reads it)."""
    return day_of(discord.utils.utcnow())


class Puzzles:
    """Starts attempts and answers the clicks on their boards."""

    def __init__(self, *, store: Store, engine: EngineRunner) -> None:
        self.puzzle_store = PuzzleStore(store)
        self.answers = Answers(engine)
        self.rng = random.Random()
        self._busy: set[int] = set()  # attempts whose click is being answered
        # The newest attempts as this process last stored them, so a click reads no row: a
        # copy gone stale (another process moved it on) only makes the save write nothing,
        # and the stored attempt is shown. Puzzles' ratings, read once, kept up to date here.
        self._recent: OrderedDict[int, AttemptRecord] = OrderedDict()
        self._ratings: dict[str, float] | None = None
        # A player's puzzle rating and the puzzles they started, by (server, player), read once
        # and kept up to date here: they only choose the next puzzle (a finished attempt reads
        # the stored rating in its own transaction), so a copy another process made stale is
        # harmless, and this process is the only one a server's (or DMs') clicks come to.
        self._players: OrderedDict[tuple[int | None, int], tuple[float, set[str]]] = OrderedDict()

    def _keep(self, record: AttemptRecord) -> AttemptRecord:
        self._recent[record.id] = record
        self._recent.move_to_end(record.id)
        if len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        return record

    async def _load(self, attempt_id: int) -> AttemptRecord | None:
        found = self._recent.get(attempt_id) or await self.puzzle_store.load_attempt(attempt_id)
        return None if found is None else self._keep(found)

    # -- a new attempt -----------------------------------------------------------------------

    async def start(self, interaction: Interaction, which: str = NEAR) -> None:
        """Choose a puzzle (`which`: near the player's rating, the daily one, or one of the
        server's) and send it as the interaction's response."""
        if which == DAILY:
            await self.daily(interaction)
            return
        record = await in_time(self._started(interaction, which))
        if record is None:
            await replies.tell(interaction, NO_SERVER_PUZZLES)
            return
        self._keep(record)
        await interaction.response.send_message(view=drawn.view(record), allowed_mentions=QUIET)

    async def _started(self, interaction: Interaction, which: str) -> AttemptRecord | None:
        """A new attempt at a puzzle chosen for the player, stored; None where the server has
        no puzzles of its own to choose from."""
        guild, user = interaction.guild_id, interaction.user.id
        if self._ratings is None:
            self._ratings = await self.puzzle_store.puzzle_ratings()
        ratings = self._ratings
        rating, tried = self._players.get((guild, user)) or await self._player(guild, user)
        pool: list[Puzzle] | None = None
        if which == SERVER:
            pool = await self.puzzle_store.server_puzzles(guild) if guild is not None else []
            if not pool:
                return None
        chosen = near(rating, self.rng, done=tried, ratings=ratings, pool=pool)
        record = await self.puzzle_store.start_attempt(self._new(interaction, chosen))
        assert record is not None  # only a daily attempt can be refused
        tried.add(chosen.id)
        return record

    async def _player(self, guild: int | None, user: int) -> tuple[float, set[str]]:
        """A player's rating and tried puzzles as stored, kept (the newest players')."""
        player, tried = await asyncio.gather(
            self.puzzle_store.puzzle_player(guild, user),
            self.puzzle_store.puzzles_tried(guild, user),
        )
        self._players[guild, user] = kept = (player.rating.rating, tried)
        if len(self._players) > RECENT:
            self._players.popitem(last=False)
        return kept

    async def daily(self, interaction: Interaction) -> None:
        """Today's puzzle of this place, privately: a new attempt, the one in progress again
        (its private message may be gone), or what became of today's."""
        record = await in_time(self._daily(interaction, today()))
        if record.over:
            await replies.tell(
                interaction, SOLVED_TODAY if record.state == "solved" else TRIED_TODAY
            )
            return
        await interaction.response.send_message(
            view=drawn.view(self._keep(record)), ephemeral=True, allowed_mentions=QUIET
        )

    async def _daily(self, interaction: Interaction, day: int) -> AttemptRecord:
        guild, user = interaction.guild_id, interaction.user.id
        record = await self.puzzle_store.daily_attempt(guild, user, day)
        if record is None:
            puzzle = daily(day, guild or user)
            record = await self.puzzle_store.start_attempt(self._new(interaction, puzzle, day))
            if (kept := self._players.get((guild, user))) is not None:
                kept[1].add(puzzle.id)
            # None: another click of this player started it meanwhile.
            record = record or await self.puzzle_store.daily_attempt(guild, user, day)
        if record is None:
            raise RuntimeError(f"the daily attempt of {user} is neither new nor stored")
        return record

    def _new(
        self, interaction: Interaction, puzzle: Puzzle, day: int | None = None
    ) -> AttemptRecord:
        return AttemptRecord(
            id=0,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            puzzle=puzzle,
            day=day,
            locale=str(interaction.locale),
            interactions_only=not access.reaches_channel(interaction),
        )

    # -- a click on a board ------------------------------------------------------------------

    async def click(self, interaction: Interaction, attempt_id: int, what: str, ply: int) -> None:
        """Answer a click on attempt `attempt_id`'s board drawn at `ply`: a cell, Hint or Next."""
        if attempt_id in self._busy:
            await replies.tell(interaction, THINKING)
            return
        self._busy.add(attempt_id)
        try:
            await self._click(interaction, attempt_id, what, ply)
        finally:
            self._busy.discard(attempt_id)

    async def _click(self, interaction: Interaction, attempt_id: int, what: str, ply: int) -> None:
        record = await self._load(attempt_id)
        if record is None:
            await replies.tell(interaction, GONE)
            return
        if record.user_id != interaction.user.id:
            await replies.tell(interaction, N_(NOT_YOURS.msgid, player=f"<@{record.user_id}>"))
            return
        if what == drawn.NEXT:
            await self.start(interaction, NEAR)
            return
        if record.over or ply != record.ply:
            # A board behind its attempt (the last answer never showed): show where it stands.
            await interaction.response.edit_message(view=drawn.view(record), allowed_mentions=QUIET)
            return
        attempt, cell = record.attempt, None if what == drawn.HINT else int(what)
        if cell is not None and cell not in attempt.board.legal_moves():
            await replies.tell(interaction, OFF_BOARD)
            return
        try:
            # Stored with the puzzle (or kept): answered at once, else by the engine's search.
            result = self.answers.known(attempt, cell)
            if result is None:
                result = await self._searched(interaction, record, cell)
            after, extras = await self._save(record, result)
        except Exception:
            if interaction.response.is_done():  # the move was shown thinking: take it back
                await self._show(interaction, drawn.view(record))
            raise
        await self._show(interaction, drawn.view(after, extras))

    async def _searched(
        self, interaction: Interaction, record: AttemptRecord, cell: int | None
    ) -> Attempt | tuple[Attempt, int]:
        """The engine's answer to `cell` (None: a hint); past `REPLY_WAIT` the move is shown
        first, thinking (a hint's response deferred), the answer after."""
        if cell is None:
            job: Any = self.answers.hint(record.attempt)
        else:
            job = self.answers.play(record.attempt, cell)
        task = asyncio.ensure_future(job)
        done, _ = await asyncio.wait({task}, timeout=REPLY_WAIT)
        if not done:
            if cell is None:
                await interaction.response.defer()
            else:
                interim = drawn.view(record, Extras(thinking=cell))
                await interaction.response.edit_message(view=interim, allowed_mentions=QUIET)
        result: Attempt | tuple[Attempt, int] = await task
        return result

    async def _save(
        self, record: AttemptRecord, result: Attempt | tuple[Attempt, int]
    ) -> tuple[AttemptRecord, Extras]:
        """Store what the engine answered; the attempt as stored afterwards, and what to say."""
        extras = Extras()
        if isinstance(result, tuple):  # a hint: the attempt with it counted, and the cell
            after = record.moved(result[0])
            saved = await self.puzzle_store.save_attempt(after, record)
            extras = Extras(hint=result[1])
        elif not (after := record.moved(result)).over:
            saved = await self.puzzle_store.save_attempt(after, record)
        else:
            settled = await self.puzzle_store.finish_attempt(after, record)
            saved = settled is not None
            if settled is not None:
                rating = (settled.before.rating.rating, settled.after.rating.rating)
                streak = None if after.day is None else settled.after.streak
                extras = Extras(rating=rating, streak=streak, better=result.better)
                if self._ratings is not None:
                    self._ratings[after.puzzle.id] = settled.puzzle.rating
                player = (after.guild_id, after.user_id)
                if (kept := self._players.get(player)) is not None:
                    self._players[player] = (settled.after.rating.rating, kept[1])
        if not saved:  # the stored attempt moved on meanwhile (another process): show it
            self._recent.pop(record.id, None)
            stored = await self._load(record.id)
            return stored or record, Extras()
        return self._keep(after), extras

    async def _show(self, interaction: Interaction, view: BoardView) -> None:
        """The board as the click's response, or as an edit of it after an early response."""
        if interaction.response.is_done():
            await interaction.edit_original_response(view=view, allowed_mentions=QUIET)
        else:
            await interaction.response.edit_message(view=view, allowed_mentions=QUIET)
