"""The whole bot under load, through discord.py's real dispatch (measured only).

    python benchmarks/load.py [--games 10,100,500] [--size 3,5] [--quick]
                              [--modes alone,burst,spread,memory,engine,floor,gc,speed,pays]
                              [--discord local|simcord] [--gc A,B,C[/A,B,C...]] [--json FILE]
                              [--variant classic|ultimate] [--level DIFFICULTY]
                              [--against mixed|bot|friend]

Where Discord is (--discord):

- local (the default): a Discord of our own on 127.0.0.1 (`tests/support/localdiscord`: a gateway
  websocket and the REST routes the bot uses), with the players, in this process; the bot in a
  process of its own (`wire/bot_process.py`), the real bot and the real discord.py speaking HTTP and
  the gateway to it. The bot's loop lag, CPU and memory are then its own, with no simulation in its
  process.
- simcord: SimCord in this process, the bot on the same event loop. SimCord's cost (building,
  copying and validating every payload, storing its world) then falls in every figure, so they
  are upper bounds. The engine mode always runs this way.

N games run at once, one per channel (guilds of up to 450 channels), half against the bot (the
four levels in turn, the bot moving first in every other one) and half between two members (a
challenge, accepted, then random legal moves). Modes:

- alone: games against the bot played one after another, nothing else running; --alone of them,
  whatever --games says.
- spread: the issue's 500 simultaneous games at people's pace. Games start at random moments
  over --window seconds and each player thinks --think seconds (real time, 1 to 5 by default:
  people reading a board) before each click, so clicks reach the bot while it is busy with
  other games (500 games: about 170 clicks a second, plus the bot's own moves).
- burst: a stress test, moves as fast as the answers allow. Every player to move clicks in the
  same instant (back to back on the gateway); the next wave goes as soon as every answer, the
  bot's reply moves included, is in. The bot then answers a wave of N clicks one after another,
  so its figures measure throughput: the last click of a wave waits for the N - 1 before it.
- memory: N games opened and one move played in each, all live; memory per live game (see
  `wire.client.wire_memory`, or `measure_memory` with SimCord).
- floor: the project's bot against the least a discord.py bot can do for the same traffic
  (`floors/game_bot.py`: its board built with discord.ui, as plain data, and as plain data with one
  durable save of each change), in --pairs interleaved rounds of N games (see `floors.compare`), in
  two traffic patterns: the bursts above (waves), and eager players (each clicks again as soon as
  its own board has answered, the bot's reply included, no waves): CPU per interaction of each, the
  ratio per round and its median, interactions a second. With --before CHECKOUT, the bot of that
  checkout (another commit) runs in the same rounds.
- gc: the project's bot under each of --gc's collector thresholds (A,B,C as `gc.set_threshold`
  takes them, separated by /), in --pairs rounds of N-game bursts: CPU per interaction, its
  ratio to the first threshold's in the same round, GC pauses. Every other mode runs the bot
  with --gc's first threshold (the bot's own, `bot.client.GC_THRESHOLDS`, without --gc).
- speed: the project's bot with discord.py's speed packages (`discord.py[speed]`: orjson,
  zstandard, Brotli, aiodns) and without them (hidden from its process), in --pairs rounds of
  N-game bursts; the local Discord compresses the gateway as the bot asks (zstd-stream with
  zstandard, zlib-stream without), as Discord does.
- pays: what each of the bot's per-click savings gives: the bot as built, then without each
  part named by --without (see `wire.bot_process.WITHOUT`), in --pairs rounds of N games in both
  traffic patterns of the floor mode: CPU per interaction, its ratio to the bot as built.
- engine: one 5x5 (4 in a row) game against the unbeatable bot; the loop lag while the engine
  computes its first replies, with the engine in its process pool and, to compare, in a thread.
  The player picks each move to make the engine think longest (see `engine_lag`).

With --variant ultimate every game is ultimate tic-tac-toe (`/tictactoe variant:ultimate`,
shown as 9x9): a player free to choose clicks an open small board first (its pick button), then
a cell of it, each click its own interaction (in bursts the cell follows as soon as the pick is
answered); the floor plays ultimate too. --level puts every game against the bot at one
difficulty (unbeatable is ultimate's expert), and --against plays only games against the bot or
only between people (local Discord).

Figures, all in real time (SimCord's virtual clocks are not used for any of them):

- ack: from the INTERACTION_CREATE leaving the players (written to the gateway socket, or handed
  to discord.py by SimCord) to the bot's initial response (callback) reaching the server.
  reply: from the click to the board showing the bot's move (on 3x3 the click's own response,
  which shows both moves; on 5x5 the edit after it).
- loop lag: how late a 10 ms ticker on the bot's event loop runs.
- CPU per move: CPU time of the bot's process (bot, discord.py, storage thread; with SimCord,
  SimCord too) plus the engine's worker processes, over the run, divided by the moves played
  (people's and bot's). With SimCord and --profile, "bot" takes out the loop thread's CPU in
  SimCord's and the players' code, as sampled every 4 ms (`kit.Sampler`); the sampler shortens
  the GIL switch interval, so it is off unless asked for.

With SimCord, the simulation is kept out of the measured path where it can be: the players wait
for the answers themselves (woken by the route hooks) instead of SimCord's settling, which scans
every bot task and timer on each pass, and SimCord's callback records compare by identity
(`kit.lighten_simcord`).

The database is a real SQLite file (WAL, synchronous=FULL) in a temporary folder (or --dir), and
the engine runs in the bot's own runner (thread for 3x3, process pool for bigger boards). On 5x5,
games against the bot use 3 in a row by default (--bot-k5): the engine's 4-in-a-row opening
moves take seconds each, which would measure the engine's queue, not the bot; the engine mode
measures that case on its own. A game still running after --max-plies moves is resigned.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

import engine
from benchmarks.floors import compare as floor
from benchmarks.measure import scenario
from benchmarks.measure import simcord_kit as kit
from benchmarks.measure.scenario import (
    SETTLE,
    Game,
    Run,
    build_world,
    burst,
    play_mode,
    world_options,
)
from benchmarks.wire import client as wire
from benchmarks.wire.bot_process import settings_for
from bot.client import TicTacToeBot, create_bot
from bot.compute.runner import MOVE_BUDGET, EngineRunner
from bot.games import rules as play
from engine import search as engine_search

# ----------------------------------------------------------------------------------- setup


def engine_pool(bot: TicTacToeBot) -> Any:
    """The bot's engine process pool (None when it runs threads only), kept to retire it."""
    return getattr(bot.engine, "_processes", None)


