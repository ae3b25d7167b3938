"""A board message as Discord has it: whether it shows a stored game, whether it is still there,
a link to it, and the refusal that points there.

(How many marks a clicked board shows is ``grid.marks_on``: every cell click reads it.)
"""

from __future__ import annotations

import asyncio

import discord

from bot.discord_ui import access, board, grid
from bot.games.record import GameRecord, Status
from bot.i18n import N_, Text


def shows(message: discord.Message | None, game: GameRecord | None, *, words: bool = False) -> bool:
    """Whether a board message shows the game as stored: as many marks, the same controls (a
    board without cell buttons, moved by reactions: the same words and grid); `words`: the
    same words too (a 5x5 board moved by reactions says there which column is picked).

    True when there is nothing to compare (a click always carries its message).
    """
    if message is None or game is None:
        return True
    controls = set()
    for button in grid.buttons_in(message.components):
        what = button.custom_id.rpartition(":")[2].partition("@")[0]
        if what.startswith(board.CONFIRM):  # Resign, asking for its second click
            what = board.RESIGN
        if not what.isdigit() and not what.startswith(board.PICK) and what != board.BACK:
            controls.add(what)
    stamped = grid.ply_on(message)
    if stamped is not None:  # its buttons say which position they were drawn at
        return stamped == len(game.moves) and controls == set(board.controls(game))
    marked = grid.marks_on(message, game.look)
    texts = grid.texts_in(message.components)
    if marked is None and board.has_board(game):
        return board.text(game) in texts and controls == set(board.controls(game))
    if words and board.text(game) not in texts:
        return False
    return (marked or 0) == len(game.moves) and controls == set(board.controls(game))


def game_of(message: discord.Message) -> int | None:
    """The game whose board `message` is, as its buttons say (None: no button of a game's)."""
    for button in grid.buttons_in(message.components):
        parsed = board.parse_id(button.custom_id)
        if parsed is not None:
            return parsed[0]
    return None


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


def jump_url(game: GameRecord) -> str:
    """A link to the game's message (the board or the challenge)."""
    guild = game.guild_id if game.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}/{game.message_id}"


def busy_text(game: GameRecord | None, *, links: bool = True) -> Text:
    """The refusal for a channel that already has as many games as it may; with `links`, a
    link to the game's message (none where messages have no discord.com page: the playground)."""
    if game is None or game.message_id is None:
        return N_("A game is being set up in this channel; wait a moment or play in another one.")
    if not links:
        if game.status is Status.CHALLENGE:
            return N_("A challenge is waiting in this channel; answer it or play in another one.")
        return N_("A game is running in this channel; wait for its end or play in another one.")
    if game.status is Status.CHALLENGE:
        return N_("A challenge is waiting in this channel: {link}.", link=jump_url(game))
    return N_("A game is running in this channel: {link}.", link=jump_url(game))
