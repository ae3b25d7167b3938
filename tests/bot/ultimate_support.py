"""What the tests of ultimate games share: a board message's buttons, their ids and labels, the
cells open to play, a move by the first open cell, and the stored game."""

from __future__ import annotations

from typing import Any

from simcord import Env

from bot.client import TicTacToeBot
from bot.games.record import GameRecord
from devkit.simcord_board import rows


def buttons(env: Env, message: Any) -> list[dict[str, Any]]:
    """Every button of the message, in order."""
    return [b for row in rows(env, message) for b in row]


def ids(env: Env, message: Any) -> list[str]:
    return [b["custom_id"].split(":", 2)[2] for b in buttons(env, message)]


def labels(env: Env, message: Any) -> list[str]:
    return [b.get("label", "") for b in buttons(env, message)]


async def stored(env: Env, game_id: int = 1) -> GameRecord:
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    game = await bot.store.load_game(game_id)
    assert game is not None
    return game


def open_cells(env: Env, message: Any) -> list[str]:
    """The ids of the cell buttons that can be clicked now ("40@2")."""
    return [
        b["custom_id"].split(":", 2)[2]
        for b in buttons(env, message)
        if not b["disabled"] and b["custom_id"].split(":")[2].split("@")[0].isdigit()
    ]


async def move(env: Env, player: Any, message: Any) -> Any:
    """Play the first open cell, picking the first open board first when free to choose."""
    if not open_cells(env, message):
        pick = next(
            b for b in buttons(env, message) if "pick" in b["custom_id"] and not b["disabled"]
        )
        picked = await player.click(message, custom_id=pick["custom_id"])
        assert picked.acknowledged and not picked.ephemeral
    cell = open_cells(env, message)[0]
    return await player.click(message, custom_id=f"ttt:{cell_game(env, message)}:{cell}")


def cell_game(env: Env, message: Any) -> int:
    return int(buttons(env, message)[0]["custom_id"].split(":")[1])
