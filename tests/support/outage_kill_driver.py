"""A bot process killed while its own move waits for the database (PostgreSQL, SimCord).

Run as ``python -m tests.support.outage_kill_driver DATABASE_URL PG_DATA``. It opens a 5x5 game
against the bot, moves, and stops the server (``pg_ctl`` on PG_DATA, as the server's user when
run by root) the moment the engine has found its reply, before the bot saves it. Once the click
is answered it prints ``PENDING`` and keeps running (the bot trying its move again) until it is
killed.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord

from bot.assembly import create_bot
from bot.cogs.games import flow
from bot.config import Settings
from tests.support.postgres import PgServer

HOLD = 600.0  # seconds at most before it gives up waiting to be killed


async def main(url: str, server: PgServer) -> None:
    settings = Settings(
        token="simulated.bot.token",
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


if __name__ == "__main__":
    url, data, port, user = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    bin_dir = Path(sys.argv[5])
    pg = PgServer(bin=bin_dir, data=data, port=port, user=user or None)
    asyncio.run(main(url, pg))
