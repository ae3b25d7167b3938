"""While the bot thinks on a big board (its searches held in the test): the event loop keeps
running, the board says so and clicks are refused, resigning ends the game and drops the
move, and a search that outlasts the wait goes on and is the bot's move."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from simcord import Env

from bot.cogs.games import flow
from bot.compute import jobs as engine_jobs
from bot.games import rules
from bot.games.record import Status
from devkit.simcord_board import (
    board_message,
    cells,
    game_id_of,
    guild_with,
    rows,
    text,
)
from tests.support import held_engine
from tests.support.burst import _emit_click


@contextmanager
def held_big_searches(
    bot: Any, gate: Path, on_end: Callable[[int], None] = lambda size: None, *, wait: bool = False
) -> Iterator[tuple[list[tuple[str, int]], asyncio.Event]]:
    """Hold the bot's 5x5 moves open: each is searched in the engine's process pool as usual,
    but handed back only once `gate` exists, so the bot thinks for as long as the test needs,
    however fast the engine is. Records when each move starts and ends (by board size), calls
    `on_end(size)` the moment a move comes back, and sets an event when a 5x5 move starts.

    A click's response does not wait for the reply (it would outlast any wait), so the player's
    move is shown first and the reply later; with `wait`, `flow.REPLY_WAIT` is left as it is.
    """
    events: list[tuple[str, int]] = []
    big_started = asyncio.Event()
    runner = bot.engine
    real_call, real_quick = runner.call, runner.quick_move

    async def quick_move(game: Any, **options: Any) -> Any:
        if game.size == 5:
            return None  # every 5x5 move is a search here
        if game.size != 3:
            return await real_quick(game, **options)
        events.append(("start", 3))  # a 3x3 move: the table, at once
        try:
            return await real_quick(game, **options)
        finally:
            on_end(3)
            events.append(("end", 3))

    async def call(search: bool, fn: Callable[..., Any], *args: Any, later: bool = False) -> Any:
        if fn is not engine_jobs.choose_move:
            return await real_call(search, fn, *args, later=later)
        size = args[1].size
        events.append(("start", size))
        if size == 5:
            big_started.set()
            fn = functools.partial(held_engine.choose_move_when_open, str(gate))
        try:
            return await real_call(search, fn, *args)
        finally:
            on_end(size)
            events.append(("end", size))

    runner.call, runner.quick_move = call, quick_move
    reply_wait = flow.REPLY_WAIT
    flow.REPLY_WAIT = reply_wait if wait else 0.0
    try:
        yield events, big_started
    finally:
        runner.call, runner.quick_move = real_call, real_quick
        flow.REPLY_WAIT = reply_wait
        gate.touch()  # never leave a worker waiting


async def while_the_bot_thinks(
    env: Env, first: tuple[Any, Any, str], big_started: asyncio.Event, then: list[Any]
) -> list[Any]:
    """Deliver `first` (a click that makes the bot think on 5x5), wait until the engine is
    computing, call each of `then` (snapshots, clicks to deliver, opening the gate), then let
    everything finish. Each item of `then` is a function of no arguments; its result is kept
    (awaited first where it is a coroutine).
    """
    env._begin_operation("while_the_bot_thinks")
    try:
        results = [_emit_click(*first)]
        await asyncio.wait_for(big_started.wait(), timeout=60)
        for step in then:
            result = step()
            results.append(await result if asyncio.iscoroutine(result) else result)
        await env._settle_internal(timeout=None, dispatch="INTERACTION_CREATE")
        return results
    finally:
        env._end_operation()


async def a_5x5_game(env: Env, player: Any, channel: Any) -> tuple[Any, int]:
    """A 5x5 game (4 in a row) against the unbeatable bot: the board and the game's id."""
    await player.slash(channel, "tictactoe", size=5)
    message = board_message(channel)
    return message, game_id_of(env, message, 5)


