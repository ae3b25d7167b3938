"""The runs of `tournament_swiss.py`, each against a fresh local Discord with its bot in a process
of its own (`wire.client.WireBot`): one Swiss through the project's bot or the tournament floor,
measured round by round (`tournament`), and as many games between two people at the same pace on
the plain floor and on the project's bot (`games`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.floors.compare import FLOOR_SCRIPT
from benchmarks.tournaments.play.members import Swiss, created, shown
from devkit.local_game import texts
from devkit.local_tournament import boards, public, threads
from devkit.localdiscord import FakeDiscord, Timing
from devkit.measure.scenario import build_world
from devkit.measure.traffic import spread
from devkit.wire.client import WireBot, WireDriver

TOURNAMENT_FLOOR = Path(__file__).parents[2] / "floors" / "tournament_bot.py"
QUIET = 2.5  # seconds without a request of the bot after the podium (more than `SPACING`): over


def profiled(args: argparse.Namespace) -> tuple[str, ...]:
    """With --profile, a bot's loop thread under cProfile (`measure.profiling`; its CPU figures
    are then not comparable)."""
    return ("--profile",) if getattr(args, "profile", False) else ()


def bot_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The project's bot's options: --profile's, and --sync's (its ``DATABASE_SYNC``)."""
    sync = getattr(args, "sync", None)
    return profiled(args) + (("--sync", sync) if sync else ())


def kind(method: str, path: str) -> str:
    """What one request of the bot was for."""
    if path.endswith("/callback"):
        return "responses"
    if "/webhooks/" in path:
        return "response edits"
    if "/thread-members/" in path:
        return "members added"
    if path.endswith("/threads"):
        return "threads made"
    if path.endswith("/messages"):
        return "messages posted"
    if "/messages/" in path:
        return "messages edited"
    return "threads archived" if method == "PATCH" else f"{method} other"


def answered_by(fake: FakeDiscord, timing: Timing) -> int:
    """How many of the bot's requests the local Discord had noted when it took the answer to
    `timing`'s interaction: a round's bounds, whenever the players noticed the answer (the
    bot's next requests may come before they do)."""
    iid = next(i.id for i in fake.interactions.values() if i.timing is timing)
    mark = f"/interactions/{iid}/"
    return next(
        n + 1
        for n, (method, path) in enumerate(fake.requests)
        if method == "POST" and mark in path and path.endswith("/callback")
    )


async def tournament(
    args: argparse.Namespace, folder: Path, *, floor: bool = False, durable: bool = False
) -> dict[str, Any]:
    """One Swiss through the project's bot, or the tournament floor (`floor`; `durable`: with
    its ``--durable`` saves): each round's figures and the run's CPU."""
    fake = FakeDiscord()
    await fake.start()
    if floor:
        saves = ("--durable",) if durable else ()
        bot = WireBot(fake, folder, *profiled(args), *saves, script=TOURNAMENT_FLOOR)
    else:
        bot = WireBot(fake, folder, *bot_options(args))
    swiss = Swiss(fake, args.players, args.think, args.seed)
    rounds: list[dict[str, Any]] = []
    try:
        await bot.start()
        await asyncio.wait_for(fake.synced.wait(), 10.0)
        await asyncio.wait_for(fake.connected.wait(), 10.0)
        await bot.command("begin-cpu")  # no loop lag reported: no probe
        started = await swiss.open(args.rounds)  # the Start press answered
        since, sent = shown(started), answered_by(fake, started)
        clicked, made, per_round = len(fake.timings), 0, args.players // 2
        for number in range(1, args.rounds + 1):
            made += per_round
            new = await swiss.until(
                lambda n=made: (
                    len(threads(fake, swiss.channel)) >= n
                    and threads(fake, swiss.channel)[n - per_round : n]
                ),
                swiss.channel.id,
                f"round {number}'s threads",
            )
            ends = await asyncio.gather(*(swiss.play(thread) for thread in new))
            posted = [created(boards(fake, t.id)[0]) for t in new]
            last = max(answered_by(fake, t) for t in ends if t is not None)
            requests = Counter(kind(*r) for r in fake.requests[sent:last])
            clicks = len(fake.timings) - clicked
            rounds.append(
                {
                    "round": number,
                    "games": len(new),
                    "first_board_s": min(posted) - since,
                    "all_boards_s": max(posted) - since,
                    "requests": sum(requests.values()),
                    "by_kind": dict(requests),
                    "clicks": clicks,
                }
            )
            since = max(shown(t) for t in ends if t is not None)
            sent, clicked = last, len(fake.timings)
        await swiss.until(
            lambda: any("is over" in texts(m) for m in public(fake, swiss.channel.id)),
            swiss.channel.id,
            "the podium",
        )
        seen = -1
        while len(fake.requests) != seen:  # the last standings' edits
            seen = len(fake.requests)
            await asyncio.sleep(QUIET)
        end = await bot.command("end")
        ending = Counter(kind(*r) for r in fake.requests[sent:])
    finally:
        await bot.stop()
        await fake.close()
    return {
        "rounds": rounds,
        "interactions": len(fake.timings),
        "cpu": end["cpu"] + end["engine_cpu"],
        "threads": end.get("threads", {}),  # each thread's CPU seconds
        "parts": end.get("parts", {}),  # with --profile: the loop thread's, by part
        "wall": end["wall"],
        "lag_samples": len(end["lags"]),  # none: the loop-lag probe is off (`begin-cpu`)
        "ending": dict(ending),  # after the last result: the podium, the last standings
        "errors": bot.errors() + [f"unexpected request: {r}" for r in fake.unexpected],
        "unanswered": sum(not i.answered for i in fake.interactions.values()),
    }


async def games(
    args: argparse.Namespace, folder: Path, count: int, *, floor: bool
) -> dict[str, Any]:
    """`count` 3x3 games between two people (/tictactoe, Accept, the moves), a round's at once,
    at the tournament's pace (`measure.traffic.spread`), played on the plain floor (`floor`) or
    on the project's bot; the CPU of its process."""
    fake = FakeDiscord()
    await fake.start()
    if floor:
        bot = WireBot(fake, folder, "--plain", script=FLOOR_SCRIPT)
    else:
        bot = WireBot(fake, folder, *bot_options(args))
    world = build_world(fake, 2 * count, 3, bot_k5=4)
    people = [g for g in world if not g.vs_bot]
    rng = random.Random(args.seed)
    try:
        await bot.start()
        await asyncio.wait_for(fake.synced.wait(), 10.0)
        await asyncio.wait_for(fake.connected.wait(), 10.0)
        driver = WireDriver(fake, max_plies=9)
        await bot.command("begin-cpu")  # no loop lag reported: no probe
        per_round = args.players // 2
        for start in range(0, len(people), per_round):
            wave = people[start : start + per_round]
            await spread(driver, wave, rng=rng, window=0.0, think=args.think)
        end = await bot.command("end")
    finally:
        await bot.stop()
        await fake.close()
    return {
        "games": sum(g.over for g in people),
        "interactions": len(fake.timings),
        "cpu": end["cpu"] + end["engine_cpu"],
        "threads": end.get("threads", {}),  # each thread's CPU seconds
        "parts": end.get("parts", {}),  # with --profile: the loop thread's, by part
        "wall": end["wall"],
        "lag_samples": len(end["lags"]),
        "errors": bot.errors() + [f"unexpected request: {r}" for r in fake.unexpected],
        "stuck": sum(g.stuck for g in people),
    }
