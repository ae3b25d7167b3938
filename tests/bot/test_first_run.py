"""A person's first run of tictactoe-bot: help, version, the token's place, Discord out of reach."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]


def tictactoe_bot(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGV` in a folder of its own, with no setting in the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        cwd=cwd,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_answers_and_starts_nothing(tmp_path: Path) -> None:
    """--help: usage with the commands, exit 0, no word about a missing token."""
    done = tictactoe_bot("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: tictactoe-bot")
    assert "playground" in done.stdout and "run" in done.stdout
    assert done.stderr == ""


def test_version_answers(tmp_path: Path) -> None:
    """--version: the name and version on one line, exit 0."""
    done = tictactoe_bot("--version", cwd=tmp_path)
    assert done.returncode == 0
    name, version = done.stdout.split()
    assert name == "tictactoe-bot" and version[0].isdigit()


def test_an_unknown_option_is_refused_without_starting(tmp_path: Path) -> None:
    """A mistyped option: exit 2 with the usage, not a start of the bot."""
    done = tictactoe_bot("--hepl", cwd=tmp_path)
    assert done.returncode == 2
    assert "unrecognized arguments: --hepl" in done.stderr
    assert "DISCORD_TOKEN" not in done.stderr


def test_empty_token_in_dotenv_is_told_apart_from_no_dotenv(tmp_path: Path) -> None:
    """No .env, a .env without the line, and DISCORD_TOKEN= with nothing after: three answers."""
    env_file = tmp_path / ".env"
    with pytest.raises(ConfigError) as no_file:
        load_settings({}, env_file=None)
    env_file.write_text("LOG_LEVEL=INFO\n")
    with pytest.raises(ConfigError) as no_line:
        load_settings({}, env_file=env_file)
    env_file.write_text("DISCORD_TOKEN=\n")
    with pytest.raises(ConfigError) as empty:
        load_settings({"DISCORD_TOKEN": ""}, env_file=env_file)
    assert "there is no .env in this folder" in str(no_file.value)
    assert "tictactoe-bot playground" in str(no_file.value)
    assert ".env has no DISCORD_TOKEN line" in str(no_line.value)
    assert "DISCORD_TOKEN is empty in .env" in str(empty.value)


def test_empty_token_in_dotenv_says_so_on_one_line(tmp_path: Path) -> None:
    """The user copied .env.example and left the token out: one line, exit 2."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nLOG_LEVEL=INFO\n")
    done = tictactoe_bot(cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tictactoe-bot: DISCORD_TOKEN is empty in .env: paste your bot's token after "
        "DISCORD_TOKEN= (Discord developer portal -> your application -> Bot -> Reset Token)"
    ]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A server that takes the connection and never answers (a proxy or firewall gone quiet)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    done.set()
    thread.join()
    for sock in held:
        sock.close()
    listener.close()


# The bot as `python -m bot` starts it, with discord.py's address for Discord replaced.
START_AGAINST = """
import sys, discord, bot.client
from bot.__main__ import main
discord.http.Route.BASE = sys.argv[1]
bot.client.FIRST_CONTACT_TIMEOUT = 2.0
raise SystemExit(main([]))
"""


@pytest.mark.parametrize("where", ["refused", "no such host", "no answer"])
def test_discord_out_of_reach_is_one_line_exit_1(
    where: str, silent_server: int, tmp_path: Path
) -> None:
    """Nothing listening, a name that does not resolve, a server that never answers: one line
    saying Discord could not be reached and what to check, exit 1, no traceback, and no voice
    warnings before it."""
    base = {
        "refused": f"http://127.0.0.1:{_closed_port()}/api/v10",
        "no such host": "http://discord.invalid/api/v10",
        "no answer": f"http://127.0.0.1:{silent_server}/api/v10",
    }[where]
    env = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "DISCORD_GUILD_ID")}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "ENGINE_WORKERS": "1"}
    env["DATABASE_PATH"] = str(tmp_path / "games.db")
    done = subprocess.run(
        [sys.executable, "-c", START_AGAINST, base],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    err = done.stderr
    assert done.returncode == 1, err
    assert "Traceback" not in err
    assert "voice will NOT be supported" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("tictactoe-bot: could not reach Discord (")
    assert "internet connection, DNS and any firewall or proxy" in last
    assert {"refused": "connection refused", "no answer": "no answer in 2 s"}.get(where, "") in last
    assert TOKEN not in err
