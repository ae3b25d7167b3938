"""Opening a game: the one way a game begins, for /tictactoe and a rematch alike.

The bot's permissions in the channel are checked first (a board moved by reactions only needs
Add Reactions too). The channel is reserved next (synchronously, so two commands cannot both
pass), the game takes an id and the server's look (marks, input) and is saved, then its board is
posted and the board's message id is stored in the game as it is by then: a click on the new
board may already have changed it. A game no interaction shows (a tournament's, in its thread)
opens the same way in two steps: ``open_posted`` (reserved and saved), then ``post_board``,
which posts with a nonce of the game's (``BOARD_NONCE``: Discord answers a second post with the
same nonce with the first message, so a post the bot did not hear back from, by a crash, is not
made twice), after ``find_board`` has looked for a board a process before it posted.

A board answered to an interaction (a command, a rematch) needs neither: an interaction is
answered once, so a restarted bot cannot answer it again, and a board whose message id a crash
kept from the store still plays, its first click telling the game its message.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.games import applied_settings
from bot.cogs.games.events import POSTED
from bot.cogs.games.flow import GameFlow
from bot.cogs.games.texts import NOT_SAVED
from bot.discord_ui import access, readback, replies
from bot.games import rules
from bot.games.look import Look
from bot.games.record import GameRecord
from bot.storage.base import StorageError

log = logging.getLogger(__name__)

FIND_LIMIT = 20  # a game's own channel's first messages read when looking for its board

Interaction = discord.Interaction[Any]


async def open_game(
    flow: GameFlow,
    interaction: Interaction,
    channel_id: int,
    build: Callable[[int], GameRecord],
    *,
    style: str | None = None,
) -> GameRecord | None:
    """Open a game in a channel: reserve it, take an id, save, post the board, let the engine
    move if it starts. The only way a game begins, for a command and a rematch alike.

    `style`: the board's style as the player chose it (None: the server's).
    Returns the game as posted, or None when the channel is busy or the game could not be
    saved (the clicker is told, the reservation given back).
    """
    conf = applied_settings.of(flow.servers, interaction.guild_id)
    lacking = access.missing(interaction, reactions=conf.input == "reactions")
    if lacking:
        await replies.tell(interaction, access.cannot_start(lacking))
        return None
    limit = conf.games_per_channel or 1
    if not flow.live.games.reserve(channel_id, limit) and not await _reclaim(
        flow, channel_id, limit
    ):
        busy = readback.busy_text(
            flow.live.games.in_channel(channel_id), links=flow.settings.message_links
        )
        yours = applied_settings.may_change(interaction)
        await replies.tell(
            interaction, applied_settings.busy(busy, limit, interaction.guild_id, yours=yours)
        )
        return None
    try:
        game = await _saved(flow, build(await flow.store.next_game_id()), style)
    except StorageError as exc:
        flow.live.games.release(channel_id)
        log.debug("could not open a game in channel %s: %s", channel_id, exc)
        await replies.tell(interaction, NOT_SAVED)
        return None
    except BaseException:
        flow.live.games.release(channel_id)
        raise
    try:
        drawn = await flow.showing.painter.drawn_for(interaction, game)
        send = interaction.response.send_message
        sent = await flow.showing.painter.send(drawn, send, new=True, interaction=interaction)
        message_id = sent.message_id or (await interaction.original_response()).id
        flow.showing.note_board(game, interaction)
    except BaseException as error:
        async with flow.live.locks(game.id):  # no message, so nobody can play it
            await flow.abandon(game)
        if replies.too_late(error):  # held up past Discord's 3 s: the channel is free again
            replies.log_too_late(interaction, "a new board")
            return None
        if not replies.discords_trouble(error):
            raise
        # Discord refused the board (5xx, 429): an expected condition, said in one line.
        log.warning("could not post the board of game %s: %s", game.id, error)
        await replies.apologize(interaction)
        return None
    game = await _note_message(flow, game.id, message_id)
    reacted = game.look.reactions and not game.interactions_only
    if reacted and not interaction.app_permissions.manage_messages:
        await replies.tell_safely(interaction, access.CANNOT_CLEAN_UP)
    if rules.ai_to_move(game):
        await flow.ai_move(game.id, interaction, on_board=True)
    return game


async def open_posted(flow: GameFlow, game: GameRecord) -> GameRecord | None:
    """Open `game` (its id taken already) where no interaction shows it: the channel (a
    tournament's thread) reserved and the game saved, its board still to post (`post_board`).
    None when the channel holds a game already. StorageError propagates, nothing reserved."""
    if not flow.live.games.reserve(game.channel_id, 1):
        return None
    try:
        return await _saved(flow, game)
    except BaseException:
        flow.live.games.release(game.channel_id)
        raise


async def post_board(
    flow: GameFlow, game: GameRecord, send: Callable[..., Awaitable[discord.Message]]
) -> GameRecord:
    """Post the board of a saved game with `send` (a channel's ``send``), drawn as any board
    (its picture where its style says so, with emoji where Discord refuses the picture), with
    the game's nonce, and keep the message in the game. discord.HTTPException propagates: the
    game stays without a board, to be posted again."""
    drawn = await flow.showing.painter.drawn(game)
    nonced = functools.partial(send, nonce=board_nonce(game.id))
    sent = await flow.showing.painter.send(drawn, nonced, new=True)
    return await _note_message(flow, game.id, sent.id)


def board_nonce(game_id: int) -> str:
    """The nonce of a game's board post (Discord takes at most 25 characters)."""
    return f"ttt-board-{game_id}"


async def find_board(
    flow: GameFlow, game: GameRecord, channel: discord.abc.Messageable
) -> GameRecord | None:
    """The game with its board, if the bot posted one in `channel` (a channel of the game's
    own: a tournament's thread) that the store does not know of (a crash came between the
    post and its store); None if there is none. A board found that does not show the game as
    stored is caught up (``behind``). discord.HTTPException propagates."""
    mine = flow.client.user.id if flow.client.user else 0
    found: discord.Message | None = None
    async for message in channel.history(limit=FIND_LIMIT, oldest_first=True):
        if message.author.id != mine or message.type is not discord.MessageType.default:
            continue  # another's, or a notice of Discord's (a member added to the thread)
        shown = readback.game_of(message)
        if shown == game.id:
            found = message
            break
        if shown is None and found is None:  # a board moved by reactions has no buttons
            found = message
    if found is None:
        return None
    noted = await _note_message(flow, game.id, found.id)
    if not readback.shows(found, noted):
        flow.showing.fell_behind(game.id)
    return noted


async def _saved(flow: GameFlow, game: GameRecord, style: str | None = None) -> GameRecord:
    """A new game with the server's look (its style as the player chose, if they did; and the
    engine's reply if it starts), saved."""
    game = _with_look(game, applied_settings.of(flow.servers, game.guild_id).look(), style)
    game = await flow.with_reply(game)
    async with flow.live.locks(game.id):
        return await flow.commit(game)


def _with_look(game: GameRecord, look: Look, style: str | None = None) -> GameRecord:
    """A new board takes the server's look as it is now, and keeps it; where only interactions
    reach the board, moves are by buttons (no reactions can be read there); a board that offers
    no rematch keeps offering none."""
    if style is not None:
        look = dataclasses.replace(look, style=style)
    if game.interactions_only:
        look = dataclasses.replace(look, input="buttons")
    if not game.look.rematch:  # a tournament game's
        look = dataclasses.replace(look, rematch=False)
    return dataclasses.replace(game, look=look)


async def _reclaim(flow: GameFlow, channel_id: int, limit: int) -> bool:
    """Reserve a place in a full channel where a game's board is gone (deleted while the bot
    was not listening), abandoning that game first; False if the channel stays full."""
    for busy in flow.live.games.games_in(channel_id):
        if busy.message_id is None or busy.interactions_only:
            continue  # no channel to ask; its game ends by its own clock
        if await readback.board_exists(flow.client, busy):
            continue
        async with flow.live.locks(busy.id):
            log.info("the board of game %s is gone; the game is abandoned", busy.id)
            await flow.abandon(busy, {busy.message_id})
        return flow.live.games.reserve(channel_id, limit)
    return False


async def _note_message(flow: GameFlow, game_id: int, message_id: int) -> GameRecord:
    """Store the board's message id in the game as it is now: a click may have come first."""
    async with flow.live.locks(game_id):
        current = await flow.load(game_id)
        if current is None:
            raise LookupError(f"game {game_id} vanished while its board was posted")
        noted = dataclasses.replace(current, message_id=message_id)
        try:
            noted = await flow.commit(noted)
        except StorageError as exc:
            # The game goes on in memory; only a restart would lose track of its message.
            log.debug("could not store the message id of game %s: %s", game_id, exc)
            flow.live.games.put(noted)
    flow.client.dispatch(POSTED, game_id)
    return noted
