"""The whole bot under load, through discord.py's real dispatch (measured only).

    python benchmarks/load/load.py [--games 10,100,500] [--size 3,5] [--quick]
                                   [--modes alone,burst,spread,memory,engine,floor,gc,speed,pays]
                                   [--discord local|simcord] [--gc A,B,C[/A,B,C...]] [--json FILE]
                                   [--variant classic|ultimate] [--level DIFFICULTY]
                                   [--against mixed|bot|friend]

Where Discord is (--discord):

- local (the default): a Discord of our own on 127.0.0.1 (`devkit/localdiscord`: a gateway
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
- spread: 500 simultaneous games (the load target) at people's pace. Games start at random moments
  over --window seconds and each player thinks --think seconds (real time, 1 to 5 by default:
  people reading a board) before each click, so clicks reach the bot while it is busy with
  other games (500 games: about 170 clicks a second, plus the bot's own moves).
- burst: a stress test, moves as fast as the answers allow. Every player to move clicks in the
  same instant (back to back on the gateway); the next wave goes as soon as every answer, the
  bot's reply moves included, is in. The bot then answers a wave of N clicks one after another,
  so its figures measure throughput: the last click of a wave waits for the N - 1 before it.
- memory: N games opened and one move played in each, all live; memory per live game (see
  `wire.memory.wire_memory`, or `measure_memory` with SimCord).
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
  part named by --without (see `wire.savings.WITHOUT`), in --pairs rounds of N games in both
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

The database is a real SQLite file (WAL, the bot's default synchronous=NORMAL) in a temporary
folder (or --dir), and the engine runs in the bot's own runner (thread for 3x3, process pool for
bigger boards). On 5x5, games against the bot use 3 in a row by default (--bot-k5): the engine's
4-in-a-row opening moves take seconds each, which would measure the engine's queue, not the bot;
the engine mode measures that case on its own. A game still running after --max-plies moves is
resigned.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors import compare as floor
from devkit.measure import scenario
from devkit.measure import simcord_kit as kit
from devkit.measure.engine_lag import engine_lag
from devkit.measure.load_report import print_tables, print_targets
from devkit.measure.simcord_runs import load_run, measure_memory
from devkit.wire import client as wire
from devkit.wire.memory import wire_memory


def _postgres(args: argparse.Namespace) -> Any:
    """Set ``args.postgres_url`` for --database; the server started here, if any."""
    args.postgres_url, server = None, None
    if args.database == "postgres":
        from devkit.postgres import start_server

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
        "--variant",
        choices=("classic", "ultimate"),
        default="classic",
        help="ultimate: nine boards in one (--size is then ignored; shown as 9x9)",
    )
    parser.add_argument(
        "--level",
        default=None,
        metavar="DIFFICULTY",
        help="every game against the bot at this /tictactoe difficulty (unbeatable: ultimate's "
        "expert); by default the four in turn",
    )
    parser.add_argument(
        "--against",
        choices=tuple(scenario.AGAINST),
        default="mixed",
        help="local Discord: only games against the bot, only between people, or half each",
    )
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
        "--gc",
        default=None,
        metavar="A,B,C[/A,B,C]",
        help="local Discord: the project bot's collector thresholds (gc: each one in turn)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="folder for the SQLite file")
    parser.add_argument(
        "--database",
        default="sqlite",
        metavar="sqlite|postgres|URL",
        help="local Discord: the bot's storage; postgres starts a server of its own on 127.0.0.1, "
        "a postgresql:// URL names one where databases may be created (one per run)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        choices=(1, 2),
        help="local Discord: bot processes, one per shard (2 needs a PostgreSQL --database)",
    )
    parser.add_argument(
        "--without",
        type=lambda text: text.split(","),
        default=["gateway", "one-response", "quick-engine"],
        metavar="PART[,PART]",
        help="pays: the parts of the bot's savings to take away, one by one",
    )
    parser.add_argument(
        "--before",
        default=None,
        metavar="CHECKOUT",
        help="floor: also run the bot of another checkout of the project in each round",
    )
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
    command = "python benchmarks/load/load.py " + " ".join(sys.argv[1:] if argv is None else argv)
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
                measure = wire_memory if args.discord == "local" else measure_memory
                memory.append(await measure(max(counts), size, args))
        if "engine" in modes:
            engines.append(await engine_lag(args, processes=True, replies=args.replies))
            engines.append(await engine_lag(args, processes=False, replies=args.replies))
    finally:
        if server is not None:
            from devkit.postgres import remove

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
