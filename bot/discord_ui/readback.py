"""Reading a board message back: whether it shows a stored game, whether it is still there.

(How many marks a clicked board shows is ``board.marks_on``: every cell click reads it.)
"""

from __future__ import annotations

import asyncio

import discord

from bot.discord_ui import access, board
from bot.games.record import GameRecord


def shows(message: discord.Message | None, game: GameRecord | None) -> bool:
    """Whether a board message shows the game as stored: as many marks, the same controls.

    True when there is nothing to compare (a click always carries its message).
    """
    if message is None or game is None:
        return True
    marked, controls = 0, set()
    for button in board.buttons_in(message.components):
        what = (button.custom_id or "").rpartition(":")[2]
        if what.isdigit():
            marked += button.emoji is not None
        else:
            controls.add(what)
    return marked == len(game.moves) and controls == set(board.controls(game))


async def board_exists(client: discord.Client, game: GameRecord, *, wait: float = 1.5) -> bool:
    """False only when Discord says the game's board message is gone; any other answer, or none
    within `wait` seconds (the caller may have an interaction to answer), counts as there."""
    if game.message_id is None:
        return True
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        await asyncio.wait_for(channel.fetch_message(game.message_id), wait)
    except discord.HTTPException as exc:
        return not access.board_gone(exc)
    except TimeoutError:
        return True
    return True
