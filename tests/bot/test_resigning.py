"""Resign asks for a second click: the board's Resign turns into Confirm resign for a few
seconds (the click's one response, an edit of the board), only the player who asked resigns by
it in time, the board puts Resign back afterwards, and the confirmation survives a restart
(its custom id carries who asked and until when)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord import Env

from bot.client import TicTacToeBot
from bot.cogs.games import resigning
from bot.games.record import Ending, Status
from devkit.simcord_board import (
    board_message,
    cells,
    controls,
    guild_with,
    people_game,
    rows,
    text,
)
from tests.bot.test_restart import restart
from tests.bot.ultimate_support import stored
from tests.support.forge import forged_click

WAIT = int(resigning.WINDOW)


def confirm_id(env: Env, message: Any) -> str:
    """The custom id of the board's Confirm resign button."""
    found = [
        b["custom_id"]
        for row in rows(env, message)
        for b in row
        if b.get("label") == "Confirm resign"
    ]
    assert len(found) == 1
    return found[0]


async def test_against_the_bot_resign_asks_on_the_board_and_the_second_click_resigns(
    simcord_env: Env,
) -> None:
    """Resign changes nothing but the board: Confirm resign (red) in its place, Hint kept, a
    line saying what to do; the stored game goes on. Confirm resign ends it, each click
    answered once on the board itself."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    asked = await alice.click(message, label="Resign")
    assert asked.acknowledged and not asked.ephemeral
    assert list(controls(simcord_env, message, 3)) == ["Hint", "Confirm resign"]
    button = controls(simcord_env, message, 3)["Confirm resign"]
    assert button["style"] == 4 and button["custom_id"].startswith("ttt:1:confirmx")
    assert f"{alice.mention}, click Confirm resign within {WAIT} seconds to resign" in text(
        simcord_env, message
    )
    assert (await stored(simcord_env)).status is Status.ACTIVE
    assert not any(c.disabled for c in cells(simcord_env, message, 3))

    done = await alice.click(message, label="Confirm resign")
    assert done.acknowledged and not done.ephemeral
    game = await stored(simcord_env)
    assert game.status is Status.FINISHED and game.ending is Ending.RESIGN
    assert f"🏳️ {alice.mention} resigned." in text(simcord_env, message)
    assert "Confirm resign" not in text(simcord_env, message)
    assert list(controls(simcord_env, message, 3)) == ["Rematch", "Review", "Replay"]


async def test_between_people_only_the_player_who_asked_resigns_by_it(simcord_env: Env) -> None:
    """Alice asks; Bob's click on her confirmation is his own first click (it asks for him and
    resigns nobody); his second click resigns him. Carol, outside the game, is refused."""
    _, alice, bob, carol, message = await people_game(simcord_env)
    await alice.click(message, label="Resign")
    outsider = await carol.click(message, label="Confirm resign")
    assert outsider.ephemeral and "This isn't your game" in outsider.response.content
    his = await bob.click(message, label="Confirm resign")
    assert his.acknowledged and not his.ephemeral
    assert (await stored(simcord_env)).status is Status.ACTIVE
    assert confirm_id(simcord_env, message).startswith("ttt:1:confirmo")
    assert f"{bob.mention}, click Confirm resign" in text(simcord_env, message)
    await bob.click(message, label="Confirm resign")
    game = await stored(simcord_env)
    assert game.ending is Ending.RESIGN and game.winner == "X"
    assert f"🏳️ {bob.mention} resigned. ❌ {alice.mention} wins." in text(simcord_env, message)


async def test_after_a_few_seconds_resign_comes_back_and_an_old_confirmation_asks_again(
    simcord_env: Env,
) -> None:
    """The time up, the board shows Resign again (through the interaction that asked); a
    click on the old confirmation (a stale board) asks again rather than resigns."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await alice.click(message, label="Resign")
    old = confirm_id(simcord_env, message)
    await simcord_env.advance_time(WAIT + 1)
    assert list(controls(simcord_env, message, 3)) == ["Hint", "Resign"]
    assert "Confirm resign" not in text(simcord_env, message)
    late = await forged_click(simcord_env, alice, message, old, channel=channel)
    assert late.acknowledged and not late.ephemeral
    assert (await stored(simcord_env)).status is Status.ACTIVE
    assert confirm_id(simcord_env, message) != old  # a new confirmation, a new time


async def test_a_move_after_asking_keeps_its_board(simcord_env: Env) -> None:
    """Alice asks, then plays instead: her move's board has Resign, and when the time is up
    nothing is put back over it."""
    _, alice, _, _, message = await people_game(simcord_env)
    await alice.click(message, label="Resign")
    await alice.click(message, custom_id="ttt:1:4")
    assert list(controls(simcord_env, message, 3)) == ["Resign"]
    shown = text(simcord_env, message)
    await simcord_env.advance_time(WAIT + 1)
    assert text(simcord_env, message) == shown
    assert (await stored(simcord_env)).moves == (4,)


async def test_a_confirmation_in_time_resigns_after_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """Nothing is kept in memory: after a restart the confirmation on the board still resigns
    in its time (the board is not taken for one behind its game)."""
    _, alice, bob, _, message = await people_game(simcord_env)
    await alice.click(message, custom_id="ttt:1:0")
    await bob.click(message, label="Resign")
    await restart(simcord_env, make_bot)
    done = await bob.click(message, label="Confirm resign")
    assert done.acknowledged and not done.ephemeral
    game = await stored(simcord_env)
    assert game.ending is Ending.RESIGN and game.winner == "X"
    assert f"🏳️ {bob.mention} resigned." in text(simcord_env, message)


async def test_a_forged_confirmation_only_asks(simcord_env: Env) -> None:
    """A confirmation id no board showed (no side, no time; or the other side's) asks to
    confirm, answered once, with no error."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    for forged in ("ttt:1:confirm", "ttt:1:confirmo99999999999"):
        result = await forged_click(simcord_env, alice, message, forged, channel=channel)
        assert result.acknowledged and not result.ephemeral
        assert confirm_id(simcord_env, message).startswith("ttt:1:confirmx")
    assert (await stored(simcord_env)).status is Status.ACTIVE
