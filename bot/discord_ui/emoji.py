"""Whether a server's chosen mark is an emoji the bot can show, and why not in one line.

A Unicode emoji always can be. A custom emoji can be when it is one of that server's (from the
gateway's cache) that the bot may use (available, and not kept for roles the bot lacks), or one
of the application's own emojis (asked of Discord once per change).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games import look as looks
from bot.i18n import N_, Text

log = logging.getLogger(__name__)

SAME = N_("X, O and the empty cell need three different marks: choose another one.")


async def refuse_mark(text: str, interaction: discord.Interaction[Any]) -> Text | None:
    """Why `text` cannot be a mark of this server's boards, or None when it can."""
    parts = looks.custom_parts(text)
    if parts is None:
        if looks.is_mark(text):
            return None
        return N_(
            "{emoji} is not an emoji I know. Give one Unicode emoji, or a custom emoji of this "
            "server or of mine.",
            emoji=f"`{text[:40]}`",
        )
    emoji_id = parts[0]
    guild = interaction.guild
    found = guild.get_emoji(emoji_id) if guild is not None else None
    if found is not None and found.is_usable():
        return None
    if found is not None and found.available and found.roles:
        return N_(
            "I can't use {emoji}: this server keeps it for roles I don't have. Give me one of "
            "them, or choose another emoji.",
            emoji=f"`{text}`",
        )
    if await _application_emoji(interaction.client, emoji_id):
        return None
    return N_(
        "I can't show {emoji}: it is neither one of this server's emojis nor one of mine. "
        "Choose one of those, or a Unicode emoji.",
        emoji=f"`{text}`",
    )


async def _application_emoji(client: discord.Client, emoji_id: int) -> bool:
    """Whether `emoji_id` is one of the application's own emojis (False if Discord won't say)."""
    try:
        emojis = await client.fetch_application_emojis()
    except discord.HTTPException as exc:
        log.warning("could not list the application's emojis: %s", exc)
        return False
    return any(emoji.id == emoji_id for emoji in emojis)
