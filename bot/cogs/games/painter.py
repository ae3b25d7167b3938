"""Pictures for the bot's messages: a board of the picture style drawn, cached and sent with its
message, a finished game's replay, and a server's custom emoji marks fetched for them.

Drawing never runs on the event loop: a picture is looked up in the cache on the loop
(microseconds), and one not there yet is drawn in a thread of its own (``bot.pictures`` says
why a thread, and why one). A custom emoji mark is fetched once from Discord's CDN (its PNG),
kept for every picture after; one that cannot be fetched (deleted, the CDN unreachable) is drawn
as its side's default mark, said in one log line, and tried again after `RETRY` seconds.

A board message that cannot carry its picture (no Attach Files, an upload Discord refuses)
is shown with emoji instead, in the same answer (`send`), and the clicker is told privately; so
is one whose picture is not drawn within `PICTURE_WAIT` (a burst of new positions queued in the
drawing thread), silently: the picture is kept for the board's next answer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.compute import drawing
from bot.discord_ui import board, picture, replies, time_limits
from bot.games import look as looks
from bot.games.record import GameRecord
from bot.i18n import N_
from bot.pictures import PictureCache, alt_text, cache, marks

log = logging.getLogger(__name__)

T = TypeVar("T")
Interaction = discord.Interaction[Any]

FETCH_WAIT = 1.0  # seconds a custom emoji's fetch may take (a click waits for it)
# Seconds an answer waits for its picture: past this (a burst of new positions queued in the
# drawing thread) it shows the emoji board, and the picture, still drawn and kept, comes with
# the board's next answer.
PICTURE_WAIT = 1.0
RETRY = 600.0  # seconds before a custom emoji that could not be fetched is tried again
REPLAY_BOUND = 8 * 1024 * 1024  # bytes of replays kept (a Share draws nothing again)
UNPICTURED = N_(
    "I could not upload the board's picture just now, so it is shown with emoji; the next move "
    "tries the picture again."
)
NO_ATTACH = N_(
    "I may not attach files in this channel, so the board is shown with emoji. Someone who "
    "manages the channel can give me Attach Files."
)


@functools.lru_cache(maxsize=2048)
def _alt(game: GameRecord) -> str:
    # The same position is said the same way: said once while it is among the newest.
    return alt_text(game, game.locale)


def may_attach(interaction: Interaction) -> bool:
    """Whether an answer to `interaction` may carry files: anywhere outside servers (DMs and
    group DMs have no permissions to lack), in a server where the bot has Attach Files."""
    return interaction.guild_id is None or interaction.app_permissions.attach_files


class Painter:
    """The bot's pictures: drawn off the loop, cached by position and marks."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.replays = PictureCache(REPLAY_BOUND)
        self._failed: dict[int, float] = {}  # custom emoji id -> when it could not be fetched
        self._fetching: dict[int, asyncio.Task[bool]] = {}
        self._told: set[int] = set()  # games whose players were told the board has no picture
        self.late = 0  # answers that showed the emoji board while their picture was drawn

    # ------------------------------------------------------------------ marks

    async def marks_of(self, look: looks.Look) -> looks.Look:
        """`look` as a picture can draw it: each custom emoji fetched (once), or back to its
        side's default where it cannot be."""
        gone = set()
        for emoji_id in looks.custom_ids(look):
            if not marks.has_custom(emoji_id) and not await self._fetch(emoji_id):
                gone.add(emoji_id)
        return looks.without(look, gone) if gone else look

    async def _fetch(self, emoji_id: int) -> bool:
        """Whether the custom emoji's image is here now, fetched if it was not (one fetch at a
        time for each emoji, none again within `RETRY` of a failure)."""
        failed = self._failed.get(emoji_id)
        if failed is not None and time.monotonic() - failed < RETRY:
            return False
        task = self._fetching.get(emoji_id)
        if task is None:
            task = asyncio.ensure_future(self._download(emoji_id))
            self._fetching[emoji_id] = task
            task.add_done_callback(lambda _: self._fetching.pop(emoji_id, None))
        return await asyncio.shield(task)

    async def _download(self, emoji_id: int) -> bool:
        url = f"{discord.asset.Asset.BASE}/emojis/{emoji_id}.png"
        try:
            data = await asyncio.wait_for(self.client.http.get_from_cdn(url), FETCH_WAIT)
            kept = await drawing.draw(lambda: marks.add_custom(emoji_id, data))
            if not kept:
                raise ValueError("not an image")
        except (*replies.CALL_FAILED, OSError, TimeoutError, ValueError) as exc:
            self._failed[emoji_id] = time.monotonic()
            log.warning(
                "could not fetch the custom emoji %s (%s): pictures draw its side's default mark",
                emoji_id,
                replies.describe(exc),
            )
            return False
        self._failed.pop(emoji_id, None)
        return True

    # ------------------------------------------------------------------ boards

    async def board(self, game: GameRecord) -> tuple[bytes, str]:
        """The picture of a game's board now (PNG) and its alt text, drawn once."""
        shown = dataclasses.replace(game, look=await self.marks_of(game.look))
        return await drawing.board(shown), _alt(game)

    async def drawn(
        self,
        game: GameRecord,
        picked: int | None = None,
        *,
        confirm: tuple[str, int, int] | None = None,
        attach: bool = True,
    ) -> picture.Drawn:
        """A board message showing the game: with its picture where its style says so and
        files may be attached (`attach`), else with emoji."""
        if not game.look.picture or not board.has_board(game):
            return picture.Drawn(board.view(game, picked, confirm=confirm))
        plain = dataclasses.replace(game, look=dataclasses.replace(game.look, style="emoji"))
        fallback = functools.partial(board.view, plain, picked, confirm=confirm)
        if not attach:
            return picture.Drawn(fallback(), None, "", fallback)
        try:
            found = None if looks.custom_ids(game.look) else drawing.ready(game)
            if found is not None:  # no task to wait for: the picture is there
                data, alt = found, _alt(game)
            else:
                data, alt = await asyncio.wait_for(asyncio.shield(self.board(game)), PICTURE_WAIT)
        except TimeoutError:
            self.late += 1
            log.info(
                "the picture of game %s was not drawn within %s s: shown with emoji",
                game.id,
                PICTURE_WAIT,
            )
            return picture.Drawn(fallback(), None, "", fallback)
        gallery = picture.gallery(picture.BOARD_FILE, alt)
        return picture.Drawn(
            board.view(game, picked, confirm=confirm, gallery=gallery), data, alt, fallback
        )

    async def drawn_for(
        self, interaction: Interaction, game: GameRecord, picked: int | None = None, **more: Any
    ) -> picture.Drawn:
        """`drawn`, for an answer to `interaction`: with emoji where the bot may not attach
        files, the clicker told so (once a game)."""
        attach = may_attach(interaction)
        drawn = await self.drawn(game, picked, attach=attach, **more)
        if attach or drawn.fallback is None or game.id in self._told:
            return drawn
        log.info(
            "no Attach Files in channel %s: game %s is shown with emoji",
            interaction.channel_id,
            game.id,
        )
        if len(self._told) > 10_000:
            self._told.clear()
        self._told.add(game.id)
        return dataclasses.replace(drawn, note=NO_ATTACH)

    async def update(
        self, interaction: Interaction, game: GameRecord, picked: int | None = None, **more: Any
    ) -> None:
        """Answer a click with its board showing `game` (its picture, where it has one)."""
        drawn = await self.drawn_for(interaction, game, picked, **more)
        await self.send(
            drawn, lambda **kw: time_limits.update(interaction, **kw), interaction=interaction
        )

    @staticmethod
    async def send(
        drawn: picture.Drawn,
        call: Callable[..., Awaitable[T]],
        *,
        new: bool = False,
        interaction: Interaction | None = None,
    ) -> T:
        """Make `call` (an answer, an edit, a new message: `new`) with the board, and again
        with emoji if Discord refuses its picture (one log line; `interaction`'s clicker is
        told). Any other refusal propagates."""
        try:
            done = await call(**(drawn.send() if new else drawn.edit()))
        except discord.HTTPException as exc:
            if drawn.data is None or not picture.refused_upload(exc) or replies.too_late(exc):
                raise
            log.warning("the picture of a board was refused (%s): shown with emoji", exc)
            plain = drawn.plain()
            done = await call(**(plain.send() if new else plain.edit()))
            drawn = dataclasses.replace(drawn, note=UNPICTURED)
        if interaction is not None and drawn.note is not None:
            await replies.tell_safely(interaction, drawn.note)
        return done

    # ----------------------------------------------------------------- replays

    async def replay(self, game: GameRecord) -> bytes:
        """The game's animated replay (GIF), drawn once."""
        shown = dataclasses.replace(game, look=await self.marks_of(game.look))
        entry = cache.key(shown, -1)  # a replay's key: no board's side is negative
        data = self.replays.get(entry)
        if data is None:
            data = await drawing.replay(shown)
            self.replays.put(entry, data)
        return data
