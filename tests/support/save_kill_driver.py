"""A bot process that kills itself with SIGKILL in the middle of writing one move.

Run as ``python -m tests.support.save_kill_driver DB_PATH PLY STATEMENT``. Alice and Bob play a
scripted game through SimCord, with the real bot on a real SQLite file. While the move number
``PLY`` is being saved, the process sends itself SIGKILL just before SQLite runs the
``STATEMENT``-th statement of that save's transaction (1 is ``BEGIN IMMEDIATE``; the last is
``COMMIT``; the PRAGMAs that set the busy timeout around a BEGIN on the loop's thread, which
write nothing, are not counted: ``bot.storage.sqlite_writes``). A ``STATEMENT`` past the end of
the transaction kills it right after the save returned, before the board shows the move. It
prints ``KILL <n> <sql>`` or ``KILL after save`` just before dying, so the test knows which side
of the commit the kill landed on.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import simcord

from bot.assembly import create_bot
from bot.compute.runner import EngineRunner
from bot.config import Settings
from bot.games.record import GameRecord
from bot.storage.sqlite import SQLiteStore
from tests.bot.game_support import board_message, cells

# X takes the top row; O answers on the middle row. X wins with move 5.
MOVES = (0, 3, 1, 4, 2)


def die(why: str) -> None:
    """Say where, then SIGKILL this process (no cleanup, no flush of anything but stdout)."""
    print(f"KILL {why}", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(60)  # never reached: SIGKILL cannot be caught


async def arm(store: SQLiteStore, ply: int, statement: int) -> None:
    """Kill the process at `statement` of the transaction that saves move number `ply`."""
    armed = {"on": False, "count": 0}

    def trace(sql: str) -> None:
        if not armed["on"] or sql.startswith("PRAGMA"):
            return  # a PRAGMA: the busy timeout set around a BEGIN on the loop's thread
        if armed["count"] == 0 and not sql.startswith("BEGIN"):
            return  # a read queued before the save
        armed["count"] += 1
        if armed["count"] == statement:
            die(f"{statement} {sql.split()[0]}")

    # The connection is the store's thread's (and the loop's while that thread is idle).
    await store._run(lambda: store._db().set_trace_callback(trace))
    original = store.save_game

    async def save_game(game: GameRecord) -> None:
        target = len(game.moves) == ply
        armed["on"], armed["count"] = target, 0
        await original(game)
        armed["on"] = False
        if target:
            die("after save")

    store.save_game = save_game  # type: ignore[method-assign]


async def main(db: Path, ply: int, statement: int) -> None:
    """Play the scripted game until the kill."""
    settings = Settings(token="simulated.bot.token", database_path=db, engine_workers=1)
    # Two people play, so the engine is never asked: threads only, no worker processes that
    # would outlive the kill.
    bot = create_bot(settings, engine=EngineRunner(workers=1, use_processes=False))
    async with simcord.run(bot) as env:
        store = bot.store
        assert isinstance(store, SQLiteStore)
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        channel = guild.create_text_channel("games")
        await alice.slash(channel, "tictactoe", opponent=bob)
        message = board_message(channel)
        await bob.click(message, label="Accept")
        game_id = int(cells(env, message, 3)[0].custom_id.split(":")[1])
        print(f"GAME {game_id}", flush=True)
        await arm(store, ply, statement)
        for ply_done, cell in enumerate(MOVES, start=1):
            player = alice if ply_done % 2 == 1 else bob
            print(f"PLAY {ply_done} {cell}", flush=True)
            await player.click(message, custom_id=f"ttt:{game_id}:{cell}")
        print("FINISHED without a kill", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
