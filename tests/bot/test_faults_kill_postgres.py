"""SIGKILL inside the save of a winning move on PostgreSQL: the game is exactly before or after
it, the result counted once, and the dead process's locks are gone (the server rolled back)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.assembly import postgres_store
from bot.games.record import Status
from bot.games.stats import Record
from devkit.kill_driver import MOVES
from tests.bot.store_support import GUILD, finished

ROOT = Path(__file__).resolve().parents[2]
# The winning save: the row lock, the update, two records, the rating rows made, locked, updated.
STATEMENTS = 7


@pytest.mark.parametrize("statement", range(1, STATEMENTS + 2))
async def test_a_kill_inside_the_winning_save_leaves_it_before_or_after(
    postgres_url: str, statement: int
) -> None:
    """Before the commit: nothing of the move; after: all of it. A retried save counts nothing."""
    done = subprocess.run(
        [sys.executable, "-m", "devkit.kill_driver", "pg-save", postgres_url, str(statement)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stdout + done.stderr
    kill = done.stdout.strip().removeprefix("KILL ")
    store = postgres_store(postgres_url, timeout=2.0)  # the dead session's locks must be free
    await store.open()
    try:
        stored = await store.load_game(1)
        assert stored is not None
        wins = (await store.player_stats(GUILD, 1)).vs_people
        if kill == "after save":
            assert stored.status == Status.FINISHED and wins == Record(wins=1)
        else:
            assert kill.startswith(f"{statement} ")
            assert stored.status == Status.ACTIVE and stored.moves == MOVES[:-1]
            assert wins == Record() and await store.leaderboard(GUILD) == []
        await store.save_game(finished(1, 1, 2, "X", moves=MOVES))  # the click retried
        assert (await store.player_stats(GUILD, 1)).vs_people == Record(wins=1)
        assert (await store.player_stats(GUILD, 2)).rated_games == 1
    finally:
        await store.close()
