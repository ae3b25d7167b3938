"""SIGKILL while the bot's own move waits for a stopped PostgreSQL server: after the server and
a new bot start, the player's move is stored and the bot makes the move it owed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import simcord

from bot.assembly import create_bot, postgres_store
from bot.config import Settings
from devkit.postgres import PgServer

ROOT = Path(__file__).resolve().parents[2]


async def test_a_kill_while_the_bots_move_waits_loses_nothing(
    postgres_server: PgServer, postgres_url: str
) -> None:
    """The player's move was saved and shown; the bot's was not yet: it is made after the
    restart, once, and nothing else changed."""
    server = postgres_server
    driver = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "devkit.kill_driver",
            "outage",
            postgres_url,
            str(server.data),
            str(server.port),
            server.user or "",
            str(server.bin),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group: the kill takes its engine workers too
    )
    try:
        assert driver.stdout is not None
        assert driver.stdout.readline().strip() == "PENDING"
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
        server.start()
    store = postgres_store(postgres_url)
    await store.open()
    try:
        killed = await store.load_game(1)  # as the kill left it: the player's move only
    finally:
        await store.close()
    assert killed is not None and killed.moves == (12,)
    settings = Settings(
        token="simulated.bot.token",
        database_path=Path(tempfile.mkdtemp()) / "unused.db",
        database_url=postgres_url,
        engine_workers=1,
    )
    bot = create_bot(settings)
    try:
        stored = None
        async with simcord.run(bot, check_errors=False) as env:
            await env.settle()
            stored = await bot.store.load_game(1)
        assert stored is not None and stored.moves[0] == 12
        assert len(stored.moves) == 2  # the bot's owed move, made once after the restart
    finally:
        await bot.release()
