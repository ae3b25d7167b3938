"""A tournament's messages in its channel: the announcement, edited whenever its players or
results change, and the final message with the podium.

An edit is made at once, then none for `SPACING` seconds: whatever changes meanwhile makes one
more edit after them, never a queue. A round's results come in bursts; one edit a second shows
them all as they come, and keeps well inside the rate Discord allows edits of one channel.

The standings are recounted from the stored games every time (``standings``), never kept apart,
so what the announcement shows always agrees with the games stored: read from the store, or, for
a tournament the director holds (``held``: its games as the store gave them, with the results
stored since), from those.

The end is shown before it is stored (``show_end``; the final message too, ``post_final``), so a
tournament is stored over only once its messages show it over: a crash in between leaves it
running, and the next start ends it again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

import discord

from bot.discord_ui import grid, replies, time_limits
from bot.discord_ui.replies import describe
from bot.storage.base import StorageError, Store
from bot.tournaments import board as shown
from bot.tournaments import standings
from bot.tournaments.last_read import LastRead
from bot.tournaments.standings import Standing
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import Pairing, Stage, Tournament

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
FIND_LIMIT = 100  # the channel's messages read for an announcement posted before a restart
FINAL_LOOK = 2000  # and back to the announcement, at most, for the final message
CLOCKS_APART = timedelta(minutes=1)  # the bot's clock against Discord's, at most
SPACING = 1.0  # seconds from one edit of an announcement to the next
LAST_EDIT = 3.0  # seconds the bot's stop waits for an edit that was waiting for its turn


class Announcer:
    """Keeps each tournament's announcement up to date."""

    def __init__(self, *, client: discord.Client, store: Store) -> None:
        self.client = client
        self.tournament_store = TournamentStore(store)
        self._editing: dict[int, asyncio.Task[Any]] = {}
        self._again: set[int] = set()
        self._held: dict[int, LastRead] = {}  # what to edit from, instead of the store
        self._ended: set[int] = set()  # tournaments whose end the announcement shows
        self._closed = False

    def refresh(self, tid: int, held: LastRead | None = None) -> None:
        """Edit the announcement now, or once more when `SPACING` has passed since the last
        edit, from `held` as it is then (the tournament as the director holds it; None: as the
        store has it). Nothing once `show_end` has shown its end."""
        if tid in self._ended:
            return
        if held is None:
            self._held.pop(tid, None)
        else:
            self._held[tid] = held
        if tid in self._editing:
            self._again.add(tid)
            return
        if self._closed:  # the bot is stopping: the next start edits it as the store has it
            return
        task = asyncio.create_task(self._edits(tid))
        self._editing[tid] = task

    async def close(self) -> None:
        """Stop editing. An edit still waiting for its turn is made now, within `LAST_EDIT`
        seconds: the final standings (a round's last results come together) may be one."""
        self._closed = True
        waiting = [tid for tid in self._editing if tid in self._again]
        for task in self._editing.values():
            task.cancel()
        for tid in waiting:
            try:
                async with asyncio.timeout(LAST_EDIT):
                    await self._edit(tid)
            except TimeoutError:
                log.warning("the last edit of tournament %s's announcement took too long", tid)

    async def _edits(self, tid: int) -> None:
        try:
            while True:
                self._again.discard(tid)
                await self._edit(tid)
                await asyncio.sleep(SPACING)  # what changes meanwhile makes one more edit
                if tid not in self._again:
                    return
        finally:
            if self._editing.get(tid) is asyncio.current_task():
                del self._editing[tid]
                self._again.discard(tid)

    async def table(self, t: Tournament) -> list[Standing]:
        """The standings as the stored games give them (none before the start)."""
        if t.stage is Stage.OPEN:
            return []
        entrants, games = (
            await self.tournament_store.entrants(t.id),
            await self.tournament_store.games_of(t.id),
        )
        return standings.of(t, entrants, games, await self.tournament_store.byes_of(t.id))

    async def view(self, t: Tournament) -> discord.ui.LayoutView:
        """The announcement of `t` as it is now."""
        return shown.announcement(
            t, await self.tournament_store.entrants(t.id), await self.table(t)
        )

    async def _edit(self, tid: int) -> None:
        if tid in self._ended:  # its end is shown (``show_end``): nothing after it
            return
        try:
            held = self._held.get(tid)
            t = held.t if held is not None else await self.tournament_store.get_tournament(tid)
            if t is None or t.message_id is None:
                return
            layout: discord.ui.LayoutView
            if held is not None:
                layout = shown.announcement(t, held.entrants, held.table())
            else:
                layout = await self.view(t)
            # Discord's answer (the message as edited) is not read: nothing here needs it.
            with discord.http.handle_message_parameters(view=layout) as edit:
                await time_limits.call(
                    self.client.http.edit_message(t.channel_id, t.message_id, params=edit)
                )
        except StorageError as error:
            log.debug("could not read tournament %s for its announcement: %s", tid, error)
        except replies.CALL_FAILED as error:
            log.warning(
                "could not edit the announcement of tournament %s: %s", tid, describe(error)
            )

    async def post(self, t: Tournament, channel: discord.abc.Messageable) -> int:
        """Post the announcement of `t` (new: stored already, its id not yet) in `channel`,
        with the tournament's nonce: Discord answers a second post with the first message.
        Its message id; discord.HTTPException propagates."""
        sent = await channel.send(view=await self.view(t), nonce=announcement_nonce(t.id))
        return sent.id

    async def recover(self, t: Tournament) -> bool:
        """A tournament without an announcement id (a crash came between its post and its
        store): the bot's announcement of it in the channel (by its buttons; among the first
        messages since the tournament was created, as it was posted then) is kept, else it is
        posted now. False if Discord failed (one line: the caller tries again). StorageError
        propagates."""
        mine = self.client.user.id if self.client.user else 0
        channel = self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        since = None if t.created_at is None else t.created_at - CLOCKS_APART
        try:
            found = None
            async for message in channel.history(limit=FIND_LIMIT, after=since):
                ids = (shown.parse_id(b.custom_id) for b in grid.buttons_in(message.components))
                if message.author.id == mine and any(i and i[0] == t.id for i in ids):
                    found = message.id
                    break
            if found is None:
                found = await self.post(t, channel)
        except replies.CALL_FAILED as error:
            log.warning("could not find or post tournament %s: %s", t.id, describe(error))
            return False
        await self.tournament_store.set_tournament_messages(t.id, message_id=found)
        return True

    async def post_final(self, t: Tournament, pairings: Sequence[Pairing]) -> bool:
        """Post the final message (the podium, every game's thread) and keep its id; False if
        Discord refused it or could not be reached (one line: the caller tries again).

        Made once across a crash between the post and its store: a final message the bot
        posted already is found in the channel (``find_final``), and the post carries the
        tournament's nonce, so Discord answers a second post with the first message."""
        final = shown.final(t, await self.table(t), pairings)
        channel = self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        try:
            sent = await self.find_final(t, pairings)
            if sent is None:
                sent = await channel.send(
                    view=final, nonce=final_nonce(t.id), allowed_mentions=NO_MENTIONS
                )
        except replies.CALL_FAILED as error:
            log.warning(
                "could not post the final message of tournament %s: %s", t.id, describe(error)
            )
            return False
        await self.tournament_store.set_tournament_messages(t.id, final_message_id=sent.id)
        return True

    async def find_final(
        self, t: Tournament, pairings: Sequence[Pairing]
    ) -> discord.Message | None:
        """The final message of `t` if the bot posted it already: the channel's messages read
        from the newest back to the announcement (at most `FINAL_LOOK`, a page of 100 a call),
        the bot's that links the tournament's first game's thread (no other message does).
        discord.HTTPException propagates."""
        first = next((p.thread_id for p in pairings if p.thread_id is not None), None)
        if first is None or t.message_id is None:
            return None  # no thread to know it by: the nonce alone keeps it single
        mine = self.client.user.id if self.client.user else 0
        channel = self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        link = f"<#{first}>"
        async for message in channel.history(limit=FINAL_LOOK):
            if message.id <= t.message_id:
                break
            texts = (getattr(c, "content", "") or "" for c in message.components)
            if message.author.id == mine and any(link in text for text in texts):
                return message
        return None

    async def show_end(self, t: Tournament, stage: Stage = Stage.FINISHED) -> bool:
        """Edit the announcement now to show `t` over (`stage`), as the store has its games,
        before the tournament is stored over: a crash before that store leaves it running, and
        the bot's next start ends it again, this edit included (an edit is the same each time).
        An edit still waiting for its turn is dropped: it would show the tournament running.
        False if Discord failed (one line: the caller tries again)."""
        self._ended.add(t.id)  # from now on no other edit: it would show the tournament running
        task = self._editing.pop(t.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._again.discard(t.id)
        self._held.pop(t.id, None)
        if t.message_id is None:
            return True
        try:
            layout = await self.view(replace(t, stage=stage))
            with discord.http.handle_message_parameters(view=layout) as edit:
                await time_limits.call(
                    self.client.http.edit_message(t.channel_id, t.message_id, params=edit)
                )
        except replies.CALL_FAILED as error:
            log.warning(
                "could not edit the announcement of tournament %s: %s", t.id, describe(error)
            )
            self._ended.discard(t.id)  # still running: its edits go on until it is tried again
            return False
        except BaseException:
            self._ended.discard(t.id)
            raise
        return True


def announcement_nonce(tid: int) -> str:
    """The nonce of a tournament's announcement (Discord takes at most 25 characters)."""
    return f"ttt-tour-{tid}"


def final_nonce(tid: int) -> str:
    """The nonce of a tournament's final message (Discord takes at most 25 characters)."""
    return f"ttt-final-{tid}"
