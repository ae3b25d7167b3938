"""The daily puzzle posted by the bot: at the hour a server sets (``/tictactoe-settings set
puzzle_channel puzzle_hour``, UTC), today's puzzle of that server in its channel.

The post shows the position as a game's board is drawn (the server's marks), who is to move and
in how many moves, and one button, ``pz:daily``, that gives whoever presses it today's puzzle as
an attempt of their own (handled with /tictactoe-puzzle). A task wakes at each full hour (and
once at start-up, so an hour missed while the bot was down is made up the same day) and posts
for every server of this process's shards whose hour has come and whose post is not done yet:
``Store.claim_daily_post`` lets one post through per server and day, whatever the restarts or
processes; a post claimed by a process that died before it was made (or whose post failed) is
made by the next that finds none in the channel, with a nonce of the server's and the day's, so
that a post Discord took already is not made twice. A channel gone, a permission missing or the
database away is one log line, never a traceback; the clock is passed in (``now``), so a
simulated Discord can move it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.discord_ui import access, grid
from bot.discord_ui.board import BoardView
from bot.games import kinds
from bot.games.kinds.base import ACTION_ROW, BUTTON, TEXT_DISPLAY
from bot.games.record import GameRecord, Status
from bot.games.settings import ServerSettings, posting_hour
from bot.i18n import N_, NP_, has_catalog, translation
from bot.puzzles.board import DAILY_ID  # clicks on it: /tictactoe-puzzle's cog
from bot.puzzles.model import day_of, setup_moves
from bot.puzzles.store import PuzzleStore
from bot.storage.base import StorageError, Store
from engine.puzzles import Puzzle, daily

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

LOOK_BACK = 1000  # a channel's messages since the day's hour read for a post claimed before
WAKE_LATE = 1.0  # seconds past the full hour the task wakes, so a clock a little early still counts
SOLVE = N_("Solve it")
INVITE = N_("Press the button to try it: your attempt is yours alone, and only you see it.")


def post_locale(conf: ServerSettings, guild: discord.Guild) -> str:
    """The post's language: the server's board language, else its own language when it is a
    Community server, else English (as a game's board, with nobody starting it)."""
    if conf.language is not None:
        return conf.language
    locale = str(guild.preferred_locale)
    return locale if "COMMUNITY" in guild.features and has_catalog(locale) else "en-US"


def as_game(puzzle: Puzzle) -> GameRecord:
    """The puzzle's position as a game to draw, with the default marks as every puzzle board
    (``board``) has them, so the post and the attempt it opens look alike."""
    board = puzzle.board
    return GameRecord(
        id=0,
        guild_id=None,
        channel_id=0,
        x_id=0,
        o_id=0,
        challenger_id=0,
        size=board.size,
        k=board.k,
        moves=setup_moves(puzzle),
        status=Status.ACTIVE,
    )


def message(puzzle: Puzzle, day: int, locale: str) -> BoardView:
    """The post: title, task, board, how to try it, and the button."""
    catalog = translation(locale)
    board = puzzle.board
    game = as_game(puzzle)
    task = NP_(
        "{size}×{size}, {k} in a row: {mark} to play and win in {n} move.",
        "{size}×{size}, {k} in a row: {mark} to play and win in {n} moves.",
        puzzle.moves,
        size=board.size,
        k=board.k,
        mark=game.look.mark(board.turn),
    )
    title = N_("Daily puzzle · {date}", date=date.fromordinal(day).isoformat()).render(catalog)
    lines = [f"### 🧩 {title}", task.render(catalog)]
    text = "\n\n".join(["\n".join(lines), kinds.CLASSIC.grid(game, keyed=False)])
    text += f"\n\n{INVITE.render(catalog)}"
    button = {
        "type": BUTTON,
        "style": discord.ButtonStyle.primary.value,
        "label": SOLVE.render(catalog),
        "emoji": {"name": "🧩"},
        "custom_id": DAILY_ID,
    }
    return BoardView(
        [{"type": TEXT_DISPLAY, "content": text}, {"type": ACTION_ROW, "components": [button]}]
    )


class DailyPosting(commands.Cog):
    """Posts each server's daily puzzle in its channel at its hour."""

    def __init__(
        self, *, client: discord.Client, store: Store, now: Callable[[], datetime]
    ) -> None:
        self.client = client
        self.store = store
        self.puzzle_store = PuzzleStore(store)
        self.now = now
        self._done: set[tuple[int, int]] = set()  # (server, day) posted or given up on here
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._run(), name="ttt-daily-puzzle")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        await self.client.wait_until_ready()
        while True:
            try:
                await self.post_due()
            except Exception:  # a bug: said with its traceback, and the next hour still comes
                log.exception("the daily puzzle posts failed")
            now = self.now()
            hour = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
            await asyncio.sleep((hour - now).total_seconds() + WAKE_LATE)

    async def post_due(self) -> None:
        """Post today's puzzle for every server of this process whose hour has come."""
        now = self.now()
        day = day_of(now)
        self._done = {done for done in self._done if done[1] == day}
        try:
            servers = await self.store.server_settings()
        except StorageError as exc:
            log.debug("could not read the servers' settings for the daily puzzle: %s", exc)
            return
        for guild_id, conf in servers.items():
            if conf.puzzle_channel is None or now.hour < posting_hour(conf):
                continue
            guild = self.client.get_guild(guild_id)  # None: another shard's, or the bot left
            if guild is not None and (guild_id, day) not in self._done:
                await self._post(guild, conf, day)

    async def _post(self, guild: discord.Guild, conf: ServerSettings, day: int) -> None:
        channel = guild.get_channel(conf.puzzle_channel or 0)
        if not isinstance(channel, discord.TextChannel):
            self._done.add((guild.id, day))
            log.warning("no daily puzzle in server %s: its channel is gone", guild.id)
            return
        lacking = access.cannot_post(channel)
        if lacking:
            self._done.add((guild.id, day))
            log.warning(
                "no daily puzzle in server %s: missing %s in channel %s",
                guild.id,
                " and ".join(lacking),
                channel.id,
            )
            return
        try:
            claimed = await self.puzzle_store.claim_daily_post(guild.id, day)
        except StorageError as exc:  # tried again at the next hour
            log.debug("could not claim the daily puzzle post of server %s: %s", guild.id, exc)
            return
        self._done.add((guild.id, day))
        view = message(daily(day, guild.id), day, post_locale(conf, guild))
        try:
            if not claimed and await self._posted(channel, day, conf):
                return  # posted already: before a restart, or by another process
            await channel.send(view=view, nonce=daily_nonce(guild.id, day))
        except discord.HTTPException as exc:
            self._done.discard((guild.id, day))  # tried again at the next hour
            log.warning("could not post the daily puzzle in channel %s: %s", channel.id, exc)

    async def _posted(self, channel: discord.TextChannel, day: int, conf: ServerSettings) -> bool:
        """Whether the channel holds the bot's puzzle of `day`: a claim stored before a crash
        (or another process's) may or may not have been posted. Looked for among the messages
        since the day's hour came (it is claimed then, or later if the bot was down then), at
        most `LOOK_BACK` of them, a page of 100 a call. Where the bot may not read the channel's
        history, it counts as posted (never twice, at worst none)."""
        if not channel.permissions_for(channel.guild.me).read_message_history:
            return True
        mine = self.client.user.id if self.client.user else 0
        hour = self.now().replace(hour=posting_hour(conf), minute=0, second=0, microsecond=0)
        async for found in channel.history(limit=LOOK_BACK, after=hour - timedelta(minutes=1)):
            ids = (button.custom_id for button in grid.buttons_in(found.components))
            if found.author.id == mine and DAILY_ID in ids and day_of(found.created_at) == day:
                return True
        return False


def daily_nonce(guild_id: int, day: int) -> str:
    """The nonce of a server's post of a day (Discord takes at most 25 characters)."""
    return "ttt-d-" + hashlib.blake2b(f"{guild_id}:{day}".encode(), digest_size=8).hexdigest()
