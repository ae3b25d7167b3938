"""CPU of an idle bot process, with the loop-lag probe and without (measured only).

    python benchmarks/load/idle_cpu.py [--seconds 20] [--rounds 2]

The project's bot and the plain floor (`floors/game_bot.py --plain`), each in a process of its
own against a fresh local Discord (`wire.client.WireBot`), connected and doing nothing for
--seconds, in --rounds interleaved rounds: the process's CPU per second with the benchmarks'
loop-lag probe running (``begin``: a 10 ms ticker on its event loop) and without it
(``begin-cpu``). What the probe costs an idle process is in every CPU figure of a run that keeps
it, the bot's and the floor's alike.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.compare import FLOOR_SCRIPT
from devkit.localdiscord import FakeDiscord
from devkit.wire.client import WireBot


async def idle(floor: bool, begin: str, seconds: float) -> float:
    """ms of CPU a second of one idle process, measured between `begin` and ``end``."""
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        options = ("--plain",) if floor else ()
        bot = WireBot(fake, Path(folder), *options, **({"script": FLOOR_SCRIPT} if floor else {}))
        try:
            await bot.start()
            await asyncio.wait_for(fake.connected.wait(), 10.0)
            await bot.command(begin)
            await asyncio.sleep(seconds)
            end = await bot.command("end")
        finally:
            await bot.stop()
            await fake.close()
    return float((end["cpu"] + end["engine_cpu"]) * 1e3 / end["wall"])


async def main(args: argparse.Namespace) -> None:
    print("| round | process | with the probe, CPU ms/s | without, CPU ms/s |")
    print("|---:|---|---:|---:|")
    for number in range(1, args.rounds + 1):
        for floor in (True, False):
            probed = await idle(floor, "begin", args.seconds)
            bare = await idle(floor, "begin-cpu", args.seconds)
            name = "plain floor" if floor else "bot"
            print(f"| {number} | {name} | {probed:.1f} | {bare:.1f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
