"""The load benchmark's runs with SimCord (`load.py --discord simcord`): the players through
SimCord without its settling, a mode on N games in a fresh bot and world, and memory per live
game (the local Discord's runs are devkit.wire.client's)."""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import simcord

from bot.assembly import create_bot
from bot.client import TicTacToeBot
from devkit.measure import scenario
from devkit.measure import simcord_kit as kit
from devkit.measure.scenario import (
    SETTLE,
    Game,
    Run,
    build_world,
    world_options,
)
from devkit.measure.traffic import burst, play_mode
from devkit.wire.bot_process import settings_for


def engine_pool(bot: TicTacToeBot) -> Any:
    """The bot's engine process pool (None when it runs threads only), kept to retire it."""
    return getattr(bot.engine, "_processes", None)


class Driver(scenario.Players):
    """The players, through SimCord, without its settling.

    Settling scans every bot task and timer on each pass, a cost that grows with the games and
    blocks the loop; the measured runs instead wait on the answers themselves (woken by the
    route hooks in `kit.Responses`), and settle only after the clock has stopped.
    """

    def __init__(self, env: simcord.Env, responses: kit.Responses, *, max_plies: int) -> None:
        super().__init__(max_plies=max_plies)
        self.env = env
        self.responses = responses
        self.timings = responses.timings
        self.listeners = responses.listeners

    async def _emit_slash(self, game: Game) -> int:
        self.responses.pending_kind = "slash"
        return kit.emit_slash(
            self.env, game.human, game.channel, "tictactoe", **game.slash_options()
        )

    async def _emit_click(self, game: Game, player: Any, custom_id: str, kind: str) -> int:
        assert game.message_id is not None
        stored = kit.message_of(self.env, game.channel.id, game.message_id)
        self.responses.pending_kind = kind
        return kit.emit_click(self.env, player, stored, custom_id)

    def _components(self, game: Game) -> list[Any]:
        assert game.message_id is not None
        return kit.message_of(self.env, game.channel.id, game.message_id).components

    def _response_message(self, interaction_id: int) -> int | None:
        record = self.env.backend.interactions.get(interaction_id)
        if record is not None and record.message_id is not None and not record.ephemeral:
            return int(record.message_id)
        return None

    def tidy(self) -> None:
        kit.forget_transcript(self.env)


async def load_run(mode: str, n: int, size: int, args: argparse.Namespace) -> Run:
    """One mode on N games of one size, in a fresh bot and world."""
    rng = random.Random(args.seed * 1000 + n * 10 + size)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        bot = create_bot(settings_for(Path(folder)))
        async with simcord.run(bot, check_errors=False, settle_timeout=60.0) as env:
            pool = engine_pool(bot)
            if mode == "alone":  # n games against the bot, so twice the channels
                games = [
                    g for g in build_world(env, 2 * n, size, **world_options(args)) if g.vs_bot
                ]
            else:
                games = build_world(env, n, size, **world_options(args))
            await kit.settle(env, SETTLE)
            kit.forget_transcript(env)
            responses = kit.Responses(env)
            # The sampler shortens the GIL switch interval: only when asked (--profile).
            probe, sampler = kit.LagProbe(), kit.Sampler() if args.profile else None
            collector, janitor = kit.GcWatch(), kit.Janitor(env)
            saves = kit.StoreWatch(bot.store)
            run = Run(mode, size, n)
            try:
                probe.start()
                saves.start()
                collector.start()
                janitor.start()
                if sampler is not None:
                    sampler.start()
                main0 = time.thread_time()  # this thread runs the event loop
                cpu0, engine0, t0 = (
                    time.process_time(),
                    kit.process_cpu(kit.engine_pids(bot)),
                    kit.now(),
                )
                driver = Driver(env, responses, max_plies=args.max_plies)
                await play_mode(mode, driver, games, rng=rng, args=args)
                t1 = kit.now()
                run.cpu = (
                    time.process_time() - cpu0 + kit.process_cpu(kit.engine_pids(bot)) - engine0
                )
                run.wall = t1 - t0
                run.main_cpu = time.thread_time() - main0
                run.lags = probe.lags(t0, t1)
                run.gc_pauses = list(collector.pauses)
                run.save_service, run.save_awaited = saves.service, saves.awaited
                if sampler is not None:
                    run.shares = sampler.shares()
                    print(
                        f"  where the loop thread was ({mode} {size}x{size} x{n}):", file=sys.stderr
                    )
                    for share, owner, place, innermost in sampler.hot(args.profile):
                        print(f"    {share:6.1%} {owner:8} {place:45} {innermost}", file=sys.stderr)
            finally:
                if sampler is not None:
                    sampler.stop()
                collector.stop()
                saves.stop()
                await janitor.stop()
                probe.stop()
                responses.close()
            await kit.settle(env, SETTLE)
            run.timings = list(responses.timings.values())
            run.moves = sum(g.plies for g in games)
            run.finished = sum(g.over for g in games)
            run.stuck = sum(g.stuck for g in games)
            run.errors = [f"{type(e).__name__}: {e}" for e in env.errors]
        kit.retire_engine(pool)
        return run


