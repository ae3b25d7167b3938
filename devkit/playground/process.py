"""The playground as a person starts it: its own process, its address read from what it prints;
and the browser its page is played in (Debian's Chromium)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
READY = "Ctrl-C stops it."  # the last line of what it prints once ready
START_TIMEOUT = 90.0  # seconds; a cold start on a busy two-core machine takes several


NO_CHROMIUM = "Chromium is not installed: apt-get install chromium"


def chromium() -> str | None:
    """Debian's Chromium, the browser the page is played in (None: not installed)."""
    return shutil.which("chromium")


def _default_sigint() -> None:
    # A shell starts background jobs with Ctrl-C ignored; a person's terminal does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class Playground:
    """A running playground: its process, its address, and everything it printed."""

    process: subprocess.Popen[str]
    url: str = ""
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)

    def stop(self, how: signal.Signals = signal.SIGINT) -> int:
        """Ctrl-C, as in a terminal (to the whole process group), or SIGTERM to the playground
        alone (as `kill` does); then wait for it to end."""
        if self.process.poll() is None:
            if how == signal.SIGINT:
                os.killpg(self.process.pid, how)
            else:
                self.process.send_signal(how)
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)


def _collect(stream: IO[str], lines: list[str], found: threading.Event | None) -> None:
    for line in stream:
        lines.append(line)
        if found is not None and READY in line:
            found.set()


def start_playground(*options: str, cwd: Path) -> Playground:
    """`python -m bot.playground` in a process group of its own; returns once it is ready."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.playground", *options],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    playground = Playground(process)
    found = threading.Event()
    assert process.stdout is not None and process.stderr is not None
    readers: list[Any] = [
        threading.Thread(target=_collect, args=(process.stdout, playground.out, found)),
        threading.Thread(target=_collect, args=(process.stderr, playground.err, None)),
    ]
    for reader in readers:
        reader.daemon = True
        reader.start()
    if not found.wait(START_TIMEOUT):
        playground.stop()
        raise AssertionError(
            f"the playground printed no URL: {''.join(playground.out + playground.err)}"
        )
    match = URL.search("".join(playground.out))
    assert match is not None
    playground.url = match.group(0)
    return playground
