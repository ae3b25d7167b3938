"""Start-up: a bad or missing setting, or a rejected token, ends with one line and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.support.discord_http import discord_answering

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]
SETTINGS = (
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "LOG_LEVEL",
    "CHALLENGE_TIMEOUT",
    "TURN_TIMEOUT",
    "CHALLENGE_COOLDOWN",
    "DATABASE_PATH",
    "ENGINE_WORKERS",
)


def run_bot(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in a folder of its own, with only the given settings."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_is_one_line_exit_2(tmp_path: Path) -> None:
    """No token at all: exit code 2, one line saying where to put it, no traceback."""
    done = run_bot(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert ".env" in lines[0]


def test_bad_value_in_dotenv_names_the_setting(tmp_path: Path) -> None:
    """Settings are read from .env too; a bad one is named, and the token never printed."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nTURN_TIMEOUT=forever\n")
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tictactoe-bot: TURN_TIMEOUT must be a number of seconds, not 'forever'"
    ]
    assert TOKEN not in done.stdout + done.stderr


@pytest.fixture
def discord_rejecting_tokens(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """discord.py's real login path, pointed at a local server that answers 401 everywhere."""
    unauthorized = (401, {"message": "401: Unauthorized", "code": 0})
    with discord_answering(monkeypatch, {}, otherwise=unauthorized):
        yield


def test_rejected_token_is_one_line_exit_1(
    discord_rejecting_tokens: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """A token Discord refuses: exit code 1, one line on what to do, the token nowhere."""
    monkeypatch.chdir(tmp_path)
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "games.db"))
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    code = main([])
    out, err = capfd.readouterr()
    assert code == 1
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("tictactoe-bot: Discord rejected DISCORD_TOKEN")
    assert TOKEN not in out + err
