"""The load benchmark's engine mode (`load.py --modes engine`): the loop lag while the bot's
engine computes its slowest 5x5 replies, in its process pool and, to compare, in a thread."""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

import engine
from bot.assembly import create_bot
from bot.compute.runner import MOVE_BUDGET, EngineRunner
from bot.games import rules as play
from devkit.measure import simcord_kit as kit
from devkit.measure.scenario import SETTLE, Game
from devkit.measure.simcord_runs import Driver, engine_pool
from devkit.wire.bot_process import settings_for
from engine import search as engine_search

# 5x5, 4 in a row: the slowest positions found by timing best_move (0.9 s budget) over random
# games, 0.1 to 0.2 s each from cold tables (the opening book holds every position to ply 3).
SLOW_5X5 = (
    "...../..O../..OOX/...X./X.X..",
    "XXXO./...X./..O../.O.../.....",
    "...../X.OX./O.O../X..../..X..",
    ".XOX./...../XOO../X..../.....",
)


def forget_searches() -> None:
    """Empty this process's engine search tables, as in a freshly started engine worker."""
    engine_search._SOLVERS.clear()


def think_time(board: Any) -> float:
    """Seconds the unbeatable engine takes on `board`, from cold tables, within the bot's budget
    (run in a worker thread: the loop thread's clock is SimCord's)."""
    forget_searches()
    started = time.perf_counter()
    engine.best_move(board, deadline=time.monotonic() + MOVE_BUDGET)
    return time.perf_counter() - started


async def slowest_reply(position: Any, free: list[int], rng: random.Random, tries: int) -> int:
    """Of up to `tries` free cells, the one whose position makes the engine think longest."""
    candidates = rng.sample(free, min(tries, len(free)))
    best, longest = candidates[0], -1.0
    for cell in candidates:
        took = await asyncio.to_thread(think_time, position.play(cell))
        if took > longest:
            best, longest = cell, took
        if took > 0.8 * MOVE_BUDGET:
            break
    forget_searches()  # the engine in a thread shares these tables: it starts cold too
    return best


async def engine_lag(args: argparse.Namespace, *, processes: bool, replies: int) -> dict[str, Any]:
    """One 5x5 game, 4 in a row, against the unbeatable bot: loop lag while it computes.

    Before each click the player looks for the move that makes the engine think longest (up
    to --engine-tries cells, each timed from cold search tables in a thread, outside the
    measured stretch), so the replies measured are the slow ones where the game allows. The
    engine's tables stay warm in its worker process between replies, as in the bot; in a
    thread they are emptied before each click. The unbeatable bot's own opening keeps its
    searches short, so first the bot's runner is asked directly for its move on `SLOW_5X5`, the
    slowest positions known, while nothing else runs. The
    players wait for the answers on the route hooks, not by settling, so nothing but the bot
    and the lag probe runs on the loop while the engine computes.
    """
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        settings = settings_for(Path(folder))
        runner = EngineRunner(workers=settings.engine_workers, use_processes=processes)
        bot = create_bot(settings, engine=runner)
        async with simcord.run(bot, check_errors=False, settle_timeout=120.0) as env:
            pool = engine_pool(bot)
            guild = env.create_guild("engine")
            game = Game(
                guild.create_text_channel("big"),
                guild.add_member(env.create_user("p")),
                None,
                5,
                4,
                "unbeatable",
            )
            await kit.settle(env, SETTLE)
            responses = kit.Responses(env)
            driver = Driver(env, responses, max_plies=25)
            registry = bot.get_cog("GameCog").games  # type: ignore[union-attr]
            probe = kit.LagProbe()
            probe.start()
            try:
                await asyncio.sleep(1.0)
                idle = probe.lags()
                computing: list[float] = []
                rows = []
                for text in SLOW_5X5:
                    forget_searches()  # a thread engine shares this process's tables
                    started = kit.now()
                    await bot.engine.best_move(engine.Board.from_string(text), level="unbeatable")
                    ended = kit.now()
                    lags = probe.lags(started, ended)
                    computing += lags
                    rows.append(
                        {
                            "ply": text,
                            "reply_s": ended - started,
                            "ack_ms": float("nan"),
                            "lag_ms": kit.summary_ms(lags),
                        }
                    )
                board = await driver.opened(game, await driver.start(game))
                for _ in range(replies):
                    if board is None or board.over or not board.free:
                        break
                    position = play.board_of(registry.get(board.game_id))
                    cell = await slowest_reply(position, board.free, rng, args.engine_tries)
                    stored = kit.message_of(env, game.channel.id, game.message_id)
                    responses.pending_kind = "cell"
                    before = board.taken
                    iid = kit.emit_click(env, game.human, stored, f"ttt:{board.game_id}:{cell}")
                    board = await driver.answered(
                        game, lambda b, n=before: b.over or b.taken >= n + 2
                    )
                    timing = responses.timings[iid]
                    end = timing.edits[0] if timing.edits else kit.now()
                    lags = probe.lags(timing.acked or timing.emitted, end)
                    computing += lags
                    rows.append(
                        {
                            "ply": before + 2,
                            "reply_s": end - timing.emitted,
                            "ack_ms": (timing.ack_latency or float("nan")) * 1e3,
                            "lag_ms": kit.summary_ms(lags),
                        }
                    )
            finally:
                probe.stop()
                responses.close()
            await kit.settle(env, SETTLE)
        kit.retire_engine(pool)
    return {
        "engine": "process pool" if processes else "thread",
        "idle_lag_ms": kit.summary_ms(idle),
        "lag_ms": kit.summary_ms(computing),
        "replies": rows,
    }
