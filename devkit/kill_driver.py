"""A bot process (or a store alone) to kill, or that kills itself with SIGKILL at a chosen point.

    python -m devkit.kill_driver play DB_PATH GAMES
    python -m devkit.kill_driver save DB_PATH PLY STATEMENT
    python -m devkit.kill_driver round DB_PATH TOURNAMENT STATEMENT
    python -m devkit.kill_driver pg-save DATABASE_URL STATEMENT
    python -m devkit.kill_driver outage DATABASE_URL PG_DATA PG_PORT PG_USER PG_BIN

What is played and where it dies is chosen by the first argument:

- ``play``: games through SimCord on a real SQLite file, forever (the test kills it). After every
  acknowledged click it prints one JSON line with the game id and the board exactly as the
  message shows it, then flushes, so whoever kills the process knows what the players had seen.
  Half the games are against the bot, half between two members; a finished game is replaced.
- ``save``: Alice and Bob play ``MOVES`` through SimCord, the real bot on a real SQLite file;
  while move number ``PLY`` is saved, the process dies just before SQLite runs the
  ``STATEMENT``-th statement of that save's transaction.
- ``round``: the SQLite file holds a running Swiss whose last round is 0 (entrants 1 to 5); the
  process stores round 1 as ``PAIRS`` and ``BYE`` say and dies at ``STATEMENT`` of that
  transaction (``STATEMENTS`` in all).
- ``pg-save``: on PostgreSQL, game 1 saved with the first four of ``MOVES``, then the move that
  wins it; the process dies just before the ``STATEMENT``-th statement of that save's transaction.
- ``outage``: a 5x5 game against the bot on PostgreSQL; the moment the engine has found its reply,
  before the bot saves it, the server is stopped (``pg_ctl`` on PG_DATA, as PG_USER when run by
  root). Once the click is answered it prints ``PENDING`` and waits (the bot trying its move
  again) to be killed.

Statements are counted from the transaction's BEGIN (1 is ``BEGIN IMMEDIATE`` on SQLite; the last
is ``COMMIT``); SQLite's PRAGMAs, which set the busy timeout around a BEGIN on the loop's thread and
write nothing, are not counted (``bot.storage.sqlite_writes``). A ``STATEMENT`` past the end of
the transaction kills the process right after the call returned. Just before dying it prints
``KILL <n> <sql>``, or ``KILL after save`` / ``KILL after round``, so the test knows which side of
the commit the kill landed on.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

from bot.assembly import create_bot, postgres_store, sqlite_store
from bot.compute.runner import EngineRunner
from bot.config import Settings
from bot.games.record import Ending, GameRecord, Status
from bot.storage import pg_queries
from bot.storage.sqlite import SQLiteStore
from bot.tournaments.store import TournamentStore
from devkit.postgres import PgServer
from devkit.simcord_board import board_message, cells, challenge_buttons, free

TOKEN = "simulated.bot.token"
ROUNDS = 10_000  # play: bounded, the test kills it long before this
# save and pg-save: X takes the top row, O answers on the middle row; X wins with move 5.
MOVES = (0, 3, 1, 4, 2)
GUILD = 111  # pg-save: the server of game 1 (tests/bot/store_support.py's)
PAIRS, BYE = ((1, 4), (5, 2)), 3  # round: round 1 of five players
# BEGIN, the round moving on, reading who is playing and who had a bye, two seats and a game per
# pair, the bye's seat and bye, COMMIT.
STATEMENTS = 2 + 2 + 3 * len(PAIRS) + 2 + 1
HOLD = 600.0  # outage: seconds at most before it gives up waiting to be killed


def die(why: str) -> None:
    """Say where, then SIGKILL this process (no cleanup, no flush of anything but stdout)."""
    print(f"KILL {why}", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(60)  # never reached: SIGKILL cannot be caught


class Countdown:
    """Dies at the `at`-th statement of a transaction, counted from its BEGIN while armed."""

    def __init__(self, at: int, armed: bool = True) -> None:
        self.at, self.armed, self.count = at, armed, 0

    def arm(self, on: bool) -> None:
        self.armed, self.count = on, 0

    def sqlite(self, sql: str) -> None:
        """SQLite's trace callback: every statement the connection runs."""
        if not self.armed or sql.startswith("PRAGMA"):
            return  # a PRAGMA: the busy timeout set around a BEGIN on the loop's thread
        if self.count == 0 and not sql.startswith("BEGIN"):
            return  # a read queued before the transaction
        self.statement(sql)

    def statement(self, sql: str) -> None:
        self.count += 1
        if self.count == self.at:
            die(f"{self.count} {sql.split()[0]}")


