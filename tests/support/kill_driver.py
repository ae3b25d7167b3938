"""A bot process to kill: plays games through SimCord on a real SQLite file, forever.

Run as ``python -m tests.support.kill_driver DB_PATH GAMES``. After every acknowledged click
it prints one JSON line with the game id and the board exactly as the message shows it, then
flushes, so whoever kills this process knows what the players had seen. Half the games are
against the bot, half between two members; a finished game is replaced by a new one.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import simcord

from bot.assembly import create_bot
from bot.config import Settings
from tests.bot.game_support import board_message, cells, challenge_buttons, free

ROUNDS = 10_000  # bounded: the test kills it long before this


def shown(env: simcord.Env, message: Any) -> tuple[int, list[str | None]]:
    """The game id on the message's buttons and the marks on its board."""
    board = cells(env, message, 3)
    game_id = int(board[0].custom_id.split(":")[1])
    return game_id, [c.mark for c in board]


async def start(env: simcord.Env, channel: Any, alice: Any, bob: Any, vs_bot: bool) -> Any:
    """A new game in the channel; between people, Bob accepts at once."""
    if vs_bot:
        await alice.slash(channel, "tictactoe")
        return board_message(channel)
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, custom_id=challenge_buttons(env, message)["Accept"]["custom_id"])
    return message


async def main(db: Path, games: int) -> None:
    """Play until killed."""
    rng = random.Random(len(str(db)))
    settings = Settings(
        token="simulated.bot.token", database_path=db, engine_workers=1, challenge_cooldown=0
    )
    async with simcord.run(create_bot(settings)) as env:
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        channels = [guild.create_text_channel(f"game-{i}") for i in range(games)]
        boards = [await start(env, ch, alice, bob, i % 2 == 0) for i, ch in enumerate(channels)]
        print("READY", flush=True)
        for _ in range(ROUNDS):
            for i, channel in enumerate(channels):
                message = boards[i]
                open_cells = free(env, message, 3)
                if not open_cells:
                    boards[i] = await start(env, channel, alice, bob, i % 2 == 0)
                    continue
                _, marks = shown(env, message)
                x_to_move = marks.count("X") == marks.count("O")
                player = alice if i % 2 == 0 or x_to_move else bob
                await player.click(message, custom_id=rng.choice(open_cells).custom_id)
                game_id, marks = shown(env, message)
                print(json.dumps({"game": game_id, "board": marks}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
