"""A gateway connection that drops: a game goes on across a reconnect (the session resumed, or a
new one), its clock and the bot's moves keep going, and a board deleted while the bot was not
listening is abandoned at its deadline."""

from __future__ import annotations

import pytest
from simcord import Env

from bot.games.record import Ending, Status
from devkit.simcord_board import board_message, game_id_of, guild_with
from tests.bot.faults_support import (
    answered_once,
    drop_gateway,
    marks,
    moderator,
    people_game,
    reconnect,
    restore_gateway,
    shows_store,
    stored,
)


@pytest.mark.parametrize("resume", [True, False], ids=["resumed", "new session"])
async def test_a_game_goes_on_across_a_gateway_reconnect(simcord_env: Env, resume: bool) -> None:
    """Reconnects between moves change nothing: the game plays to a win, counted once."""
    guild, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    readies: list[str] = []

    async def on_ready() -> None:
        readies.append("ready")

    simcord_env.bot.add_listener(on_ready)

    for player, cell in [(alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)]:
        await reconnect(simcord_env, resume=resume)
        result = await player.click(message, custom_id=f"ttt:{game}:{cell}")
        assert answered_once(result) and not result.ephemeral

    assert readies == ([] if resume else ["ready"] * 5)  # a new session really went through READY
    won = await stored(simcord_env, game)
    assert (won.ending, won.winner, won.moves) == (Ending.WIN, "X", (0, 3, 1, 4, 2))
    assert await shows_store(simcord_env, message, game)
    stats = await simcord_env.bot.store.player_stats(guild.id, alice.id)
    assert (stats.vs_people.wins, stats.vs_people.games) == (1, 1)
    assert simcord_env.errors == []


@pytest.mark.parametrize("resume", [True, False], ids=["resumed", "new session"])
async def test_the_clock_and_the_bot_keep_going_across_a_reconnect(
    simcord_env: Env, resume: bool
) -> None:
    """Against the bot: it still answers after a reconnect, and the turn deadline still fires."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    game = game_id_of(simcord_env, message)
    await alice.click(message, custom_id=f"ttt:{game}:4")

    await reconnect(simcord_env, resume=resume)
    free = next(i for i, m in enumerate(marks(simcord_env, message)) if m is None)
    result = await alice.click(message, custom_id=f"ttt:{game}:{free}")

    assert answered_once(result) and not result.ephemeral
    assert marks(simcord_env, message).count("O") == 2  # the bot replied
    await reconnect(simcord_env, resume=resume)
    await simcord_env.advance_time(301)
    over = await stored(simcord_env, game)
    assert (over.ending, over.winner) == (Ending.TIMEOUT, "O")
    assert await shows_store(simcord_env, message, game)
    assert simcord_env.errors == []


async def test_a_board_deleted_while_the_bot_was_not_listening_is_abandoned_at_its_deadline(
    simcord_env: Env,
) -> None:
    """The deletion is missed (no event): at the deadline the bot finds the board gone.

    Nobody could play a deleted board, so nobody forfeits: the game is abandoned, not lost.
    """
    guild, channel, alice, bob, message = await people_game(simcord_env)
    mod = await moderator(simcord_env, guild)
    game = game_id_of(simcord_env, message)
    await alice.click(message, custom_id=f"ttt:{game}:4")
    await drop_gateway(simcord_env)
    await mod.delete(message)
    await restore_gateway(simcord_env, resume=False)
    assert (await stored(simcord_env, game)).status is Status.ACTIVE  # the bot did not see it

    await simcord_env.advance_time(301)

    gone = await stored(simcord_env, game)
    assert (gone.status, gone.ending, gone.winner) == (Status.FINISHED, Ending.ABANDONED, None)
    for player in (alice, bob):
        stats = await simcord_env.bot.store.player_stats(guild.id, player.id)
        assert stats.vs_people.games == 0 and stats.rated_games == 0
    assert not (await bob.slash(channel, "tictactoe")).ephemeral
    assert simcord_env.errors == []
