"""A real PostgreSQL server for the tests: a fresh cluster on 127.0.0.1, started once per run.

Uses the server programs of Debian's ``postgresql`` package (``/usr/lib/postgresql/*/bin``) or
those on PATH. As root, ``initdb`` and ``pg_ctl`` refuse to run, so they run as the ``postgres``
user on a data folder it owns. ``fsync`` is off: the tests never pull the power plug.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class NoServer(RuntimeError):
    """PostgreSQL's server programs are not installed here."""


def server_bin() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise NoServer("PostgreSQL is not installed (apt-get install postgresql)")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    """A running server: its folder, port, and how to stop it."""

    bin: Path
    data: Path
    port: int
    user: str | None  # the system user the server runs as, when started by root

    @property
    def admin_url(self) -> str:
        """The URL of the maintenance database."""
        return self.url("postgres")

    def url(self, database: str) -> str:
        """The URL of one database on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run one server program (as the server's user)."""
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)

    def start(self) -> None:
        """Start (or restart after stop) the server and wait until it accepts connections."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c fsync=off "
            "-c full_page_writes=off -c unix_socket_directories='' "
            "-c max_connections=200"
        )
        log = self.data / "server.log"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(log), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate`` is a crash: no shutdown checkpoint)."""
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")


def start_server() -> PgServer:
    """Create a cluster in a temporary folder and start it; raises NoServer if not installed."""
    bin_dir = server_bin()
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="tictactoe-pg-"))
    data = base / "data"
    data.mkdir()
    user = "postgres" if root else None
    if user is not None:
        shutil.chown(base, user)
        shutil.chown(data, user)
    server = PgServer(bin=bin_dir, data=data, port=free_port(), user=user)
    server.run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N")
    server.start()
    return server


def remove(server: PgServer) -> None:
    """Stop the server and delete its folder."""
    with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
        server.stop("immediate")
    shutil.rmtree(server.data.parent, ignore_errors=True)
