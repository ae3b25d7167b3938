"""A process that SIGKILLs itself in the middle of saving the last move of a game on PostgreSQL.

Run as ``python -m tests.support.pg_kill_driver URL STATEMENT``. It saves game 1 (four moves),
then the move that wins it; just before the ``STATEMENT``-th statement of that save's transaction
(after BEGIN) it prints ``KILL <n>`` and sends itself SIGKILL. A ``STATEMENT`` past the end kills
it right after the save returned (``KILL after save``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from typing import Any

from bot.assembly import postgres_store
from bot.storage import pg_queries
from tests.bot.store_support import finished, game

MOVES = (0, 3, 1, 4)


def die(why: str) -> None:
    """Say where, then SIGKILL this process."""
    print(f"KILL {why}", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(60)  # never reached


class Killer:
    """A connection that dies before its n-th statement."""

    def __init__(self, conn: Any, at: int) -> None:
        self._conn, self._at, self._count = conn, at, 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._conn, name)
        if name not in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
            return method

        def counted(*args: Any, **kwargs: Any) -> Any:
            self._count += 1
            if self._count == self._at:
                die(f"{self._count} {str(args[0]).split()[0]}")
            return method(*args, **kwargs)

        return counted


async def main(url: str, at: int) -> None:
    store = postgres_store(url)
    await store.open()
    await store.save_game(game(1, moves=MOVES))
    real = pg_queries.upsert

    async def upsert(conn: Any, record: Any) -> None:
        await real(Killer(conn, at), record)

    pg_queries.upsert = upsert  # type: ignore[assignment]
    await store.save_game(finished(1, 1, 2, "X", moves=(*MOVES, 2)))
    die("after save")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
