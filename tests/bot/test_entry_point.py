"""The app with Activities enabled, through the real bot process and the local Discord: its Entry
Point command survives the bot's command sync, start after start, and running it gets one private
answer (the Activity does not exist yet) and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from devkit.local_game import LocalBot, Table
from devkit.localdiscord import FakeDiscord
from devkit.localdiscord.commands import APP_HANDLER, PRIMARY_ENTRY_POINT
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


async def test_the_entry_point_command_stays_the_same_through_two_starts(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The bot syncs its commands at each start and the app's Entry Point command is still there
    afterwards, the same one: its id, name, handler and localizations unchanged."""
    entry = local_discord.enable_activities(name_localizations={"fr": "lancer"})
    bot = LocalBot(local_discord, tmp_path)
    try:
        for _ in range(2):
            await bot.start()
            await bot.stop()
            assert local_discord.entry_point == entry
            assert {"tictactoe", "tictactoe-stats"} <= local_discord.commands.keys()
    finally:
        await bot.stop()


@pytest.mark.parametrize(
    ("name", "locale", "word"), [("launch", "en-US", "Activity"), ("tictactoe", "fr", "Activité")]
)
async def test_the_entry_point_command_gets_one_private_answer(
    local_discord: FakeDiscord, tmp_path: Path, name: str, locale: str, word: str
) -> None:
    """Run from the App Launcher (the app answering it), the Entry Point command gets one private
    answer, in the user's language, and the bot logs no traceback: named "launch" as Discord
    names it, or as the bot's slash command (names are unique per type only)."""
    local_discord.enable_activities(handler=APP_HANDLER, name=name)
    guild = local_discord.create_guild("club")
    games = guild.create_text_channel("games")
    alice = guild.add_member(local_discord.create_user("alice"))
    bot = LocalBot(local_discord, tmp_path)
    table = Table(local_discord)
    try:
        await bot.start()
        iid = await local_discord.launch(alice, games, locale=locale)
        assert iid is not None
        answered = await table.answered(iid)
        assert answered.timing.ack_type == 4 and answered.timing.ephemeral
        assert len(answered.answers) == 1 and answered.followups == 0
        assert word in table.private(answered)
        assert local_discord.launches == []
    finally:
        await bot.stop()
    assert local_discord.entry_point is not None
    assert local_discord.entry_point["type"] == PRIMARY_ENTRY_POINT
