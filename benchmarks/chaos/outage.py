"""How long after an outage (of the database, or of Discord) every move reaches its board.

    python benchmarks/chaos/outage.py [--outages 2,5,15,60] [--size 5]
    python benchmarks/chaos/outage.py --discord [--statuses 500,502,503,504,429] [--window 5]
                                      [--share 0.5] [--tables 12] [--warmup 8] [--seed 1]

With --discord: Discord failing part of the bot's calls for a while, at people's pace; see
``chaos.discord_outage`` for what is measured. Without, the database:

The real bot on a real PostgreSQL server started here on 127.0.0.1, Discord simulated by SimCord.
For each outage length: a game against the bot; the player moves, and the server is stopped the
moment the engine has found its reply, before the bot saves it (so the reply is the bot's own
change waiting for the database); the server stays down for the outage's length in real time,
then starts again. Measured: seconds from the server accepting connections again to the board
showing the bot's move, with no click (target: at most 5 s), and whether every move is stored
once. Real time throughout: SimCord's timers fall back to the wall clock when nobody advances
its own clock.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.assembly import create_bot
from bot.cogs.games import flow
from bot.config import Settings
from devkit.postgres import remove, start_server
from devkit.simcord_board import cells

POLL = 0.01  # seconds between two looks at the board
GIVE_UP = 60.0  # seconds after the server's return before a missing move counts as lost


def o_marks(env: Any, message: Any, size: int) -> int:
    """The bot's marks (⭕) on the board's cells as the players see them."""
    return sum(cell.mark == "O" for cell in cells(env, message, size))


async def fresh_database(server: Any, name: str) -> str:
    """A new empty database on the server; its URL."""
    import asyncpg

    admin = await asyncpg.connect(server.admin_url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return str(server.url(name))


async def one(server: Any, url: str, outage: float, size: int) -> dict[str, Any]:
    """One game, one outage: seconds from the server's return to the bot's move on the board."""
    settings = Settings(
        token="simulated.bot.token",
        database_path=Path(tempfile.mkdtemp()) / "unused.db",
        database_url=url,
        engine_workers=1,
    )
    bot = create_bot(settings)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user("alice"))
            await alice.slash(channel, "tictactoe", size=size)
            message = channel.last_message
            engine: Any = bot.engine
            real_best_move = engine.best_move
            stopped = asyncio.Event()

            async def then_stop(*args: Any, **kwargs: Any) -> int:
                cell = await real_best_move(*args, **kwargs)
                if not stopped.is_set():
                    server.stop("immediate")
                    stopped.set()
                return cell

            engine.best_move = then_stop
            flow.REPLY_WAIT = 0.0  # the reply is a change of the bot's own, saved on its own
            before = o_marks(env, message, size)
            await alice.click(message, custom_id=f"ttt:1:{size * size // 2}")
            await asyncio.wait_for(stopped.wait(), 30)
            await asyncio.sleep(outage)
            waited = o_marks(env, message, size) == before
            server.start()
            back = time.perf_counter()
            while o_marks(env, message, size) == before and time.perf_counter() - back < GIVE_UP:
                await asyncio.sleep(POLL)
            shown = time.perf_counter() - back
            stored = await bot.store.load_game(1)
            moves = len(stored.moves) if stored is not None else 0
            return {
                "outage_s": outage,
                "waited_unshown": waited,
                "shown_after_s": shown if o_marks(env, message, size) > before else None,
                "stored_moves": moves,
            }
    finally:
        await bot.release()


async def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outages", default="2,5,15,60", help="seconds, comma-separated")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--discord", action="store_true", help="an outage of Discord's instead")
    parser.add_argument("--statuses", default="500,502,503,504,429", help="Discord's answers")
    parser.add_argument("--window", type=float, default=5.0, help="seconds Discord fails")
    parser.add_argument("--share", type=float, default=0.5, help="of the calls that fail")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds of play before")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.discord:
        from benchmarks.chaos import discord_outage

        found = await discord_outage.run(args)
        discord_outage.print_table(found, args)
        return found
    server = start_server()
    rows = []
    try:
        for i, outage in enumerate(float(x) for x in args.outages.split(",")):
            url = await fresh_database(server, f"outage{i}")
            row = await one(server, url, outage, args.size)
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    finally:
        remove(server)
    print("\n| outage s | move waited, unshown | on the board s after the return | moves stored |")
    print("|---:|---|---:|---:|")
    for r in rows:
        shown = "lost" if r["shown_after_s"] is None else f"{r['shown_after_s']:.2f}"
        print(f"| {r['outage_s']:g} | {r['waited_unshown']} | {shown} | {r['stored_moves']} |")
    return rows


if __name__ == "__main__":
    asyncio.run(main())
