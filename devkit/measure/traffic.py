"""The load benchmarks' traffic patterns, whichever Discord the bot talks to: bursts of waves,
people's pace (spread), eager players and games alone, played by a `scenario.Players`."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from devkit.measure.scenario import Game, Players


async def burst(
    driver: Players, games: list[Game], *, rng: random.Random, waves: int | None = None
) -> None:
    """Open every game at once, then wave after wave of simultaneous clicks.

    The actions of a wave reach the bot one after another with no pause but a turn of the loop
    between them, the way discord.py's gateway reader hands them over.
    """
    opened = []
    for game in games:
        opened.append(driver.opened(game, await driver.start(game)))
        await asyncio.sleep(0)
    await asyncio.gather(*opened)
    done = 0
    while waves is None or done < waves:
        pending, moves = [], False
        for game in games:
            board = driver.refresh(game)
            if board is None or game.over or game.stuck:
                continue
            ready = await driver.click(game, board, rng)
            if ready is not None:
                moves = moves or not board.challenge
                pending.append(driver.move(game, ready, rng))
                await asyncio.sleep(0)
        if not pending:
            break
        await asyncio.gather(*pending)
        driver.tidy()
        done += moves


async def spread(
    driver: Players,
    games: list[Game],
    *,
    rng: random.Random,
    window: float,
    think: tuple[float, float],
) -> None:
    """Each game on its own: a random start, then `think` seconds (low, high) before each click."""

    async def play(game: Game, seed: int) -> None:
        mine = random.Random(seed)
        await asyncio.sleep(mine.uniform(0, window))
        board = await driver.opened(game, await driver.start(game))
        while board is not None and not board.over and not game.stuck:
            await asyncio.sleep(mine.uniform(*think))
            ready = await driver.click(game, board, mine)
            if ready is None:
                break
            board = await driver.answered(game, ready)

    await asyncio.gather(*(play(g, rng.getrandbits(32)) for g in games))


async def play_mode(
    mode: str, driver: Players, games: list[Game], *, rng: random.Random, args: Any
) -> None:
    """Play the games in one of the timed modes: burst (waves), eager (every game at once, each
    player clicking again as soon as the last click is answered, the bot's reply included, with
    no waves), spread, or alone (one after another)."""
    if mode == "burst":
        await burst(driver, games, rng=rng)
    elif mode == "eager":
        await spread(driver, games, rng=rng, window=0.0, think=(0.0, 0.0))
    elif mode == "alone":
        for game in games:
            await burst(driver, [game], rng=rng)
    else:
        await spread(driver, games, rng=rng, window=args.window, think=args.think)
