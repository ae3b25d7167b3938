"""A tournament game's table: its thread under the tournament's channel, its game, its board.

Each step is stored before the next and each is done once, so a restart at any point finishes
what was begun and makes nothing twice: the thread is made (or, after a restart that lost its id,
found again among the channel's active threads by its label, ``board.label_of``) and
kept in the pairing with the id the game takes (``Store.attach_game``, both in one write) before
the game is saved, then the game is opened in the thread the way any game is
(``opening.open_posted``: the server's look, saved before it is shown); its board
is posted in the thread (``opening.post_board``, with the game's nonce; after a restart, unless
``opening.find_board`` finds it there) after the two players are added to the thread, and pings
them once: its first line names both, and it is the one message posted there. From
then on it is a game like any other: the same clicks, reactions and clock (the tournament's time
for a move, stored with the game: ``GameRecord.move_seconds``), and it is rated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

import discord

from bot.cogs.games.flow import GameFlow
from bot.cogs.games.opening import find_board, open_posted, post_board
from bot.discord_ui import replies
from bot.discord_ui.replies import describe
from bot.games import rules
from bot.games.look import Look
from bot.games.record import GameRecord, Status
from bot.storage.base import StorageError
from bot.tournaments import board as shown
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import Pairing, Tournament

log = logging.getLogger(__name__)

ARCHIVE_AFTER: Literal[1440] = 1440  # minutes of quiet before Discord archives a thread
PUBLIC_THREAD: Literal[11] = 11  # Discord's channel type
TOGETHER = 8  # games set up at once (a PostgreSQL pool's connections, Discord's rate limits)


class Tables:
    """Makes and closes the threads and games of tournaments."""

    def __init__(
        self,
        *,
        client: discord.Client,
        flow: GameFlow,
        name: Callable[[discord.Guild, int], Awaitable[str]],
    ):
        self.client = client
        self.flow = flow
        self.store = flow.store
        self.tournament_store = TournamentStore(flow.store)
        self.name = name  # a player's name in a server, for thread names

    async def make(self, t: Tournament, pairing: Pairing) -> bool:
        """Give a pairing still being played whatever it lacks of thread, game and board; False
        if Discord refused a step (one line said; it is tried again). StorageError propagates."""
        try:
            await self._make(t, pairing)
        except (*replies.CALL_FAILED, LookupError) as error:
            log.warning("tournament %s: could not set up a game: %s", t.id, describe(error))
            return False
        return True

    async def make_all(self, t: Tournament, pairings: Sequence[Pairing]) -> bool:
        """`make` `pairings`, `TOGETHER` at a time: their calls to Discord overlap, and on
        SQLite their writes share commits (``Store.save_game``). False if Discord refused a step
        of any; once all are done, an error propagates (a bug's before a StorageError)."""
        room = asyncio.Semaphore(TOGETHER)

        async def make(p: Pairing) -> bool:
            async with room:
                return await self.make(t, p)

        made = await asyncio.gather(*map(make, pairings), return_exceptions=True)
        errors = [m for m in made if isinstance(m, BaseException)]
        errors.sort(key=lambda error: isinstance(error, StorageError))
        for error in errors[1:]:
            log.debug("tournament %s: a game's set-up failed too: %r", t.id, error)
        if errors:
            raise errors[0]
        return all(made)

    async def _make(self, t: Tournament, p: Pairing) -> None:
        taken = None  # a game id taken now: no game is stored under it yet
        if p.thread_id is None or p.game_id is None:
            made = p.thread_id or await self._thread(t, p)
            taken = None if p.game_id is not None else await self.store.next_game_id()
            p = await self.tournament_store.attach_game(p, thread_id=made, game_id=taken) or p
        assert p.game_id is not None and p.thread_id is not None
        game = self.flow.live.games.get(p.game_id)
        if game is None and p.game_id != taken:
            game = await self.store.load_game(p.game_id)
        opened = game is None  # by this call: no board of it was ever posted
        if game is None:
            game = await open_posted(self.flow, self._game(t, p, p.game_id, p.thread_id))
        if game is None or not rules.is_live(game) or game.message_id is not None:
            return  # the thread holds another game (never ours), or the board is up already
        thread = self.client.get_partial_messageable(p.thread_id, guild_id=t.guild_id)
        if not opened and await find_board(self.flow, game, thread) is not None:
            return  # posted before a crash that kept its id from the store
        for player in (p.x, p.o):
            await self.client.http.add_user_to_thread(p.thread_id, player)
        await post_board(self.flow, game, thread.send)  # its first line names both: one ping

    async def _thread(self, t: Tournament, p: Pairing) -> int:
        """The game's thread: one the bot made before a restart (by its label), else a new one."""
        guild = self.client.get_guild(t.guild_id)
        if guild is None:
            raise LookupError(f"server {t.guild_id} is not this process's")
        me = self.client.user.id if self.client.user else 0
        label = shown.label_of(t, p)
        for thread in guild.threads:
            mine = thread.parent_id == t.channel_id and thread.owner_id == me
            if mine and thread.name.startswith(label):
                return thread.id
        names = {p.x: await self.name(guild, p.x), p.o: await self.name(guild, p.o)}
        made = await self.client.http.start_thread_without_message(
            t.channel_id,
            name=shown.thread_name(t, p, names),
            auto_archive_duration=ARCHIVE_AFTER,
            type=PUBLIC_THREAD,
        )
        return int(made["id"])

    def _game(self, t: Tournament, p: Pairing, game_id: int, thread_id: int) -> GameRecord:
        return GameRecord(
            id=game_id,
            guild_id=t.guild_id,
            channel_id=thread_id,
            x_id=p.x,
            o_id=p.o,
            challenger_id=t.creator_id,
            size=t.size,
            k=t.k,
            status=Status.ACTIVE,
            created_at=self.flow.live.clock.now(),
            locale=t.locale,
            kind=t.kind,
            move_seconds=t.move_seconds,
            look=Look(rematch=False),  # the server's look, without Rematch (see `opening`)
        )

    async def archive(
        self, thread_id: int | None, game_id: int, guild_id: int | None = None
    ) -> bool:
        """Archive a finished game's thread, once its board shows the end (the game's lock: the
        change that ended it is shown under it); with `guild_id`, only if Discord still shows
        it open (Discord lists a server's open threads). False if Discord failed (one line)."""
        if thread_id is None or (guild_id is not None and not self._open(guild_id, thread_id)):
            return True
        async with self.flow.live.locks(game_id):
            pass
        try:
            await self.client.http.edit_channel(thread_id, archived=True)
        except replies.CALL_FAILED as error:
            log.warning("could not archive thread %s: %s", thread_id, describe(error))
            return False
        return True

    def _open(self, guild_id: int, thread_id: int) -> bool:
        guild = self.client.get_guild(guild_id)
        thread = guild.get_thread(thread_id) if guild is not None else None
        return thread is not None and not thread.archived
