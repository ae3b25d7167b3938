"""Ctrl-C and SIGTERM stop the bot cleanly: every process ends, no traceback, exit code 0, and
the change in flight is saved and shown first.

The bot runs as a person runs it (``python -m bot``'s ``main``, devkit/local_bot.py) in
a process group of its own, against the local Discord of devkit/localdiscord/; its
engine runs in worker processes started by a forkserver, as always.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.assembly import sqlite_store
from bot.games.record import Status
from devkit.local_game import WAIT, buttons, until
from devkit.localdiscord import TOKEN, FakeDiscord
from tests.bot.test_kill import ROOT, group_members


def marks(message: dict[str, Any]) -> int:
    """How many cells of a board message show a mark (an empty one shows ⬜)."""
    cells = [b for b in buttons(message["components"]) if b["custom_id"].split(":")[-1].isdigit()]
    return sum((b.get("emoji") or {}).get("name") in ("❌", "⭕") for b in cells)


async def start(
    tmp_path: Path, discord: FakeDiscord | None = None
) -> tuple[FakeDiscord, subprocess.Popen[bytes], Any]:
    """A local Discord with Alice in #games, and the bot started against it in a process group
    of its own (as a terminal starts it); its output goes to a file."""
    if discord is None:
        discord = FakeDiscord()
    guild = discord.create_guild("home")
    guild.create_text_channel("games")
    guild.add_member(discord.create_user("alice"))
    await discord.start()
    db = tmp_path / "games.db"
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(db), LOG_LEVEL="INFO")
    log = (tmp_path / "bot.log").open("w+")
    bot = subprocess.Popen(
        [sys.executable, "-m", "devkit.local_bot", str(discord.port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return discord, bot, log


async def end(
    discord: FakeDiscord, bot: subprocess.Popen[bytes], log: Any, *, then: Any = None
) -> str:
    """Wait for the signalled bot and all its processes to end (then call `then`); its output."""
    try:
        give_up = time.monotonic() + WAIT
        while bot.poll() is None and time.monotonic() < give_up:
            await asyncio.sleep(0.05)
        await until(lambda: not group_members(bot.pid), "every process of the bot to end")
    finally:
        if then is not None:
            then()
        if bot.poll() is None or group_members(bot.pid):
            os.killpg(bot.pid, signal.SIGKILL)
            bot.wait()
        await discord.close()
        log.seek(0)
        output = str(log.read())
        log.close()
    return output


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from /proc"
)


@needs_proc
@pytest.mark.parametrize(
    ("ending", "to_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, True), (signal.SIGTERM, False)],
    ids=["Ctrl-C to the group", "SIGTERM to the group", "SIGTERM to the bot"],
)
async def test_a_signal_stops_every_process_cleanly_after_the_move_in_flight(
    tmp_path: Path, ending: signal.Signals, to_group: bool
) -> None:
    """A 5x5 move against the bot is answered, the bot is about to reply, the signal comes:
    the reply is saved and shown, then every process ends; exit code 0, no traceback."""
    discord, bot, log = await start(tmp_path)
    guild = next(iter(discord.guilds.values()))
    channel = next(iter(guild.channels.values()))
    alice = next(iter(guild.members.values()))
    try:
        await until(lambda: discord.synced.is_set() and discord.connected.is_set(), "login")
        started = await discord.slash(alice, channel, "tictactoe", size=5)
        await until(lambda: discord.interactions[started].message_id, "the board")
        board = discord.messages[discord.interactions[started].message_id or 0]
        game_id = int(next(buttons(board["components"]))["custom_id"].split(":")[1])
        click = await discord.click("move", alice, channel, int(board["id"]), f"ttt:{game_id}:12")
        await until(lambda: discord.interactions[click].answered, "the move shown")

        (os.killpg if to_group else os.kill)(bot.pid, ending)
    finally:
        output = await end(discord, bot, log)

    assert bot.returncode == 0, output
    assert "Traceback" not in output and " ERROR " not in output, output
    assert f"{ending.name}: finishing the changes in flight" in output
    assert marks(board) == 2  # Alice's move and the bot's reply, both shown
    store = sqlite_store(tmp_path / "games.db")
    await store.open()
    try:
        game = await store.load_game(game_id)
    finally:
        await store.close()
    assert game is not None and game.status is Status.ACTIVE
    assert len(game.moves) == 2 and game.moves[0] == 12


@needs_proc
@pytest.mark.parametrize("ending", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
async def test_a_signal_during_start_up_stops_every_process_cleanly(
    tmp_path: Path, ending: signal.Signals
) -> None:
    """The signal comes while the bot is still starting (its commands being synced, the engine
    processes up): the start stops, every process ends, exit code 0, no traceback."""
    discord = FakeDiscord()
    syncing, answer = asyncio.Event(), asyncio.Event()
    real_sync = discord._put_global_commands

    async def held_sync(request: Any) -> Any:
        syncing.set()
        await asyncio.wait_for(answer.wait(), WAIT)  # not answered before the bot has ended
        return await real_sync(request)

    discord._put_global_commands = held_sync  # type: ignore[method-assign]
    discord, bot, log = await start(tmp_path, discord)
    try:
        await until(syncing.is_set, "the command sync")
        os.killpg(bot.pid, ending)
    finally:
        output = await end(discord, bot, log, then=answer.set)

    assert bot.returncode == 0, output
    assert "Traceback" not in output and " ERROR " not in output, output
    assert f"{ending.name} during start-up: stopping" in output
