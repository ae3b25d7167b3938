"""Joining, leaving and starting a tournament, for the command and the buttons alike: each gives
the words of the one private answer the member gets, and has the announcement edited.

A Swiss takes players until it starts; one who leaves after the start is never paired again (the
games played still count). An arena takes players until it ends; one who leaves is paused (no
new game) and comes back by joining again.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, Text
from bot.tournaments import texts
from bot.tournaments.director import Director
from bot.tournaments.tournament import Format, Join, Presence, Stage, Tournament

Interaction = discord.Interaction[Any]

ANSWERS = {
    Join.JOINED: texts.JOINED,
    Join.ALREADY: texts.ALREADY,
    Join.FULL: texts.FULL,
    Join.CLOSED: texts.CLOSED,
    Join.MISSING: texts.NONE_HERE,
}


class Entry:
    """Who is in which tournament, as members ask."""

    def __init__(self, director: Director, names: dict[int, str]) -> None:
        self.director = director
        self.store = director.store
        self.tournament_store = director.tournament_store
        self.names = names  # player id -> the name they joined with (thread names)

    async def presence(self, t: Tournament, user_id: int) -> Presence | None:
        found = [e for e in await self.tournament_store.entrants(t.id) if e.user_id == user_id]
        return found[0].presence if found else None

    async def join(self, t: Tournament, user: discord.abc.User) -> Text:
        """Join (an arena's paused player: come back)."""
        self.names[user.id] = user.display_name
        running_arena = t.format is Format.ARENA and t.stage is Stage.RUNNING
        if running_arena and await self.presence(t, user.id) is Presence.PAUSED:
            await self.tournament_store.pause_entrant(t.id, user.id, False)
            outcome, answer = Join.JOINED, texts.BACK
        else:
            record = await self.store.player_stats(t.guild_id, user.id, t.kind)
            rating = record.rating if record.rated_games else None  # seeds the stronger first
            now = discord.utils.utcnow()
            outcome = await self.tournament_store.join_tournament(
                t.id, user.id, rating=rating, at=now
            )
            answer = ANSWERS[outcome]
        if outcome is Join.JOINED:
            self.director.changed(t.id)
            if running_arena:
                self.director.spawn(self.director.advance(t.id))
        return answer

    async def leave(self, t: Tournament, user_id: int) -> Text:
        """Leave before the start, leave a running Swiss, pause in a running arena."""
        presence = await self.presence(t, user_id)
        if presence not in (Presence.IN,) or t.stage not in (Stage.OPEN, Stage.RUNNING):
            return texts.NOT_IN
        if t.stage is Stage.RUNNING and t.format is Format.ARENA:
            await self.tournament_store.pause_entrant(t.id, user_id, True)
            answer = texts.PAUSED
        else:
            await self.tournament_store.leave_tournament(t.id, user_id)
            answer = texts.LEFT if t.stage is Stage.OPEN else texts.LEFT_SWISS
        self.director.changed(t.id)
        return answer

    async def start(self, t: Tournament, interaction: Interaction) -> Text:
        """Start now: its creator's, or a member's with Manage Server."""
        manager = interaction.guild_id is not None and interaction.permissions.manage_guild
        if interaction.user.id != t.creator_id and not manager:
            return N_(texts.ONLY_CREATOR.msgid, player=f"<@{t.creator_id}>")
        if t.stage is not Stage.OPEN:
            return texts.STARTED
        refusal = await self.director.start(t)
        self.director.announcer.refresh(t.id)
        return refusal or texts.STARTED_NOW