async def during_the_search(
    env: Env,
    gate: Path,
    player: Any,
    message: Any,
    game_id: int,
    steps: list[Any],
    on_end: Callable[[int], None] = lambda size: None,
) -> tuple[list[tuple[str, int]], list[Any]]:
    """`player` takes the 5x5 centre; `steps` run while the bot's reply is held (see above).

    Returns the engine's start/end events and the results of the click and of each step.
    """
    with held_big_searches(env.bot, gate, on_end) as (events, big_started):
        results = await while_the_bot_thinks(
            env, (player, message, f"ttt:{game_id}:12"), big_started, steps
        )
    return events, results


async def alice_plays_5x5(env: Env) -> tuple[Any, Any, int]:
    """Alice alone in #games with a 5x5 game against the bot: alice, the board, its game id."""
    _, channel, (alice,) = guild_with(env, "alice")
    message, game_id = await a_5x5_game(env, alice, channel)
    return alice, message, game_id


async def test_the_event_loop_keeps_running_while_the_bot_thinks_on_5x5(
    simcord_env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the engine's process works on a 5x5 reply, a 3x3 game in another channel goes on.

    The 5x5 reply is held open until the 3x3 game's reply has been saved, and the 3x3 click is
    delivered only once the 5x5 search has started: the 3x3 move and its reply are played and
    saved in between, which only a free event loop allows. (Were the loop blocked, the 3x3
    game could not move, and the held search would give up waiting and end first.)
    """
    guild, big, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    small = guild.create_text_channel("quick")
    big_board, big_id = await a_5x5_game(simcord_env, alice, big)
    await bob.slash(small, "tictactoe")
    small_board = board_message(small)
    small_id = game_id_of(simcord_env, small_board, 3)
    gate = tmp_path / "gate"
    store = simcord_env.bot.store
    real_save = store.save_game
    small_when_big_done: list[tuple[int, ...]] = []

    async def save_then_open(game: Any) -> None:
        await real_save(game)
        if game.id == small_id and len(game.moves) == 2:
            gate.touch()  # Bob's move and the bot's reply are saved: let the 5x5 move come back

    def note(size: int) -> None:
        if size == 5:
            small_when_big_done.append(
                simcord_env.bot.get_cog("ClickCog").flow.live.games.get(small_id).moves
            )

    monkeypatch.setattr(store, "save_game", save_then_open)
    events, _ = await during_the_search(
        simcord_env,
        gate,
        alice,
        big_board,
        big_id,
        [lambda: _emit_click(bob, small_board, f"ttt:{small_id}:0")],
        note,
    )

    assert events == [("start", 5), ("start", 3), ("end", 3), ("end", 5)]
    # When the 5x5 move came back, Bob's move and its reply were already played and saved.
    assert small_when_big_done == [(0, 4)]
    # Against a corner the only move that holds the draw is the centre.
    assert [c.mark for c in cells(simcord_env, small_board, 3)] == [
        "X",
        None,
        None,
        None,
        "O",
        None,
        None,
        None,
        None,
    ]
    big_marks = [c.mark for c in cells(simcord_env, big_board, 5)]
    assert big_marks[12] == "X" and big_marks.count("O") == 1


async def test_while_the_bot_thinks_the_board_says_so_and_clicks_are_refused(
    simcord_env: Env, tmp_path: Path
) -> None:
    """During the 5x5 search the board says the bot is thinking, and a click is told to wait."""
    alice, message, game_id = await alice_plays_5x5(simcord_env)
    bot_id = simcord_env.bot.user.id
    gate = tmp_path / "gate"
    seen: list[str] = []

    steps = [
        lambda: seen.append(text(simcord_env, message)),
        lambda: _emit_click(alice, message, f"ttt:{game_id}:0"),
        gate.touch,
    ]
    events, results = await during_the_search(simcord_env, gate, alice, message, game_id, steps)

    assert f"⭕ <@{bot_id}> is thinking…" in seen[0]
    first, _, second, _ = results
    assert first.acknowledged and not first.ephemeral
    assert second.acknowledged and second.ephemeral
    assert second.response.content == "I'm thinking about my move; one moment please."
    assert events == [("start", 5), ("end", 5)]
    marks = [c.mark for c in cells(simcord_env, message, 5)]
    assert marks[12] == "X" and marks[0] is None
    assert marks.count("X") == 1 and marks.count("O") == 1
    assert f"{alice.mention}, your move (❌)" in text(simcord_env, message)


async def test_resigning_while_the_bot_thinks_ends_the_game_and_drops_its_move(
    simcord_env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resign is not held up by the search: the search is let go only once the resignation is
    saved (were Resign waiting for it, the bot's move would come first, after the hold's limit);
    the move found afterwards is thrown away."""
    alice, message, game_id = await alice_plays_5x5(simcord_env)
    bot_id = simcord_env.bot.user.id
    gate = tmp_path / "gate"
    store = simcord_env.bot.store
    real_save = store.save_game

    async def save_then_open(game: Any) -> None:
        await real_save(game)
        if game.status is Status.FINISHED:
            gate.touch()  # the resignation is saved: the held search may end

    monkeypatch.setattr(store, "save_game", save_then_open)

    async def resign_in_two_clicks() -> tuple[Any, Any]:
        """Resign, then (once the board asks) Confirm resign, both during the search."""
        asked = _emit_click(alice, message, f"ttt:{game_id}:resign")
        for _ in range(10_000):
            confirm = [
                b["custom_id"]
                for row in rows(simcord_env, message)
                for b in row
                if b.get("label") == "Confirm resign"
            ]
            if confirm:
                return asked, _emit_click(alice, message, confirm[0])
            await asyncio.sleep(0)
        raise AssertionError("the board never asked to confirm")

    events, (_, (asked, resigned)) = await during_the_search(
        simcord_env, gate, alice, message, game_id, [resign_in_two_clicks]
    )

    assert events == [("start", 5), ("end", 5)]
    assert asked.acknowledged and not asked.ephemeral
    assert resigned.acknowledged and not resigned.ephemeral
    resignation = f"🏳️ {alice.mention} resigned. ⭕ <@{bot_id}> wins."
    assert resignation in text(simcord_env, message)
    marks = [c.mark for c in cells(simcord_env, message, 5)]
    assert marks.count("X") == 1 and marks.count("O") == 0  # no move after the resignation
    stored = await simcord_env.bot.store.load_game(game_id)
    assert stored is not None and stored.moves == (12,)


async def test_a_search_that_outlasts_the_wait_goes_on_and_is_the_bots_move(
    simcord_env: Env, tmp_path: Path
) -> None:
    """The wait for the bot's 5x5 reply runs out: the game comes back without the reply, the
    search goes on, and the bot's move, played later, is that search's answer: one search."""
    alice, message, game_id = await alice_plays_5x5(simcord_env)
    game_flow: Any = simcord_env.bot.get_cog("ClickCog").flow  # type: ignore[union-attr]
    gate = tmp_path / "gate"
    with held_big_searches(simcord_env.bot, gate, wait=True) as (events, big_started):
        async with game_flow.live.locks(game_id):
            moved = rules.move(game_flow.live.games.get(game_id), alice.id, 12)
            shown = await game_flow.with_reply(moved)  # waits REPLY_WAIT, then gives up
            assert shown == moved  # the player's move alone
            await game_flow.commit(shown)
        assert big_started.is_set() and events == [("start", 5)]  # still searching
        gate.touch()
        await game_flow.ai_move(game_id)

    assert events == [("start", 5), ("end", 5)]
    stored = await simcord_env.bot.store.load_game(game_id)
    assert stored is not None and stored.moves[0] == 12 and len(stored.moves) == 2
    marks = [c.mark for c in cells(simcord_env, message, 5)]
    assert marks[12] == "X" and marks.count("O") == 1