# ---------------------------------------------------------------------------------- modes


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
      innermost frame in bot/ (and engine/), discord/ or simcord/ (see measure.instruments._owner).
      "bot side" is bot/ + engine/ + discord/ (the bot's game state, its locks and deadline tasks,
      discord.py's caches); SimCord's simulated world is left out, and so are payloads SimCord built
      that discord.py kept (a real gateway's would be discord.py's own).
    - held: bytes reachable from the bot object, the walk stopping at SimCord's objects and the
      event loop (`measure.instruments.reachable_bytes`): whatever the bot keeps, whoever allocated
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


# --------------------------------------------------------------------------------- report


def fmt(value: float, digits: int = 1) -> str:
    """A number for the table; "-" when there is none."""
    return "-" if value != value else f"{value:,.{digits}f}"


def print_tables(
    runs: list[dict[str, Any]], memory: list[dict[str, Any]], engines: list[dict[str, Any]]
) -> None:
    """The markdown tables docs/figures.md shows."""
    if runs:
        print(
            "| mode | Discord | board | games | interactions | moves | ack p50 ms | ack p99 ms "
            "| ack max ms | reply p99 ms | loop lag p99 ms | loop lag max ms | CPU ms/move "
            "| wall s |"
        )
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in runs:
            print(
                f"| {r['mode']} | {r['discord']} | {r['size']}x{r['size']} | {r['games']} | "
                f"{r['interactions']} | "
                f"{r['moves']} | {fmt(r['ack_ms']['p50'])} | {fmt(r['ack_ms']['p99'])} | "
                f"{fmt(r['ack_ms']['max'])} | {fmt(r['reply_ms']['p99'])} | "
                f"{fmt(r['lag_ms']['p99'])} | {fmt(r['lag_ms']['max'])} | "
                f"{fmt(r['cpu_ms_per_move'], 2)} | {fmt(r['wall_s'])} |"
            )
        print()
    if memory:
        print(
            "| board | Discord | live games | bot/ + engine/ KB | discord.py KB | the rest KB "
            "| counted KB/game | held by the bot KB/game | RSS KB/game |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for m in memory:
            per = m["per_game_bytes"]
            own = per.get("bot", 0) + per.get("engine", 0)
            rest = m["bot_side_bytes"] - own - per.get("discord", 0)
            print(
                f"| {m['size']}x{m['size']} | {m['discord']} | {m['live']} | "
                f"{fmt(own / 1024, 2)} | {fmt(per.get('discord', 0) / 1024, 2)} | "
                f"{fmt(rest / 1024, 2) if m['discord'] == 'local' else 'not counted'} | "
                f"{fmt(m['bot_side_bytes'] / 1024, 2)} | "
                f"{fmt(m['held_per_game_bytes'] / 1024, 2)} | "
                f"{fmt(m['rss_per_game_bytes'] / 1024, 2)} |"
            )
        print()
    if engines:
        print("| 5x5 engine in | ply | reply s | ack ms | loop lag p99 ms | loop lag max ms |")
        print("|---|---:|---:|---:|---:|---:|")
        for e in engines:
            print(f"| {e['engine']} (idle: p99 {fmt(e['idle_lag_ms']['p99'])}) | | | | | |")
            for row in e["replies"]:
                print(
                    f"| | {row['ply']} | {fmt(row['reply_s'], 2)} | {fmt(row['ack_ms'])} | "
                    f"{fmt(row['lag_ms']['p99'])} | {fmt(row['lag_ms']['max'])} |"
                )
        print()


def print_targets(
    runs: list[dict[str, Any]], memory: list[dict[str, Any]], engines: list[dict[str, Any]]
) -> None:
    """The issues' figures next to what was measured (for reading, not a test)."""
    lines = []
    for r in runs:
        if r["games"] == 500:
            lines.append(
                f"{r['mode']} {r['size']}x{r['size']} x500 ({r['discord']}): ack p99 "
                f"{fmt(r['ack_ms']['p99'])} ms (target <= 100), over 3 s: "
                f"{r['ack_over_3s']} (target 0), loop lag p99 {fmt(r['lag_ms']['p99'])} ms "
                f"(target <= 10)"
            )
        if r["size"] > 3 and r["mode"] == "spread" and r["replied_clicks"]:
            lines.append(
                f"spread {r['size']}x{r['size']} x{r['games']}: of {r['replied_clicks']} clicks "
                f"answered with the bot's move, {100 * r['one_update_share']:.1f}% in one board "
                f"update (target >= 95%)"
            )
        if r["size"] == 3 and r["mode"] == "alone":
            lines.append(
                f"alone 3x3, {r['games']} games against the bot: slash ack p99 "
                f"{fmt(r['slash_ack_ms']['p99'])} ms, click ack p99 "
                f"{fmt(r['click_ack_ms']['p99'])} ms, bot's move shown p99 "
                f"{fmt(r['reply_ms']['p99'])} ms (target <= 50 for each)"
            )
    for m in memory:
        lines.append(
            f"memory {m['size']}x{m['size']} x{m['games']} ({m['discord']}): "
            f"{fmt(m['bot_side_bytes'] / 1024, 2)} KB allocated, "
            f"{fmt(m['held_per_game_bytes'] / 1024, 2)} KB held per live game (target <= 20)"
        )
    for e in engines:
        lines.append(
            f"5x5 engine in {e['engine']}: loop lag p99 {fmt(e['lag_ms']['p99'])} ms "
            f"(target <= 5), max {fmt(e['lag_ms']['max'])} ms"
        )
    for line in lines:
        print(f"- {line}")


def _postgres(args: argparse.Namespace) -> Any:
    """Set ``args.postgres_url`` for --database; the server started here, if any."""
    args.postgres_url, server = None, None
    if args.database == "postgres":
        from tests.support.postgres import start_server

        server = start_server()
        args.postgres_url = server.admin_url
    elif args.database.startswith(("postgresql://", "postgres://")):
        args.postgres_url = args.database
    return server


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the chosen modes and print the tables; returns everything measured."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10,100,500", help="comma-separated game counts")
    parser.add_argument("--size", default="3,5", help="board sizes (3, 4 or 5)")
    parser.add_argument("--modes", default="alone,burst,spread,memory,engine")
    parser.add_argument("--quick", action="store_true", help="10 and 100 games, one engine reply")
    parser.add_argument("--alone", type=int, default=40, help="alone: games against the bot")
    parser.add_argument("--window", type=float, default=5.0, help="spread: start window, seconds")
    parser.add_argument(
        "--think",
        type=lambda text: tuple(float(x) for x in text.split(",")),
        default=(1.0, 5.0),
        metavar="LOW,HIGH",
        help="spread: seconds a player thinks before each click",
    )
    parser.add_argument("--max-plies", type=int, default=12, help="resign after this many moves")
    parser.add_argument("--bot-k5", type=int, default=3, help="win length of 5x5 bot games")
    parser.add_argument(
        "--variant", choices=("classic", "ultimate"), default="classic",
        help="ultimate: nine boards in one (--size is then ignored; shown as 9x9)",
    )  # fmt: skip
    parser.add_argument(
        "--level", default=None, metavar="DIFFICULTY",
        help="every game against the bot at this /tictactoe difficulty (unbeatable: ultimate's "
        "expert); by default the four in turn",
    )  # fmt: skip
    parser.add_argument(
        "--against", choices=tuple(scenario.AGAINST), default="mixed",
        help="local Discord: only games against the bot, only between people, or half each",
    )  # fmt: skip
    parser.add_argument("--replies", type=int, default=4, help="engine mode: replies to time")
    parser.add_argument(
        "--engine-tries", type=int, default=8, help="engine mode: cells tried for a slow reply"
    )
    parser.add_argument(
        "--discord",
        choices=("local", "simcord"),
        default="local",
        help="burst, spread, alone and memory: the fake Discord on 127.0.0.1 with the bot in a "
        "process of its own (local), or SimCord in this process",
    )
    parser.add_argument("--pairs", type=int, default=3, help="floor, gc: interleaved rounds")
    parser.add_argument(
        "--gc", default=None, metavar="A,B,C[/A,B,C]",
        help="local Discord: the project bot's collector thresholds (gc: each one in turn)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="folder for the SQLite file")
    parser.add_argument(
        "--database", default="sqlite", metavar="sqlite|postgres|URL",
        help="local Discord: the bot's storage; postgres starts a server of its own on 127.0.0.1, "
        "a postgresql:// URL names one where databases may be created (one per run)",
    )  # fmt: skip
    parser.add_argument(
        "--processes", type=int, default=1, choices=(1, 2),
        help="local Discord: bot processes, one per shard (2 needs a PostgreSQL --database)",
    )  # fmt: skip
    parser.add_argument(
        "--without", type=lambda text: text.split(","),
        default=["gateway", "one-response", "quick-engine"], metavar="PART[,PART]",
        help="pays: the parts of the bot's savings to take away, one by one",
    )  # fmt: skip
    parser.add_argument(
        "--before", default=None, metavar="CHECKOUT",
        help="floor: also run the bot of another checkout of the project in each round",
    )  # fmt: skip
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="TOP", help="print the loop thread's TOP places"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.replies, args.window = "10,100", 1, 2.0
    counts = [int(n) for n in args.games.split(",")]
    sizes = [9] if args.variant == scenario.ULTIMATE else [int(s) for s in args.size.split(",")]
    modes = args.modes.split(",")
    command = "python benchmarks/load.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"# {command.strip()}")
    server = _postgres(args)
    kit.lighten_simcord()
    runs, memory, engines, floors, variants = [], [], [], [], []
    candidates = args.gc.split("/") if args.gc else []
    args.gc = candidates[0] if candidates else None

    def shape(size: int) -> tuple[int, int, int]:
        return max(counts), size, args.pairs

    async def one(mode: str, n: int, size: int) -> None:
        runner = wire.wire_run if args.discord == "local" else load_run
        runs.append((await runner(mode, n, size, args)).report())
        r = runs[-1]
        print(
            f"  {mode} {size}x{size} x{n}: {r['finished']}/{n} finished, "
            f"{r['moves']} moves, {r['wall_s']:.1f} s, {len(r['errors'])} errors",
            file=sys.stderr,
        )

    try:
        for size in sizes:
            if "alone" in modes:
                await one("alone", args.alone, size)
            for n in counts:
                for mode in ("burst", "spread"):
                    if mode in modes:
                        await one(mode, n, size)
            if "floor" in modes:
                for pattern in floor.PATTERNS:
                    floors.append(
                        await floor.compare(max(counts), size, args.pairs, args, pattern=pattern)
                    )
            if "gc" in modes:
                gcs = [(f"gc {c}", ("--gc", c)) for c in candidates or ["700,10,10"]]
                variants.append(await floor.compare_variants(*shape(size), gcs, args))
            if "speed" in modes:
                speed = [("speed packages", ()), ("without them", ("--without-speed",))]
                variants.append(await floor.compare_variants(*shape(size), speed, args))
            if "pays" in modes:
                pays = [("as built", ())]
                pays += [(f"without {part}", ("--without", part)) for part in args.without]
                for pattern in floor.PATTERNS:
                    variants.append(
                        await floor.compare_variants(*shape(size), pays, args, pattern=pattern)
                    )
            if "memory" in modes:
                measure = wire.wire_memory if args.discord == "local" else measure_memory
                memory.append(await measure(max(counts), size, args))
        if "engine" in modes:
            engines.append(await engine_lag(args, processes=True, replies=args.replies))
            engines.append(await engine_lag(args, processes=False, replies=args.replies))
    finally:
        if server is not None:
            from tests.support.postgres import remove

            remove(server)
    print_tables(runs, memory, engines)
    print_targets(runs, memory, engines)
    floor.print_table(floors)
    floor.print_variants_table(variants)
    result = {
        "command": command,
        "runs": runs,
        "memory": memory,
        "engine": engines,
        "floor": floors,
        "variants": variants,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    return result


if __name__ == "__main__":
    asyncio.run(main())
