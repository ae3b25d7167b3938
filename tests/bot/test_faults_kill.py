"""SIGKILL while a move is being written: after a restart the game is exactly before or after it.

test_kill.py kills a busy bot at arbitrary moments. Here the kill is aimed: a real bot process
(devkit/kill_driver.py save: SimCord for Discord, a real SQLite file) SIGKILLs itself
before each statement of the transaction that saves one move, and once right after that save
returned but before the board showed it. Moves: X 0, O 3, X 1, O 4, X 2 (X wins on move 5, so
that save also writes both players' records and ratings).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import simcord

from bot.assembly import create_bot, sqlite_store
from bot.client import TicTacToeBot
from bot.config import Settings
from bot.games.record import Ending, GameRecord, Status
from devkit.kill_driver import MOVES

ROOT = Path(__file__).resolve().parents[2]
# Statements in the save of a move: BEGIN, the upsert, COMMIT; the winning move also reads the
# stored status first, and adds two records, two rating reads, two rating writes and the two
# ratings' history rows before COMMIT.
STATEMENTS = {1: 3, 5: 12}
CASES = [(ply, n) for ply, count in STATEMENTS.items() for n in range(1, count + 2)]


def kill_during_save(db: Path, ply: int, statement: int) -> str:
    """Run the driver until it kills itself; return where (its KILL line, without 'KILL ')."""
    driver = subprocess.Popen(
        [sys.executable, "-m", "devkit.kill_driver", "save", str(db), str(ply), str(statement)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group, so nothing it started outlives it
    )
    try:
        out, _ = driver.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
    assert driver.returncode == -signal.SIGKILL, out
    kills = [line.removeprefix("KILL ") for line in out.splitlines() if line.startswith("KILL ")]
    assert len(kills) == 1, out
    return kills[0]


def counted(db: Path) -> tuple[list[tuple[int, int, int]], list[int]]:
    """(wins, draws, losses) per recorded player, and rated games per rated player."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        records = conn.execute("SELECT wins, draws, losses FROM records ORDER BY wins").fetchall()
        ratings = [row[0] for row in conn.execute("SELECT rated_games FROM ratings")]
    return records, ratings


async def stored_game(db: Path) -> GameRecord:
    """The file's only game (the driver plays one, so it has the first id)."""
    store = sqlite_store(db)
    await store.open()
    try:
        game = await store.load_game(1)
    finally:
        await store.close()
    assert game is not None
    return game


@pytest.mark.parametrize(("ply", "statement"), CASES)
async def test_a_kill_inside_the_save_of_a_move_leaves_it_before_or_after(
    tmp_path: Path, ply: int, statement: int
) -> None:
    """Before COMMIT ran: exactly the game before the move. After the save: exactly after it."""
    db = tmp_path / "games.db"
    where = kill_during_save(db, ply, statement)

    inside = statement <= STATEMENTS[ply]
    if inside:
        assert where.startswith(f"{statement} ")
        if statement == STATEMENTS[ply]:
            assert where == f"{statement} COMMIT"
    else:
        assert where == "after save"

    game = await stored_game(db)
    expected = tuple(MOVES[: ply - 1 if inside else ply])
    assert game.moves == expected
    won = expected == tuple(MOVES)
    assert (game.status is Status.FINISHED) == won
    records, ratings = counted(db)
    if won:
        assert (game.ending, game.winner) == (Ending.WIN, "X")
        assert records == [(0, 0, 1), (1, 0, 0)] and ratings == [1, 1]  # counted once, both
    else:
        assert game.status is Status.ACTIVE and game.ending is None
        assert records == [] and ratings == []  # nothing counted for a game still running

    # A new bot process on the same file carries on from exactly there.
    settings = Settings(token="simulated.bot.token", database_path=db, engine_workers=1)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            assert isinstance(env.bot, TicTacToeBot)
            cog = env.bot.get_cog("GameCog")
            assert cog is not None
            live = {g.id: g.moves for g in cog.live.games.live()}
            again = await env.bot.store.load_game(game.id)
            assert again is not None and again.moves == expected
            if not won:
                # This Discord is a new one, without the board: reading it back at start-up,
                # the bot finds it gone and ends the game as abandoned, its moves as they were.
                assert live == {} and again.ending is Ending.ABANDONED
            assert not env.errors
    finally:
        await bot.release()