async def measure_memory(n: int, size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Memory per live game: N games opened (people's challenges accepted; against the bot,
    one move and its reply) and left running, after one warm-up game; three views.

    - allocated: tracemalloc records every allocation with its stack; a block belongs to the
      innermost frame in bot/ (and engine/), discord/ or simcord/ (see measure.memory.owner_of).
      "bot side" is bot/ + engine/ + discord/ (the bot's game state, its locks and deadline tasks,
      discord.py's caches); SimCord's simulated world is left out, and so are payloads SimCord built
      that discord.py kept (a real gateway's would be discord.py's own).
    - held: bytes reachable from the bot object, the walk stopping at SimCord's objects and the
      event loop (`measure.memory.reachable_bytes`): whatever the bot keeps, whoever allocated
      it.
    - RSS: the whole process, SimCord's world and allocator slack included.
    """
    rng = random.Random(args.seed + size)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        bot = create_bot(settings_for(Path(folder)))
        async with simcord.run(bot, check_errors=False, settle_timeout=60.0) as env:
            pool = engine_pool(bot)
            *games, spare = build_world(env, n + 1, size, **world_options(args))
            await kit.settle(env, SETTLE)
            responses = kit.Responses(env)
            try:
                # One game first, so first-use caches are not charged to the N measured.
                driver = Driver(env, responses, max_plies=args.max_plies)
                await burst(driver, [spare], rng=rng, waves=1)
                kit.forget_transcript(env)
                held0 = kit.reachable_bytes(bot)
                tracked0 = len(gc.get_objects())
                kit.start_tracing()
                rss0, before = kit.rss_bytes(), kit.owned_bytes()
                await burst(driver, games, rng=rng, waves=1)
                kit.forget_transcript(env)
                after, rss1 = kit.owned_bytes(), kit.rss_bytes()
            finally:
                tracemalloc.stop()
                responses.close()
            held1 = kit.reachable_bytes(bot)
            tracked1 = len(gc.get_objects())
            live = sum(not g.over and g.message_id is not None for g in games)
        kit.retire_engine(pool)
    per = {owner: (after.get(owner, 0) - before.get(owner, 0)) / n for owner in after}
    bot_side = per.get("bot", 0) + per.get("engine", 0) + per.get("discord", 0)
    return {
        "discord": "simcord",
        "size": size,
        "games": n,
        "live": live,
        "per_game_bytes": per,
        "bot_side_bytes": bot_side,
        "held_per_game_bytes": (held1[0] - held0[0]) / n,
        "held_objects_per_game": (held1[1] - held0[1]) / n,
        # Objects the garbage collector tracks, the world's included: what a full pass walks.
        "gc_objects_per_game": (tracked1 - tracked0) / n,
        "rss_per_game_bytes": (rss1 - rss0) / n,
    }
