"""A picture in a message: the attachment (its alt text as the attachment's description) and
the media gallery item that shows it in a Components V2 layout, and a board message as what a
call to Discord takes (the layout, with or without its picture); a game's board and replay as
attachments, drawn off the event loop (``bot.compute.drawing``).

Each picture goes as a new upload with every answer or edit that shows it: an edit's
``attachments`` replaces the message's, so a board has one picture, its newest. An upload
Discord refuses (too large, a 5xx, a 429) or may not take (no Attach Files) leaves the emoji
board to show instead (``refused_upload``).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.compute import drawing
from bot.discord_ui.board import BoardView
from bot.games.kinds.base import TEXT_DISPLAY
from bot.games.record import GameRecord
from bot.pictures.words import alt_text, replay_alt

MEDIA_GALLERY = 12  # a Components V2 media gallery
BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"
TOO_LARGE = 40005  # Discord's code for an upload over the limit (HTTP 413)
MISSING_PERMISSIONS = 50013  # Discord's code for a call the bot lacks a permission for


def gallery(filename: str, alt: str) -> dict[str, Any]:
    """The media gallery item showing the attachment `filename`, described by `alt`."""
    item = {"media": {"url": f"attachment://{filename}"}, "description": alt}
    return {"type": MEDIA_GALLERY, "items": [item]}


def attachment(filename: str, data: bytes, alt: str) -> discord.File:
    """A new upload of `data` (a ``discord.File`` is read once: one for each call)."""
    return discord.File(io.BytesIO(data), filename=filename, description=alt)


def captioned(
    words: str, filename: str, alt: str, *, below: list[dict[str, Any]] | None = None
) -> BoardView:
    """A message of `words` above a picture (and the components `below` it)."""
    parts = [{"type": TEXT_DISPLAY, "content": words}, gallery(filename, alt)]
    return BoardView(parts + (below or []))


@dataclass(frozen=True, slots=True)
class Drawn:
    """A board message ready to go: its layout, and its picture where it has one (`data`, PNG,
    shown through the layout's gallery as `BOARD_FILE`); `fallback`: the same board with emoji,
    made when the picture cannot go (rarely: not made otherwise), on a board of the picture
    style."""

    view: discord.ui.LayoutView
    data: bytes | None = None
    alt: str = ""
    fallback: Callable[[], discord.ui.LayoutView] | None = None
    note: Any = None  # what to tell the clicker privately once it is shown (a ``Text``)

    def send(self) -> dict[str, Any]:
        """The keywords of a new message (``send_message``)."""
        if self.data is None:
            return {"view": self.view}
        return {"view": self.view, "files": [attachment(BOARD_FILE, self.data, self.alt)]}

    def edit(self) -> dict[str, Any]:
        """The keywords of an edit: the picture replaces the message's attachments; a board of
        the picture style shown with emoji drops its old picture."""
        if self.data is not None:
            return {"view": self.view, "attachments": [attachment(BOARD_FILE, self.data, self.alt)]}
        return (
            {"view": self.view, "attachments": []}
            if self.fallback is not None
            else {"view": self.view}
        )

    def plain(self) -> Drawn:
        """The same board with emoji, no picture (itself when it has none)."""
        if self.fallback is None or self.data is None:
            return self
        return Drawn(self.fallback(), None, "", self.fallback)


def refused_upload(error: BaseException) -> bool:
    """Whether Discord refused a message for its upload or could not take it now: too large
    (413), its own trouble (5xx), a rate limit (429), no Attach Files (50013)."""
    if not isinstance(error, discord.HTTPException):
        return False
    return (
        error.status in (413, 429)
        or error.status >= 500
        or error.code == TOO_LARGE
        or error.code == MISSING_PERMISSIONS
    )


async def game_files(game: GameRecord, locale: str | None) -> list[discord.File]:
    """A game's board as it ended (or is now) and its replay, as attachments."""
    png = await drawing.board(game)
    gif = await drawing.replay(game)
    return [
        discord.File(io.BytesIO(png), f"game-{game.id}.png", description=alt_text(game, locale)),
        discord.File(
            io.BytesIO(gif), f"game-{game.id}-replay.gif", description=replay_alt(game, locale)
        ),
    ]
