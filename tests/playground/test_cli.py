"""Starting and stopping the playground as a person does, in a terminal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from devkit.playground.process import ROOT, Playground


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_it_prints_its_address_and_stops_cleanly(
    how: signal.Signals, launch: Callable[..., Playground]
) -> None:
    """The URL on 127.0.0.1, a word that only this machine can reach it; Ctrl-C or SIGTERM: one
    line, exit 0, no traceback from any process, no engine process left behind."""
    playground = launch()
    printed = "".join(playground.out)
    assert playground.url.startswith("http://127.0.0.1:")
    assert "127.0.0.1 only" in printed and "loopback" in printed
    assert "temporary database" in printed

    code = playground.stop(how)

    assert code == 0
    err = "".join(playground.err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "".join(playground.out).rstrip().endswith("Playground stopped.")
    assert _group_ends(playground.process.pid, within=10.0), "an engine process outlived it"


def _group_ends(group: int, *, within: float) -> bool:
    """True once no process of the group is left (the engine's follow their parent out)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_named_database_keeps_the_games(
    launch: Callable[..., Playground], tmp_path: Path
) -> None:
    """--database FILE: the SQLite file is created there and still there after the stop."""
    database = tmp_path / "kept" / "games.db"
    playground = launch("--database", str(database))
    assert f"Games are kept in {database}" in "".join(playground.out)
    assert playground.stop() == 0
    assert database.is_file() and database.stat().st_size > 0


def test_a_bad_option_is_one_line_exit_2(tmp_path: Path) -> None:
    """A bad value is named in one error line after the usage; nothing starts."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.playground", "--turn-timeout", "forever"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert errors == [
        "tictactoe-bot playground: error: argument --turn-timeout: "
        "'forever' is not a number of seconds"
    ]
    assert done.stdout == ""


def test_a_port_in_use_is_one_line_exit_1(tmp_path: Path) -> None:
    """--port with a port already taken on 127.0.0.1: one line naming it, exit 1."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot.playground", "--port", str(port)],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"tictactoe-bot playground: port {port} on 127.0.0.1 is in use: pick another --port"
    ]
