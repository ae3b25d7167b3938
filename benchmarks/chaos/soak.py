"""A chaos soak: two shards on one PostgreSQL under steady play, faults coming all the while,
then a check of the whole history (measured and checked; its figures go in the README).

    python benchmarks/chaos/soak.py [--duration 120] [--tables 32] [--seed 1] [--warmup 20]
                                    [--json FILE] [--keep DIR]

The local Discord (`devkit/localdiscord`) on 127.0.0.1, two bot processes (shards 0 and 1
of 2, `wire.bot_process`, the real bot and discord.py) on a PostgreSQL server started here, and
--tables channels of people at people's pace (`chaos.players`): against the bot at every level and
between friends, 3x3 to 5x5, some moves by reaction. The local Discord behaves as Discord does
where it matters here: a callback after 3 s is refused (10062), a connection that misses its
heartbeats is closed, a resumed session gets the events it missed.

After --warmup seconds of play (each shard's memory and descriptors are noted then), the faults
of a seeded schedule (`chaos.faults`, printed first: the same --seed replays it) come one after
another until the last 15 s of --duration, which are played in peace: a shard SIGKILLed and
started again, a shard SIGSTOPped for longer than the heartbeat, PostgreSQL stopped for a few
seconds or restarted with a fast shutdown, bursts of 5xx and 429 on Discord's REST routes, a
shard's gateway dropped with and without a resume. Half the tables are patient people, who
wait for a board to change rather than click again. 10 s after the last fault (N,
``chaos.check.CATCH_UP``) every move stored then must be on its board, nobody having clicked to
show it. Then the players stop, every live game must
answer its next click within 3 s, and the history is checked (`chaos.check`): moves lost,
duplicated, phantom, out of order; boards that differ from the store; live games nobody sees;
each shard's memory and descriptors within 10% of their level after warm-up; the logs' warnings,
errors and tracebacks, during a fault or not. The exit status is 1 if any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.chaos import check
from benchmarks.chaos.faults import (
    Injector,
    descriptors,
    schedule,
    usage,
)
from benchmarks.chaos.players import Players
from benchmarks.chaos.report import print_report, report
from benchmarks.chaos.tables import KINDS as TABLE_KINDS
from benchmarks.chaos.tables import Table
from devkit.localdiscord import FakeDiscord
from devkit.postgres import PgServer, remove, start_server
from devkit.wire.client import bots_for, connected, fresh_database

HEARTBEAT = 5.0  # seconds: the local Discord's heartbeat interval (Discord's is 41.25)
QUIET = 15.0  # seconds of play with no fault at the end
GROWTH = 0.10  # memory and descriptors may end this much above their level after warm-up
SETTLE = 5.0  # seconds between the players stopping and the probe
POOL = 10  # the bot's database pool at most (``PostgresStore``'s pool_size)
DISCORD_CONNECTIONS = 20  # the HTTP client's connections to Discord kept open, at most


def world(fake: FakeDiscord, n: int) -> list[Table]:
    """Four servers (two a shard; the last two take reactions too) and n tables."""
    guilds = [fake.create_guild(f"soak-{g}") for g in range(4)]
    tables = []
    for i in range(n):
        guild = guilds[i % 4]
        kind = TABLE_KINDS[i % len(TABLE_KINDS)]
        channel = guild.create_text_channel(f"table-{i}")
        human = guild.add_member(fake.create_user(f"p{i}a"))
        friend = guild.add_member(fake.create_user(f"p{i}b")) if kind.level is None else None
        shard = fake.shard_of(guild.id)
        tables.append(
            Table(i, kind, channel, human, friend, shard, reactions=i % 4 >= 2, patient=i % 2 == 1)
        )
    return tables


async def take_reactions(fake: FakeDiscord, tables: list[Table]) -> None:
    """The servers of the reaction tables take reactions as well as buttons."""
    for table in {t.channel.guild_id: t for t in tables if t.reactions}.values():
        iid = await fake.slash(table.human, table.channel, "tictactoe-settings set", input="both")
        for _ in range(200):
            if fake.timings[iid].acked is not None:
                break
            await asyncio.sleep(0.05)
        assert fake.timings[iid].acked is not None, "the server setting was not answered"


async def caught_up(url: str, tables: list[Table], fake: FakeDiscord) -> list[str]:
    """The boards missing a move stored now (each given `SHOW` seconds to show one in
    flight): a board the store is ahead of must have caught up by itself."""
    stored = await check.stored_games(url)
    give_up = time.perf_counter() + check.SHOW
    while True:
        behind = check.behind_boards(tables, stored, fake.messages)
        if not behind or time.perf_counter() > give_up:
            return behind
        await asyncio.sleep(0.05)


def fds_grew(before: Counter[str], after: Counter[str], pg_port: int) -> str | None:
    """Why the descriptors count as grown, if they do: more than `GROWTH` above their level
    after warm-up, pooled connections aside (the database's pool opens up to `POOL` as load
    comes and keeps them; the HTTP client keeps some to Discord), which must stay in bounds."""
    pg = f"tcp to port {pg_port}"
    pooled = {name for name in before | after if name.startswith("tcp to port")}
    rest0 = sum(n for name, n in before.items() if name not in pooled)
    rest1 = sum(n for name, n in after.items() if name not in pooled)
    if rest1 > rest0 * (1 + GROWTH):
        return f"descriptors besides connections {rest0} -> {rest1}"
    if after[pg] > POOL:
        return f"{after[pg]} connections to the database (pool of {POOL})"
    discord = sum(n for name, n in after.items() if name in pooled and name != pg)
    if discord > DISCORD_CONNECTIONS:
        return f"{discord} connections to Discord"
    return None


async def soak(args: argparse.Namespace, server: PgServer | None = None) -> dict[str, Any]:
    """The whole soak; its figures and the checks that failed (``checks``). On `server` if
    given (left running), else on a PostgreSQL server of its own."""
    faults = schedule(args.seed, args.duration - args.warmup - QUIET, heartbeat=HEARTBEAT)
    print(
        f"# python benchmarks/chaos/soak.py --duration {args.duration:g} --tables {args.tables} "
        f"--seed {args.seed} --warmup {args.warmup:g}"
    )
    print(f"fault schedule (seed {args.seed}; seconds after the warm-up):")
    for fault in faults:
        print(f"  {fault.describe()}")
    own = server is None
    server = server or start_server()
    args.postgres_url = server.admin_url
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord()
    fake.shard_count = 2
    fake.replay, fake.heartbeats_enforced, fake.callback_deadline = True, True, 3.0
    fake.heartbeat_ms = int(HEARTBEAT * 1000)
    await fake.start()
    tables = world(fake, args.tables)
    url = await fresh_database(args)
    assert url is not None
    bots = bots_for(fake, folder, url, 2, extra=("--log-times",))
    baseline: dict[int, tuple[int, int, int]] = {}  # shard -> (pid, rss, fds) after warm-up
    kinds: dict[int, Counter[str]] = {}  # shard -> its descriptors after warm-up, by kind

    async def note_baseline(shard: int) -> None:
        pid = bots[shard].process.pid  # type: ignore[union-attr]
        await asyncio.sleep(args.warmup)
        if bots[shard].process is not None and bots[shard].process.pid == pid:  # type: ignore[union-attr]
            baseline[shard] = (pid, *usage(pid))
            kinds[shard] = descriptors(pid)

    injector = Injector(
        fake, server, bots, restarted=lambda s: tasks.append(asyncio.create_task(note_baseline(s)))
    )
    tasks: list[asyncio.Task[None]] = []
    result: dict[str, Any] = {}
    try:
        await connected(fake, bots)
        await take_reactions(fake, tables)
        players = Players(fake, tables, think=(args.think_low, args.think_high))
        started = time.perf_counter()
        playing = asyncio.create_task(players.run(args.seed))
        tasks += [asyncio.create_task(note_baseline(s)) for s in range(2)]
        await asyncio.sleep(args.warmup)
        await injector.run(faults, time.perf_counter())
        last = max((f.ended for f in faults), default=time.perf_counter())
        await asyncio.sleep(max(0.0, last + check.CATCH_UP - time.perf_counter()))
        behind = await caught_up(url, tables, fake)
        await asyncio.sleep(max(0.0, started + args.duration - time.perf_counter()))
        players.stopping.set()
        await asyncio.wait_for(playing, 60.0)
        played_for = time.perf_counter() - started
        await asyncio.sleep(SETTLE)
        stuck = [p for p in await asyncio.gather(*(players.probe(t) for t in tables)) if p]
        await asyncio.gather(*tasks)
        ending = {s: usage(bots[s].process.pid) for s in range(2)}  # type: ignore[union-attr]
        stored = await check.stored_games(url)
        verdict = check.check_history(players.history, tables, stored, fake.messages)
        if args.keep:  # everything the checker read, to look into a failure
            dump = {
                "history": [dataclasses.asdict(a) for a in players.history],
                "tables": [
                    {"index": t.index, "shard": t.shard, "kind": str(t.kind), "boards": t.boards}
                    for t in tables
                ],
                "stored": [dataclasses.asdict(g) for g in stored.values()],
                "faults": [dataclasses.asdict(f) for f in faults],
            }
            (folder / "history.json").write_text(json.dumps(dump, default=str))
        result = report(args, players.history, tables, faults, stored, verdict, stuck)
        result["behind_after_s"] = check.CATCH_UP
        result["behind"] = behind
        for text in behind:
            verdict.fail("behind", text)
        result["wall_s"] = played_for
        result["memory"] = {
            f"shard {s}": {
                "after_warmup": {"rss_mb": baseline[s][1] / 2**20, "fds": baseline[s][2]},
                "end": {"rss_mb": ending[s][0] / 2**20, "fds": ending[s][1]},
            }
            for s in range(2)
            if s in baseline
        }
        for s in range(2):
            if s not in baseline:
                verdict.fail("memory", f"shard {s}: no level after warm-up (restarted too late)")
                continue
            _, rss0, _ = baseline[s]
            rss1, _ = ending[s]
            now = descriptors(bots[s].process.pid)  # type: ignore[union-attr]
            result["memory"][f"shard {s}"]["descriptors"] = [dict(kinds[s]), dict(now)]
            if rss1 > rss0 * (1 + GROWTH):
                verdict.fail("memory", f"shard {s}: resident memory {rss0} -> {rss1} bytes")
            grown = fds_grew(kinds[s], now, server.port)
            if grown:
                verdict.fail("descriptors", f"shard {s}: {grown}")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*(bot.stop() for bot in injector.bots))
        await fake.close()
        if own:
            remove(server)
    logs = check.check_logs(folder, faults)
    result["logs"] = {where: dict(texts) for where, texts in logs.items()}
    for where, texts in logs.items():
        if where.startswith("traceback (no fault") or where.startswith("critical"):
            for text, count in texts.items():
                verdict.fail("traceback", f"{count}x {text}")
    result["checks"] = dict(verdict.counts)
    result["problems"] = verdict.problems
    result["injected_by_discord"] = dict(fake.injected)
    print_report(result)
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of play")
    parser.add_argument("--tables", type=int, default=32, help="channels, each with its game")
    parser.add_argument("--seed", type=int, default=1, help="the fault schedule and the players")
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds before any fault")
    parser.add_argument("--think-low", type=float, default=1.0, help="seconds a player thinks")
    parser.add_argument("--think-high", type=float, default=4.0)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--keep", default=None, help="keep the bots' logs in this folder")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    result = asyncio.run(soak(args))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    return result


if __name__ == "__main__":
    outcome = main()
    sys.exit(1 if outcome.get("checks") else 0)
