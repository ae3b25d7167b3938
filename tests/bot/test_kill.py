"""SIGKILL in the middle of games: after a restart every game is exactly as shown, or one move on.

A real bot process (devkit/kill_driver.py play: the real bot and discord.py, SimCord for
Discord, a real SQLite file) plays several games and prints every board its players saw.
The test kills it with SIGKILL at an arbitrary moment, then checks the file and starts a new bot
on it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import simcord

import engine
from bot.assembly import create_bot, sqlite_store
from bot.client import TicTacToeBot
from bot.config import Settings
from bot.games.record import GameRecord, Status

ROOT = Path(__file__).resolve().parents[2]
GAMES = 6


def play_and_kill(db: Path, moves: int) -> dict[int, list[str | None]]:
    """Run the driver until it has shown `moves` moves, SIGKILL it, return the boards seen."""
    driver = subprocess.Popen(
        [sys.executable, "-m", "devkit.kill_driver", "play", str(db), str(GAMES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group: the kill takes its engine workers too
    )
    seen: dict[int, list[str | None]] = {}
    try:
        assert driver.stdout is not None
        for line in driver.stdout:
            if line.startswith("{"):
                shown = json.loads(line)
                seen[shown["game"]] = shown["board"]
                moves -= 1
                if moves == 0:
                    break
    finally:
        # SIGKILL to the whole group: the bot and its engine processes die at the same instant
        # (alone, they would follow it within moments: see the last test).
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
    assert moves == 0, "the driver stopped before enough moves were shown"
    assert driver.returncode == -signal.SIGKILL
    return seen


def marks(game: GameRecord) -> list[str | None]:
    """The board a stored game stands for (and proof that its moves are a legal game)."""
    board = engine.Board.from_moves(game.moves, size=game.size, k=game.k)
    return [{"X": "X", "O": "O"}.get(board.to_string().replace("/", "")[i]) for i in range(9)]


@pytest.mark.parametrize("moves", [15, 40, 90])
async def test_sigkill_mid_game_loses_no_shown_move(tmp_path: Path, moves: int) -> None:
    """Killed at any moment: no corruption, nothing shown is lost, at most the move in flight."""
    db = tmp_path / "games.db"
    seen = play_and_kill(db, moves)

    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    store = sqlite_store(db)
    await store.open()
    try:
        stored = {game_id: await store.load_game(game_id) for game_id in seen}
        live_before = {g.id: g for g in await store.live_games()}
    finally:
        await store.close()

    for game_id, board in seen.items():
        game = stored[game_id]
        assert game is not None, f"game {game_id} was shown but is not stored"
        now = marks(game)
        extra = [i for i in range(9) if now[i] != board[i]]
        # Every shown mark is stored; beyond that only the move in flight (and the bot's reply).
        assert all(board[i] is None for i in extra), (game_id, board, now)
        assert len(extra) <= (2 if game.vs_bot else 1), (game_id, board, now)
    assert live_before, "the kill should leave games in progress"

    # A new bot process on the same file picks every live game up.
    settings = Settings(token="simulated.bot.token", database_path=db, engine_workers=1)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            assert isinstance(env.bot, TicTacToeBot)
            cog = env.bot.get_cog("GameCog")
            assert cog is not None
            loaded = {g.id: g for g in cog.live.games.live()}
            for game_id, before in live_before.items():
                after = loaded.get(game_id) or await env.bot.store.load_game(game_id)
                assert after is not None
                assert after.moves[: len(before.moves)] == before.moves
                # Only the bot may have moved since: it resumes a reply it owed.
                assert len(after.moves) - len(before.moves) <= (1 if before.vs_bot else 0)
                if after.status is not Status.FINISHED:
                    assert game_id in loaded
    finally:
        await bot.release()


def group_members(group: int) -> set[int]:
    """The live processes of a process group (read from /proc)."""
    members = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended while we looked
            if int(fields[2]) == group and fields[0] != "Z":
                members.add(int(entry.name))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_the_engine_processes_end_with_a_killed_bot(tmp_path: Path) -> None:
    """SIGKILL to the bot alone: its forkserver, engine worker and helpers end by themselves."""
    driver = subprocess.Popen(
        [sys.executable, "-m", "devkit.kill_driver", "play", str(tmp_path / "g.db"), "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert driver.stdout is not None
        for line in driver.stdout:
            if line.startswith("{"):
                break  # playing: the engine's processes are up
        helpers = group_members(driver.pid) - {driver.pid}
        assert helpers, "the bot started no engine processes"
        os.kill(driver.pid, signal.SIGKILL)  # the bot only, not its group
        driver.wait(timeout=30)
        deadline = time.monotonic() + 20
        while group_members(driver.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert group_members(driver.pid) == set()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