async def trace(store: SQLiteStore, countdown: Countdown) -> None:
    """Count the store's statements (its connection lives on the store's thread, and the loop's
    while that thread is idle)."""
    await store._run(lambda: store._db().set_trace_callback(countdown.sqlite))


class CountedConnection:
    """A PostgreSQL connection whose statements go through a countdown."""

    def __init__(self, conn: Any, countdown: Countdown) -> None:
        self._conn, self._countdown = conn, countdown

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._conn, name)
        if name not in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
            return method

        def counted(*args: Any, **kwargs: Any) -> Any:
            self._countdown.statement(str(args[0]))
            return method(*args, **kwargs)

        return counted


def shown(env: simcord.Env, message: Any) -> tuple[int, list[str | None]]:
    """The game id on the message's buttons and the marks on its board."""
    board = cells(env, message, 3)
    game_id = int(board[0].custom_id.split(":")[1])
    return game_id, [c.mark for c in board]


async def start(env: simcord.Env, channel: Any, alice: Any, bob: Any, vs_bot: bool) -> Any:
    """A new game in the channel; between people, Bob accepts at once."""
    if vs_bot:
        await alice.slash(channel, "tictactoe")
        return board_message(channel)
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, custom_id=challenge_buttons(env, message)["Accept"]["custom_id"])
    return message


async def play(db: Path, games: int) -> None:
    """Play until killed."""
    rng = random.Random(len(str(db)))
    settings = Settings(token=TOKEN, database_path=db, engine_workers=1, challenge_cooldown=0)
    async with simcord.run(create_bot(settings)) as env:
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        channels = [guild.create_text_channel(f"game-{i}") for i in range(games)]
        boards = [await start(env, ch, alice, bob, i % 2 == 0) for i, ch in enumerate(channels)]
        print("READY", flush=True)
        for _ in range(ROUNDS):
            for i, channel in enumerate(channels):
                message = boards[i]
                open_cells = free(env, message, 3)
                if not open_cells:
                    boards[i] = await start(env, channel, alice, bob, i % 2 == 0)
                    continue
                _, marks = shown(env, message)
                x_to_move = marks.count("X") == marks.count("O")
                player = alice if i % 2 == 0 or x_to_move else bob
                await player.click(message, custom_id=rng.choice(open_cells).custom_id)
                game_id, marks = shown(env, message)
                print(json.dumps({"game": game_id, "board": marks}), flush=True)


async def save(db: Path, ply: int, statement: int) -> None:
    """Play the scripted game until the kill inside the save of move `ply`."""
    settings = Settings(token=TOKEN, database_path=db, engine_workers=1)
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
        countdown = Countdown(statement, armed=False)
        await trace(store, countdown)
        original = store.save_game

        async def save_game(game: GameRecord) -> None:
            target = len(game.moves) == ply
            countdown.arm(target)
            await original(game)
            countdown.arm(False)
            if target:
                die("after save")

        store.save_game = save_game  # type: ignore[method-assign]
        for ply_done, cell in enumerate(MOVES, start=1):
            player = alice if ply_done % 2 == 1 else bob
            print(f"PLAY {ply_done} {cell}", flush=True)
            await player.click(message, custom_id=f"ttt:{game_id}:{cell}")
        print("FINISHED without a kill", flush=True)


