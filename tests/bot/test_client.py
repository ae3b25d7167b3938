"""The bot once connected: the invite link it logs, with the scopes and permissions it needs."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
import simcord

from bot.client import create_bot
from bot.config import Settings

# What a board in a channel needs, and nothing more (no administrator, no embeds).
NEEDED = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
)


async def test_the_invite_link_is_logged_on_ready(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """One log line with the OAuth2 link: this application, both scopes, the permissions."""
    bot = create_bot(settings)
    try:
        with caplog.at_level(logging.INFO, logger="bot.client"):
            async with simcord.run(bot):
                assert bot.user is not None
                application_id = bot.application_id or bot.user.id
    finally:
        await bot.release()

    lines = [r.getMessage() for r in caplog.records if "invite" in r.getMessage()]
    assert len(lines) == 1
    url = lines[0][lines[0].index("https://") :]
    parts = urlsplit(url)
    assert (parts.netloc, parts.path) == ("discord.com", "/oauth2/authorize")
    query = parse_qs(parts.query)
    assert query["client_id"] == [str(application_id)]
    assert sorted(query["scope"][0].split()) == ["applications.commands", "bot"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == NEEDED
    assert not granted.administrator
