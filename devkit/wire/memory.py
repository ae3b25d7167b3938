"""The load benchmark's memory mode against the local Discord (`load.py --modes memory`): memory
per live game in the bot's own process (`wire_memory`)."""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path
from typing import Any

from devkit.localdiscord import FakeDiscord
from devkit.measure import instruments as kit
from devkit.measure.scenario import build_world, world_options
from devkit.measure.traffic import burst
from devkit.wire.client import WireBot, WireDriver, bot_options, connected

OPENING_WAVE = 25  # games opened together while RSS is measured


async def wire_memory(n: int, size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Memory per live game in the bot's own process, after one warm-up game: N games opened
    (challenges accepted; against the bot, one move and its reply) and left running, twice.

    The first N are measured by the process's resident memory (RSS, allocator slack included),
    with nothing traced, opened `OPENING_WAVE` at a time: memory a burst of interactions uses
    for a moment (payloads, buffers, tasks) stays in the process's heap after it is freed, so
    opening all N in one instant would charge that peak to the live games (26 KB per 3x3 game
    instead of about 8 in one run). The next N (the first still live) are traced: everything in that
    process is the bot's, so every byte allocated and still live counts ("counted"), split by
    owner (bot/ and engine/, discord.py, the rest: asyncio, aiohttp, the standard library);
    "held" is what is reachable from the bot object.
    """
    rng = random.Random(args.seed + size)
    fake = FakeDiscord()
    await fake.start()
    *games, spare = build_world(fake, 2 * n + 1, size, **world_options(args))
    untraced, traced = games[:n], games[n:]
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        bot = WireBot(fake, Path(folder), *bot_options(args))
        try:
            await connected(fake, [bot])
            driver = WireDriver(fake, max_plies=args.max_plies)
            # One game first, so first-use caches are not charged to the N measured.
            await burst(driver, [spare], rng=rng, waves=1)
            rss0 = (await bot.command("rss"))["rss"]
            for wave in kit.chunks(untraced, OPENING_WAVE):
                await burst(driver, list(wave), rng=rng, waves=1)
            rss1 = (await bot.command("rss"))["rss"]
            await bot.command("memory-begin")
            await burst(driver, traced, rng=rng, waves=1)
            after = await bot.command("memory-end")
        finally:
            await bot.stop()
            await fake.close()
        errors = bot.errors() + [f"unexpected request: {r}" for r in fake.unexpected]
    per = {owner: size_ / n for owner, size_ in after["owned"].items()}
    return {
        "discord": "local",
        "size": size,
        "games": n,
        "live": sum(not g.over and g.message_id is not None for g in traced),
        "live_rss": sum(not g.over and g.message_id is not None for g in untraced),
        "per_game_bytes": per,
        "bot_side_bytes": sum(per.values()),
        "held_per_game_bytes": after["held_bytes"] / n,
        "held_objects_per_game": after["held_objects"] / n,
        "gc_objects_per_game": after["gc_objects"] / n,
        "rss_per_game_bytes": (rss1 - rss0) / n,
        "errors": errors,
    }