async def store_round(db: Path, tournament: int, statement: int) -> None:
    """Store round 1, dying where asked."""
    store = sqlite_store(db)
    await store.open()
    await trace(store, Countdown(statement))
    await TournamentStore(store).start_round(tournament, 1, PAIRS, BYE)
    die("after round")


async def pg_save(url: str, statement: int) -> None:
    """Save game 1 to its last move but one, then the winning move, dying where asked."""
    store = postgres_store(url)
    await store.open()
    game = GameRecord(id=1, guild_id=GUILD, channel_id=10_001, x_id=1, o_id=2, challenger_id=1)
    await store.save_game(dataclasses.replace(game, moves=MOVES[:-1]))
    real = pg_queries.upsert
    countdown = Countdown(statement)

    async def upsert(conn: Any, record: Any) -> None:
        await real(CountedConnection(conn, countdown), record)

    pg_queries.upsert = upsert  # type: ignore[assignment]
    won = dataclasses.replace(
        game, moves=MOVES, status=Status.FINISHED, winner="X", ending=Ending.WIN
    )
    await store.save_game(won)
    die("after save")


async def outage(url: str, server: PgServer) -> None:
    """Stop the server under the bot's own move, then wait to be killed."""
    from bot.cogs.games import flow

    settings = Settings(
        token=TOKEN,
        database_path=Path(tempfile.mkdtemp()) / "unused.db",
        database_url=url,
        engine_workers=1,
    )
    flow.REPLY_WAIT = 0.0  # the reply is the bot's own change, saved on its own
    async with simcord.run(create_bot(settings), check_errors=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(channel, "tictactoe", size=5)
        engine: Any = env.bot.engine  # type: ignore[attr-defined]
        real_best_move = engine.best_move

        async def then_stop(*args: Any, **kwargs: Any) -> int:
            cell = await real_best_move(*args, **kwargs)
            server.stop("immediate")
            return cell

        engine.best_move = then_stop
        await alice.click(channel.last_message, custom_id="ttt:1:12")
        print("PENDING", flush=True)
        await asyncio.sleep(HOLD)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m devkit.kill_driver")
    how = parser.add_subparsers(dest="how", required=True)
    played = how.add_parser("play", help="play games until killed")
    played.add_argument("db", type=Path)
    played.add_argument("games", type=int)
    saved = how.add_parser("save", help="die inside the SQLite save of a move")
    saved.add_argument("db", type=Path)
    saved.add_argument("ply", type=int)
    saved.add_argument("statement", type=int)
    stored = how.add_parser("round", help="die inside the SQLite transaction of a Swiss round")
    stored.add_argument("db", type=Path)
    stored.add_argument("tournament", type=int)
    stored.add_argument("statement", type=int)
    pg = how.add_parser("pg-save", help="die inside the PostgreSQL save of a winning move")
    pg.add_argument("url")
    pg.add_argument("statement", type=int)
    out = how.add_parser("outage", help="stop PostgreSQL under the bot's move, wait to be killed")
    out.add_argument("url")
    out.add_argument("pg_data", type=Path)
    out.add_argument("pg_port", type=int)
    out.add_argument("pg_user")
    out.add_argument("pg_bin", type=Path)
    args = parser.parse_args(argv)
    if args.how == "play":
        asyncio.run(play(args.db, args.games))
    elif args.how == "save":
        asyncio.run(save(args.db, args.ply, args.statement))
    elif args.how == "round":
        asyncio.run(store_round(args.db, args.tournament, args.statement))
    elif args.how == "pg-save":
        asyncio.run(pg_save(args.url, args.statement))
    else:
        user = args.pg_user or None
        server = PgServer(bin=args.pg_bin, data=args.pg_data, port=args.pg_port, user=user)
        asyncio.run(outage(args.url, server))


if __name__ == "__main__":
    main(sys.argv[1:])
