"""A corrupt database file stops the start with one clear line: from the bot's own start, and
from `python -m bot` (no traceback)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import simcord

from bot.__main__ import main
from bot.assembly import create_bot
from bot.config import Settings
from bot.storage.base import StorageError
from tests.bot.test_startup import SETTINGS
from tests.support.discord_http import Answer, discord_answering

# Discord's login answers for a valid token: who the bot is, and its application.
LOGIN: dict[str, Answer] = {
    "/users/@me": (
        200,
        {"id": "1001", "username": "tictactoe", "discriminator": "0", "avatar": None, "bot": True},
    ),
    "/oauth2/applications/@me": (
        200,
        {
            "id": "1001",
            "name": "tictactoe",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": {"id": "7", "username": "owner", "discriminator": "0", "avatar": None},
        },
    ),
}


async def test_a_corrupt_database_stops_the_start_with_a_clear_error(tmp_path: Path) -> None:
    """Garbage in the database file: the start fails with one line naming the file."""
    db = tmp_path / "games.db"
    db.write_bytes(b"this is not a database, just some bytes" * 200)
    bot = create_bot(Settings(token="simulated.bot.token", database_path=db, engine_workers=1))
    try:
        with pytest.raises(StorageError) as caught:
            async with simcord.run(bot):
                pass
    finally:
        await bot.release()
    message = str(caught.value)
    assert str(db) in message and "\n" not in message
    assert db.read_bytes().startswith(b"this is not a database")  # nothing overwritten


def test_python_m_bot_on_a_corrupt_database_exits_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The entry point logs in, cannot open the database, and says so in one line (exit 1)."""
    db = tmp_path / "games.db"
    db.write_bytes(b"this is not a database, just some bytes" * 200)
    monkeypatch.chdir(tmp_path)
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "simulated.bot.token")
    monkeypatch.setenv("DATABASE_PATH", str(db))
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        with discord_answering(monkeypatch, LOGIN, otherwise=(404, {"message": "404: Not Found"})):
            code = main([])
    finally:
        root.handlers[:], root.level = handlers, level  # main() configures the root logger
    out, err = capfd.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tictactoe-bot: cannot use the database:")
    assert str(db) in lines[0] and "corrupt" in lines[0]
