"""A click that arrives while a new board's message id is being saved is never lost.

A new game is saved, its board posted, then saved again with the board's message id. Players
who click the moment a board appears can click within that second save's wait (200 to 600 ms
in a burst). Here the second save is held open until the click has been answered, or cannot go
on because the game is locked: the click counts, the bot replies, and a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.games.record import Ending, GameRecord, Status
from devkit.simcord_board import board_message, cells, guild_with, text
from tests.bot.faults_support import moderator
from tests.bot.test_restart import restart
from tests.support.burst import _emit_click

HOLD_AT_MOST = 10.0  # seconds (real time): a click never answered must not hang the test


def hold_message_id_save(
    env: Env, channel: Any, meanwhile: Callable[[Any], Any | None]
) -> list[Any]:
    """Hold the first save of each game that carries a board's message id; while it is held,
    call `meanwhile(board)` (a click to deliver, whose result is appended to the returned list,
    or anything else, returning None) and let what it started run."""
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    cog: Any = bot.get_cog("ClickCog")
    store: Any = bot.store
    real_save = store.save_game
    noted: set[int] = set()
    results: list[Any] = []

    async def save_game(game: GameRecord) -> None:
        if game.message_id is not None and game.id not in noted:
            noted.add(game.id)
            result = meanwhile(board_message(channel))
            if result is not None:
                results.append(result)
            give_up = time.perf_counter() + HOLD_AT_MOST
            locked = cog.live.locks(game.id).locked()
            # The click runs to its answer, unless the game's lock holds it up; then a few
            # turns of the loop bring it to that lock while this save is still open.
            for turn in range(10_000_000):
                if time.perf_counter() > give_up or (result is not None and result.acknowledged):
                    break
                if (locked or result is None) and turn > 50:
                    break
                await asyncio.sleep(0)
        await real_save(game)

    store.save_game = save_game
    return results


def marks(env: Env, message: Any, size: int) -> list[str | None]:
    """The marks the board shows."""
    return [c.mark for c in cells(env, message, size)]


@pytest.mark.parametrize("size", [3, 5])
async def test_a_move_made_while_the_message_id_is_saved_is_kept_against_the_bot(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot], size: int
) -> None:
    """The player's first move, made before the board's id is stored, stays; the bot replies."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    centre = (size * size) // 2
    clicks = hold_message_id_save(
        simcord_env, channel, lambda board: _emit_click(alice, board, f"ttt:1:{centre}")
    )

    await alice.slash(channel, "tictactoe", size=size)

    message = board_message(channel)
    (click,) = clicks
    assert click.acknowledged and not click.ephemeral
    shown = marks(simcord_env, message, size)
    assert shown[centre] == "X" and shown.count("X") == 1 and shown.count("O") == 1
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.message_id == message.id
    assert len(stored.moves) == 2 and stored.moves[0] == centre

    await restart(simcord_env, make_bot)

    again = await simcord_env.bot.store.load_game(1)
    assert again is not None and again.moves == stored.moves
    assert again.message_id == message.id and again.status is Status.ACTIVE
    cell = next(i for i, mark in enumerate(shown) if mark is None)
    result = await alice.click(message, custom_id=f"ttt:1:{cell}")
    assert result.acknowledged and not result.ephemeral
    after = marks(simcord_env, message, size)
    assert after[cell] == "X" and after[centre] == "X" and after.count("O") == 2


@pytest.mark.parametrize("size", [3, 5])
async def test_an_accept_made_while_the_message_id_is_saved_is_kept_between_people(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot], size: int
) -> None:
    """Bob accepts before the challenge's id is stored: the game starts, and stays started."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    clicks = hold_message_id_save(
        simcord_env, channel, lambda board: _emit_click(bob, board, "ttt:1:accept")
    )

    await alice.slash(channel, "tictactoe", opponent=bob, size=size)

    message = board_message(channel)
    (accept,) = clicks
    assert accept.acknowledged and not accept.ephemeral
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)
    played = await alice.click(message, custom_id="ttt:1:0")
    assert played.acknowledged and not played.ephemeral
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.status is Status.ACTIVE
    assert stored.moves == (0,) and stored.message_id == message.id

    await restart(simcord_env, make_bot)

    again = await simcord_env.bot.store.load_game(1)
    assert again is not None and again.status is Status.ACTIVE and again.moves == (0,)
    answer = await bob.click(message, custom_id="ttt:1:1")
    assert answer.acknowledged and not answer.ephemeral
    assert marks(simcord_env, message, size)[:2] == ["X", "O"]


async def test_a_board_deleted_while_its_message_id_is_saved_ends_its_game(
    simcord_env: Env,
) -> None:
    """The deletion arrives before the id is stored: the game is still abandoned, the channel
    freed at once (not left busy, linking a deleted board, until the clock runs out)."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    mod = await moderator(simcord_env, guild)

    def delete(board: Any) -> None:
        simcord_env.backend.delete_message(board.channel.id, board.id)
        simcord_env._mark_mutation()

    hold_message_id_save(simcord_env, channel, delete)
    await alice.slash(channel, "tictactoe")

    gone = await simcord_env.bot.store.load_game(1)
    assert gone is not None and (gone.status, gone.ending) == (Status.FINISHED, Ending.ABANDONED)
    fresh = await mod.slash(channel, "tictactoe")
    assert fresh.acknowledged and not fresh.ephemeral
    assert simcord_env.errors == []
