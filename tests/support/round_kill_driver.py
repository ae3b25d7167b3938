"""A process that kills itself with SIGKILL in the middle of storing a Swiss round.

Run as ``python -m tests.support.round_kill_driver DB_PATH TOURNAMENT STATEMENT``. It opens the
SQLite file (a running Swiss whose last round is 0, its entrants 1 to 5) and stores round 1 as
``ROUND`` says, sending itself SIGKILL just before SQLite runs the ``STATEMENT``-th statement of
that transaction (1 is ``BEGIN IMMEDIATE``; the last is ``COMMIT``); a ``STATEMENT`` past the end
kills it right after the call returned. It prints ``KILL <n> <sql>`` or ``KILL after round`` just
before dying.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.assembly import sqlite_store
from bot.tournaments.store import TournamentStore
from tests.support.save_kill_driver import die

PAIRS, BYE = ((1, 4), (5, 2)), 3  # round 1 of five players
# BEGIN, the round moving on, reading who is playing and who had a bye, two seats and a game per
# pair, the bye's seat and bye, COMMIT.
STATEMENTS = 2 + 2 + 3 * len(PAIRS) + 2 + 1


async def main(db: Path, tournament: int, statement: int) -> None:
    """Store round 1, dying where asked."""
    store = sqlite_store(db)
    await store.open()
    count = 0

    def trace(sql: str) -> None:
        nonlocal count
        if count == 0 and not sql.startswith("BEGIN"):
            return
        count += 1
        if count == statement:
            die(f"{statement} {sql.split()[0]}")

    # The connection lives on the store's own thread; install the hook there.
    await store._run(lambda: store._db().set_trace_callback(trace))
    await TournamentStore(store).start_round(tournament, 1, PAIRS, BYE)
    die("after round")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
