"""The Discord half of the outage benchmark (``outage.py --discord``): Discord failing part of the
bot's calls for a while, as in an incident, under play at people's pace.

The local Discord (`devkit/localdiscord`, which refuses a first response after 3 s as
Discord does) and the real bot process (``python -m bot`` against it, SQLite). Tables of people
(`chaos.players`; at every other table patient people, who wait for the board after a failed click
rather than click again, at the others people who click again a second or two later): against
the bot on 3x3 (its move in the click's answer) and 4x4 (its move in an
edit after the answer), and between two friends. For each status, after some play, a `share` of
every REST call fails with it for `window` seconds (a 429 asks for Retry-After 0.5 s); the players
stop clicking when it ends. Measured:

- clicks sent during the window answered within 3 s: on a game whose previous click (sent less
  than `ANSWER` s before) had a call fail ("same game": discord.py's own retries of that call
  span 1 + 3 + 5 + 7 s, far past the click's 3 s), and on the others;
- from Discord answering again, with nobody clicking: seconds until each board shows its stored
  game (p50 and max over the boards that were behind), and whether every one did.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.chaos.players import Players
from benchmarks.chaos.tables import Action, Kind, Table, marks_of
from devkit.local_game import LocalBot
from devkit.localdiscord import FakeDiscord
from devkit.measure.instruments import percentile

ANSWER = 3.0
GIVE_UP = 60.0  # seconds after the window within which a board not caught up counts as stuck
TABLE_KINDS = (Kind(3, 3, "easy"), Kind(3, 3), Kind(4, 4, "medium"), Kind(3, 3, "hard"))


def world(fake: FakeDiscord, n: int) -> list[Table]:
    """One server, n tables of patient people."""
    guild = fake.create_guild("outage")
    tables = []
    for i in range(n):
        kind = TABLE_KINDS[i % len(TABLE_KINDS)]
        channel = guild.create_text_channel(f"table-{i}")
        human = guild.add_member(fake.create_user(f"p{i}a"))
        friend = guild.add_member(fake.create_user(f"p{i}b")) if kind.level is None else None
        patient = i % 2 == 1  # the others click again a second or two after a failure
        tables.append(Table(i, kind, channel, human, friend, 0, reactions=False, patient=patient))
    return tables


def stored_moves(database: Path) -> dict[int, tuple[int, ...]]:
    """Every stored game's moves."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT id, moves FROM games").fetchall()
    return {gid: tuple(int(c) for c in moves.split(",") if c) for gid, moves in rows}


def shows(fake: FakeDiscord, table: Table, game_id: int, moves: tuple[int, ...]) -> bool:
    """Whether a board shows its stored game's moves, each with its side."""
    marks = marks_of(fake.messages[table.boards[game_id]]["components"])
    want = {cell: "XO"[ply % 2] for ply, cell in enumerate(moves)}
    return marks == want


def shares(history: list[Action], fake: FakeDiscord, start: float, end: float) -> dict[str, Any]:
    """Clicks sent in [start, end] answered within 3 s: on the same game as a click whose call
    failed less than `ANSWER` s before, and on the others."""
    clicks = [a for a in history if a.kind in ("cell", "accept") and a.iid is not None]
    clicks.sort(key=lambda a: a.sent)
    last: dict[int | None, Action] = {}
    groups: dict[str, list[bool]] = {"same game": [], "other games": []}
    for action in clicks:
        before = last.get(action.game_id)
        last[action.game_id] = action
        if not start <= action.sent <= end:
            continue
        same = (
            before is not None and action.sent - before.sent < ANSWER and before.iid in fake.faulted
        )
        ack = fake.timings[action.iid].ack_latency  # type: ignore[index]
        groups["same game" if same else "other games"].append(ack is not None and ack < ANSWER)
    return {
        name: {"clicks": len(oks), "in_3s": (sum(oks) / len(oks)) if oks else float("nan")}
        for name, oks in groups.items()
    }


async def recovery(bot: LocalBot, fake: FakeDiscord, tables: list[Table], since: float) -> dict:
    """Seconds from `since` until each board shows its stored game (nobody clicking)."""
    waited: dict[int, float] = {}
    pending: set[int] | None = None
    while time.perf_counter() - since < GIVE_UP:
        stored = stored_moves(bot.database)
        boards = {(t.index, g): t for t in tables for g in t.boards if g in stored}
        late = {g for (_, g), t in boards.items() if not shows(fake, t, g, stored[g])}
        if pending is None:
            pending = set(late)  # the boards behind when Discord answered again
        for game_id in pending - late:
            waited.setdefault(game_id, time.perf_counter() - since)
        if not late:
            break
        await asyncio.sleep(0.05)
    times = sorted(waited.values())
    behind = len(pending or ())
    return {
        "behind_at_recovery": behind,
        "caught_up": len(times),
        "p50_s": percentile(times, 50) if times else 0.0,
        "max_s": times[-1] if times else 0.0,
        "stuck": behind - len(times),
    }


async def round_of(
    fake: FakeDiscord, bot: LocalBot, tables: list[Table], status: int, args: Any, seed: int
) -> dict[str, Any]:
    """Play, fail `share` of the calls with `status` for `window` s, stop, measure."""
    players = Players(fake, tables, think=(1.0, 4.0))
    playing = asyncio.create_task(players.run(seed))
    await asyncio.sleep(args.warmup)
    start = time.perf_counter()
    fake.fail_rest(args.window, status, share=args.share)
    await asyncio.sleep(args.window)
    end = time.perf_counter()
    players.stopping.set()  # people wait: nobody clicks from here on
    caught = await recovery(bot, fake, tables, end)
    await asyncio.wait_for(playing, 60.0)
    return {"status": status, **shares(players.history, fake, start, end), **caught}


async def run(args: Any) -> list[dict[str, Any]]:
    """Every status in turn against one bot process."""
    fake = FakeDiscord()
    fake.callback_deadline = ANSWER
    await fake.start()
    tables = world(fake, args.tables)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        bot = LocalBot(fake, Path(folder))
        try:
            await bot.start()
            for n, status in enumerate(int(s) for s in args.statuses.split(",")):
                rows.append(await round_of(fake, bot, tables, status, args, args.seed + n))
                print(rows[-1], flush=True)
        finally:
            await bot.stop()
            await fake.close()
    return rows


def print_table(rows: list[dict[str, Any]], args: Any) -> None:
    print(
        f"\nDiscord failing {args.share:.0%} of calls for {args.window:g} s, "
        f"{args.tables} tables at people's pace:"
    )
    print(
        "| status | clicks, same game | in 3 s | clicks, other games | in 3 s | boards behind "
        "| caught up p50 s | max s | stuck |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        same, other = r["same game"], r["other games"]
        print(
            f"| {r['status']} | {same['clicks']} | {same['in_3s']:.0%} | {other['clicks']} "
            f"| {other['in_3s']:.0%} | {r['behind_at_recovery']} | {r['p50_s']:.2f} "
            f"| {r['max_s']:.2f} | {r['stuck']} |"
        )
