"""The bot once connected: its commands synced, and the invite link with what the bot needs."""

from __future__ import annotations

import gc
import logging
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
import simcord
from simcord import Env

from bot.assembly import create_bot
from bot.client import GC_THRESHOLDS
from bot.config import Settings, version

# What a board in a channel needs, and for boards moved by reactions adding them and removing
# the ones read; nothing more (no administrator, no embeds).
NEEDED = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    manage_messages=True,
    create_public_threads=True,
)


async def test_the_invite_link_is_logged_on_ready(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """Two log lines with the OAuth2 links: to a server (this application, both scopes, the
    permissions), and to a person's account (user install, commands only)."""
    bot = create_bot(settings)
    try:
        with caplog.at_level(logging.INFO, logger="bot.client"):
            async with simcord.run(bot):
                assert bot.user is not None
                application_id = bot.application_id or bot.user.id
    finally:
        await bot.release()

    started = [r.getMessage() for r in caplog.records if "logged in as" in r.getMessage()]
    assert started and started[0].startswith(f"tictactoe {version()}: logged in as")
    lines = [r.getMessage() for r in caplog.records if "invite link" in r.getMessage()]
    assert len(lines) == 2
    url = lines[0][lines[0].index("https://") :]
    assert "add to a server" in lines[0] and "add to my account" in lines[1]
    mine = parse_qs(urlsplit(lines[1][lines[1].index("https://") :]).query)
    assert mine["client_id"] == [str(application_id)] and mine["integration_type"] == ["1"]
    assert mine["scope"] == ["applications.commands"] and "permissions" not in mine
    parts = urlsplit(url)
    assert (parts.netloc, parts.path) == ("discord.com", "/oauth2/authorize")
    query = parse_qs(parts.query)
    assert query["client_id"] == [str(application_id)]
    assert sorted(query["scope"][0].split()) == ["applications.commands", "bot"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == NEEDED
    assert not granted.administrator


def options_of(command: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A synced command's options, by name."""
    return {option["name"]: option for option in command.get("options", [])}


async def test_commands_are_synced_globally_at_start_with_described_options(
    simcord_env: Env,
) -> None:
    """/tictactoe reaches Discord with every option described and the fixed ones as choices."""
    synced = {c["name"]: c for c in simcord_env.backend.commands.get(None, {}).values()}

    assert {"tictactoe", "tictactoe-stats"} <= set(synced)
    command = synced["tictactoe"]
    assert command["description"]
    options = options_of(command)
    assert set(options) == {
        "opponent",
        "difficulty",
        "first",
        "size",
        "win_length",
        "variant",
        "style",
    }
    assert all(option["description"] for option in options.values())
    assert not any(option.get("required") for option in options.values())
    choices = {name: [c["value"] for c in o.get("choices", [])] for name, o in options.items()}
    assert choices["difficulty"] == ["easy", "medium", "hard", "unbeatable"]
    assert choices["first"] == ["me", "opponent", "random"]
    assert choices["size"] == [3, 4, 5]
    assert choices["variant"] == ["classic", "ultimate"]
    assert choices["style"] == ["emoji", "picture"]
    assert (options["win_length"]["min_value"], options["win_length"]["max_value"]) == (3, 5)
    assert 1 in command.get("contexts", [])  # usable in the bot's DM


async def test_games_and_stats_can_be_installed_to_an_account_settings_only_to_a_server(
    simcord_env: Env,
) -> None:
    """/tictactoe and /tictactoe-stats: server and user installs (integration types 0 and 1),
    in servers, the bot's DM and private channels (contexts 0, 1 and 2); /tictactoe-settings
    and the leaderboard: server installs, in servers only."""
    synced = {c["name"]: c for c in simcord_env.backend.commands.get(None, {}).values()}
    for name in ("tictactoe", "tictactoe-stats"):
        assert sorted(synced[name]["integration_types"]) == [0, 1], name
        assert sorted(synced[name]["contexts"]) == [0, 1, 2], name
    for name in ("tictactoe-settings", "tictactoe-leaderboard"):
        assert synced[name]["integration_types"] == [0], name
        assert synced[name]["contexts"] == [0], name


async def test_with_a_development_server_the_commands_are_synced_there(
    simcord_env: Env, make_bot
) -> None:
    """DISCORD_GUILD_ID set: the commands appear in that server at once (a guild sync)."""
    guild = simcord_env.create_guild()
    await simcord_env.bot.release()
    await simcord_env.restart_bot(make_bot(guild_id=guild.id))

    synced = {c["name"] for c in simcord_env.backend.commands.get(guild.id, {}).values()}
    assert "tictactoe" in synced


async def test_a_long_lived_bot_freezes_its_start_up_heap_once_ready(settings: Settings) -> None:
    """With freeze_heap (the bot's own start), what start-up built is frozen out of the
    collector's reach once the bot is ready and the collector's thresholds are the bot's; a bot
    built without it (tests) changes neither."""
    plain = create_bot(settings)
    frozen = create_bot(settings, freeze_heap=True)
    python_own = gc.get_threshold()
    assert python_own != GC_THRESHOLDS
    try:
        async with simcord.run(plain):
            assert gc.get_freeze_count() == 0 and gc.get_threshold() == python_own
        async with simcord.run(frozen):
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == GC_THRESHOLDS
            assert frozen.freeze_heap is False  # once only
    finally:
        gc.unfreeze()
        gc.set_threshold(*python_own)
        await plain.release()
        await frozen.release()
