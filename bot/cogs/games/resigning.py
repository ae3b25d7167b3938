"""Resigning takes two clicks: Resign turns the board's Resign button into Confirm resign for a
few seconds, and only a click on that, by the same player in time, resigns.

The first click's one response is an edit of the board itself (type 7), so it works wherever a
game lives: where the bot has no channel, the board is edited through the interaction that
asked. Nothing is stored: the confirm button's custom id carries the side that asked and the
time until which it resigns (``ttt:<game>:confirm<x|o><until>``), so after a restart it still
resigns in time, and later it asks again. After the few seconds the same interaction puts
Resign back, unless the game has moved on (its new board has Resign already) or someone asked
again since.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from datetime import datetime
from typing import Any

import discord

from bot.cogs.games.flow import GameFlow
from bot.cogs.games.texts import UNSHOWN
from bot.discord_ui import board, replies
from bot.games import rules
from bot.games.record import GameRecord

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

WINDOW = 8.0  # seconds a confirmation stays open: time to read the board and click again
CONFIRMATION = re.compile(board.CONFIRM + r"(?P<side>[xo])(?P<until>[0-9]{1,12})")


def asks(game: GameRecord, user_id: int, what: str, now: datetime) -> bool:
    """Whether a click on control `what` asks to confirm resigning rather than resigns: Resign
    itself, or a confirmation asked by the other side or whose time has run out."""
    if not what.startswith((board.RESIGN, board.CONFIRM)):
        return False
    asked = CONFIRMATION.fullmatch(what)  # None for Resign (or a forged confirmation)
    if asked is None:
        return True
    return rules.side_of(game, user_id) != asked["side"].upper() or now.timestamp() > int(
        asked["until"]
    )


class Resigns:
    """Asks for the confirmation, and puts Resign back once its time is up."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.live = flow.live
        self._asked: dict[int, str] = {}  # game id -> the newest confirmation shown

    async def ask(self, interaction: Interaction, game: GameRecord, user_id: int) -> bool:
        """Answer a click on Resign (or on a confirmation that is not the clicker's, or has run
        out) with the board asking to confirm (lock held); False if Discord refused."""
        side = rules.side_of(game, user_id) or "X"
        until = math.ceil(self.live.clock.now().timestamp() + WINDOW)
        what = f"{board.CONFIRM}{side.lower()}{until}"
        try:
            await self.flow.showing.painter.update(
                interaction, game, confirm=(what, user_id, round(WINDOW))
            )
        except discord.HTTPException as exc:
            log.warning("could not ask to confirm resigning game %s: %s", game.id, exc)
            await replies.tell_safely(interaction, UNSHOWN)
            return False
        self.flow.showing.answered(game, interaction)
        self._asked[game.id] = what
        self.live.tasks.spawn(self._put_back(interaction, game, what), name=f"ttt-resign-{game.id}")
        return True

    async def _put_back(self, interaction: Interaction, game: GameRecord, what: str) -> None:
        """After the confirmation's time, show the board with Resign again through the
        interaction that asked, if the board still asks."""
        await asyncio.sleep(WINDOW)
        async with self.live.locks(game.id):
            if self._asked.get(game.id) != what:
                return  # asked again since: that one puts it back
            del self._asked[game.id]
            current = self.live.games.get(game.id)
            if current is None or current.moves != game.moves or not rules.is_live(current):
                return  # the game moved on or ended: its board was drawn anew
            try:
                drawn = await self.flow.showing.painter.drawn(current)
                await self.flow.showing.painter.send(drawn, interaction.edit_original_response)
            except discord.HTTPException as exc:  # the next click's board puts it right
                log.warning("could not put Resign back on game %s: %s", game.id, exc)
