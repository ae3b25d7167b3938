"""The path of one click through bot/: few modules, the game loaded once, the custom id read once.

A profiler on the event loop's thread records every bot function that runs while a player's
click on a 3x3 board against the bot is handled, the bot's reply included: in the tasks that
handle the click and in the loop's callbacks (a save's answer), not in another event's task
that happens to run meanwhile (a late ``on_ready`` on a busy machine). Run with ``-s`` to see
the modules and the calls between them.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from simcord import Env

from devkit.simcord_board import board_message, cells, guild_with

BOT = Path(__file__).resolve().parents[2] / "bot"
# The click's own path: routing, the game's record and rules, the flow (its changes, showing the
# board, the engine's reply: ``cogs/games/flow``), the live state (the game, its lock, its
# board's status, its deadline: ``bot.live``), the store (and its thread:
# ``bot.storage.worker``; a save that finds it idle is written on the loop's thread:
# ``sqlite_writes``, the SQL of ``queries`` and the rows of ``schema``), the engine's lookup,
# and the board drawn (its layout, its grid, and the look a server chose for it: marks, input),
# and the game's kind (``bot.games.kinds``: the registry, the contract, classic's rules and cells),
# the answer's window (``bot.discord_ui.time_limits``: no call outlives the click's 3 s), and what
# of Discord's answer to the response is read (``bot.discord_ui.gateway``: not its message).
MAX_MODULES = 24
CORE = ("live/", "cogs/games/flow")  # the live state's owners and the game flow


def bot_module(frame: FrameType | None) -> str | None:
    """The bot module a frame runs in ("cogs/games/flow/__init__.py"), or None outside bot/."""
    if frame is None:
        return None
    path = Path(frame.f_code.co_filename)
    return str(path.relative_to(BOT)) if path.is_relative_to(BOT) else None


class PathTrace:
    """Bot modules entered, calls from one bot module to another, and calls by function name,
    by the task they ran in (None: a callback of the loop's); `keep` the click's."""

    def __init__(self) -> None:
        self.tasks: dict[asyncio.Task[Any] | None, PathTrace] = {}
        self.modules: Counter[str] = Counter()
        self.crossings = 0
        self.calls: Counter[str] = Counter()

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = bot_module(frame)
        if module is None:
            return
        own = self.tasks.setdefault(asyncio.current_task(), PathTrace())
        own.modules[module] += 1
        own.calls[f"{module}:{frame.f_code.co_name}"] += 1
        caller = bot_module(frame.f_back)
        if caller is not None and caller != module:
            own.crossings += 1

    def keep(self) -> None:
        """Count only the tasks that handled the click, and the loop's callbacks."""
        for task, seen in self.tasks.items():
            if task is None or "cogs/games/clicks.py" in seen.modules:
                self.modules += seen.modules
                self.calls += seen.calls
                self.crossings += seen.crossings


async def test_a_cell_click_against_the_bot_passes_few_modules(simcord_env: Env) -> None:
    """3x3 against the bot: few bot modules, one load of the game, one read of the id."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:4")  # the first click on the board warms up

    trace = PathTrace()
    sys.setprofile(trace)
    try:
        result = await alice.click(message, custom_id=f"ttt:1:{_free_corner(simcord_env, message)}")
    finally:
        sys.setprofile(None)
    trace.keep()

    assert result.acknowledged and not result.ephemeral
    assert sum(c.mark == "O" for c in cells(simcord_env, message, 3)) == 2  # the bot replied
    print(f"\n{len(trace.modules)} bot modules, {trace.crossings} calls between them:")
    for module, count in trace.modules.most_common():
        print(f"  {module}: {count} calls")
    core = {call: n for call, n in trace.calls.items() if call.startswith(CORE)}
    print(f"{sum(core.values())} calls into the live state and the flow:")
    for call, count in sorted(core.items()):
        print(f"  {call}: {count}")
    assert len(trace.modules) <= MAX_MODULES, sorted(trace.modules)
    assert trace.calls["cogs/games/flow/__init__.py:load"] == 1
    assert trace.calls["live/games.py:get"] == 1  # the game read once: its change says the rest
    assert trace.calls["discord_ui/board.py:parse_id"] == 1


def _free_corner(env: Env, message: Any) -> int:
    board = cells(env, message, 3)
    return next(cell for cell in (0, 2, 6, 8) if board[cell].mark is None)


def _requests_during(env: Env) -> Callable[[], list[tuple[str, str]]]:
    """The REST calls the bot makes from now on, as (method, path) once asked."""
    start = len(env.http_requests)
    return lambda: [(r.method, r.path) for r in env.http_requests[start:]]


async def test_a_3x3_click_against_the_bot_is_one_response_with_both_moves(
    simcord_env: Env,
) -> None:
    """The bot's 3x3 reply is a table lookup: the click's one response shows the player's move
    and the bot's; nothing is edited afterwards."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    made = _requests_during(simcord_env)

    result = await alice.click(message, custom_id="ttt:1:0")

    assert result.acknowledged and not result.ephemeral and not result.followups
    assert [method for method, path in made() if "/callback" in path] == ["POST"]
    assert len(made()) == 1, made()
    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks[0] == "X" and marks.count("O") == 1
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and len(stored.moves) == 2  # both moves saved, in one save


async def test_the_bot_opening_3x3_posts_its_first_move_with_the_board(simcord_env: Env) -> None:
    """When the bot starts on 3x3, the board is posted with its first move on it: one response."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    made = _requests_during(simcord_env)

    result = await alice.slash(channel, "tictactoe", first="opponent")

    assert result.acknowledged and not result.ephemeral and not result.followups
    assert len([path for _, path in made() if "/callback" in path]) == 1
    assert not [path for method, path in made() if method == "PATCH"], made()
    marks = [c.mark for c in cells(simcord_env, board_message(channel), 3)]
    assert marks.count("X") == 1 and marks.count("O") == 0  # the bot plays X when it starts


async def test_a_5x5_click_against_the_bot_is_one_response_with_both_moves(
    simcord_env: Env,
) -> None:
    """On 5x5 the reply is a search, answered here well within the click's wait for it: the
    click's one response shows the player's move and the bot's, saved together."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=5)
    message = board_message(channel)
    made = _requests_during(simcord_env)

    result = await alice.click(message, custom_id="ttt:1:12")

    assert result.acknowledged and not result.ephemeral and not result.followups
    assert len(made()) == 1 and "/callback" in made()[0][1], made()
    marks = [c.mark for c in cells(simcord_env, message, 5)]
    assert marks[12] == "X" and marks.count("O") == 1
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and len(stored.moves) == 2


async def test_the_bot_opening_5x5_posts_its_first_move_with_the_board(simcord_env: Env) -> None:
    """When the bot starts on 5x5 and its search answers in time, the board is posted with its
    first move on it: one response, no edit."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    made = _requests_during(simcord_env)

    result = await alice.slash(channel, "tictactoe", first="opponent", size=5)

    assert result.acknowledged and not result.ephemeral and not result.followups
    assert not [path for method, path in made() if method == "PATCH"], made()
    marks = [c.mark for c in cells(simcord_env, board_message(channel), 5)]
    assert marks.count("X") == 1 and marks.count("O") == 0
