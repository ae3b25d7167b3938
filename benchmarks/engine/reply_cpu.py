"""CPU of the engine's reply on a click's path, where the reply needs no search (measured only).

    python benchmarks/engine/reply_cpu.py [--checkout DIR] [--positions 300] [--repeats 5]

The bot's `Thinking.reply` (what a click against the bot waits for before its one response:
the game with the engine's reply played) on 4x4 positions with 4 in a row, `unbeatable` to
move, where the reply needs no search (a win, a forced block, the trap book): positions of
seeded random games, the same for every checkout. The engine runner is started as the bot
starts it (its thread, one worker process, the tables loaded), then each position is replied
to in turn on the event loop, and the process's CPU (every thread of it) is divided by the
replies. --checkout DIR measures the bot of another checkout (an export of an older commit:
its own `bot/` and `engine/`) with this script, so before and after read the same way; run
them one after the other and compare medians of the repeats.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def positions(count: int, seed: int) -> list[Any]:
    """Games against the bot (4x4, 4 in a row, `unbeatable` as O) its reply needs no search in."""
    import engine
    from bot.games.record import GameRecord

    rng, found = random.Random(seed), []
    while len(found) < count:
        board, moves = engine.Board.empty(4, 4), []
        while board.outcome() is None and len(moves) < 10 and len(found) < count:
            move = rng.choice(list(board.legal_moves()))
            board, moves = board.play(move), [*moves, move]
            if not len(moves) % 2 or board.outcome() is not None:
                continue  # X to move, or over
            if engine.quick_move(board, level="unbeatable", rng=random.Random(1)) is not None:
                found.append(
                    GameRecord(
                        id=len(found) + 1,
                        guild_id=1,
                        channel_id=2,
                        x_id=3,
                        o_id=4,
                        challenger_id=3,
                        size=4,
                        k=4,
                        ai_side="O",
                        ai_level="unbeatable",
                        moves=tuple(moves),
                    )
                )
    return found


async def measure(args: argparse.Namespace) -> list[float]:
    """ms of CPU a reply, one figure per repeat."""
    from bot.cogs.games.flow.thinking import Thinking
    from bot.compute.runner import EngineRunner

    runner = EngineRunner(workers=1)
    await runner.start()
    try:
        thinking, games, figures = Thinking(runner), positions(args.positions, args.seed), []
        for _ in range(args.repeats):
            start = time.process_time()
            for game in games:
                await thinking.reply(game, 0.05)  # the classic kind's wait for the reply
            figures.append((time.process_time() - start) / len(games) * 1e3)
        return figures
    finally:
        runner.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parents[2]))
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.checkout).resolve()))  # its bot/ and engine/
    figures = asyncio.run(measure(args))
    listed = ", ".join(f"{f:.4f}" for f in figures)
    print(f"{args.checkout}: ms of CPU a reply {listed}; median {statistics.median(figures):.4f}")


if __name__ == "__main__":
    main()
