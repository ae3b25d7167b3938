"""The engine runner's processes: several workers start, analyses are stopped at their limit,
and only a search pays a process's round trip."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.games.flow.thinking import Thinking
from bot.compute import jobs
from bot.compute.processes import AnalysisTimeout
from bot.compute.runner import SHORTEST, EngineRunner, search_budget
from bot.games import kinds, review, rules
from bot.games.record import GameRecord
from engine import ultimate


def big_game(moves: tuple[int, ...]) -> GameRecord:
    """A 5x5 game (4 in a row) against the bot after `moves`."""
    return GameRecord(
        id=1,
        guild_id=1,
        channel_id=2,
        x_id=3,
        o_id=4,
        challenger_id=3,
        size=5,
        k=4,
        ai_side="X",
        ai_level="unbeatable",
        moves=moves,
    )


ROOT = Path(__file__).resolve().parents[2]

START_WITH_WORKERS = textwrap.dedent(
    """
    import asyncio, sys, tempfile
    from pathlib import Path
    import simcord
    from bot.assembly import create_bot
    from bot.config import Settings

    async def main():
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                token="simulated.bot.token", database_path=Path(folder) / "g.db", engine_workers=3
            )
            bot = create_bot(settings)
            try:
                async with simcord.run(bot, check_errors=False):
                    print("workers", len(bot.engine._processes.pids))
            finally:
                await bot.release()

    if __name__ == "__main__":
        asyncio.run(main())
    """
)


def test_a_bot_with_three_engine_workers_starts_them_all(tmp_path: Path) -> None:
    """Each worker is started in a clean context, so a simulated clock cannot stall the next."""
    script = tmp_path / "start.py"
    script.write_text(START_WITH_WORKERS)
    out = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["workers", "3"]


async def test_an_analysis_past_its_limit_raises_and_leaves_no_process() -> None:
    """A 5x5 analysis given less time than its process needs to start is stopped and reaped."""
    runner = EngineRunner(workers=1)
    await runner.start()
    try:
        with pytest.raises(AnalysisTimeout):
            await runner.analyse(True, review.hint, [0, 24, 4, 20], 5, 4, limit=0.01)
        assert not runner._analysts
        assert (await runner.analyse(False, review.hint, [0, 3, 1, 4], 3, 3, limit=5.0)).in_locale(
            None
        ) == ("Play C1: it wins now.")
    finally:
        runner.close()


async def test_a_big_board_move_leaves_the_loop_only_when_it_needs_a_search() -> None:
    """A win in one on 5x5 is found at once, with no round trip to a thread or a process; a
    position the book and the threats do not settle is searched in the process pool."""
    runner = EngineRunner(workers=1)
    await runner.start()
    pools: list[str] = []
    real_call = runner.call

    async def call(search: bool, fn: Any, *args: Any, later: bool = False) -> Any:
        pools.append("process" if search and runner._processes is not None else "thread")
        return await real_call(search, fn, *args, later=later)

    runner.call = call  # type: ignore[method-assign]
    try:
        win = big_game((0, 5, 1, 6, 2))  # XXX../OO.../...
        assert await runner.best_move(win, level="unbeatable", seed=1) == 3
        assert pools == []
        open_game = big_game((7, 4, 18, 19))  # ....O/..X../...../...XO/..... : off-book
        cell = await runner.best_move(open_game, level="unbeatable", seed=1)
        assert cell in rules.board_of(open_game).legal_moves()
        assert pools == ["process"]
    finally:
        runner.close()


async def test_a_move_found_on_the_loop_is_the_workers_move_for_the_same_seed() -> None:
    """The quick move, found on the event loop, is the move the engine's worker functions play
    with the same seed (3x3's table, 4x4's trap book, 5x5's book and threats), at every level;
    where it finds none, the worker's quick move finds none either."""
    runner = EngineRunner(workers=1)  # no pool is needed for a move that needs no search
    rng, found, none = random.Random(7), 0, 0
    for size, k in ((3, 3), (4, 3), (4, 4), (5, 3), (5, 4)):
        for level in kinds.CLASSIC.levels:
            moves: tuple[int, ...] = ()
            while len(moves) < 8:
                game = dataclasses.replace(big_game(moves), size=size, k=k, ai_level=level)
                if rules.board_of(game).outcome() is not None:
                    break
                seed = rng.getrandbits(64)
                cell = await runner.quick_move(game, level=level, seed=seed)
                board = kinds.CLASSIC.position(game)
                if size > 3:
                    assert cell == jobs.quick_move("classic", board, level, seed)
                if cell is not None:  # the move a worker's search would have played too
                    assert cell == jobs.choose_move("classic", board, level, seed, 0.1)
                found, none = found + (cell is not None), none + (cell is None)
                free = sorted(rules.board_of(game).legal_moves())
                moves = (
                    *moves,
                    cell if cell is not None and rng.random() < 0.5 else rng.choice(free),
                )
    assert found > 100 and none > 0  # both kinds of answer were compared


def ultimate_game(moves: tuple[int, ...]) -> GameRecord:
    """An ultimate game against the bot at its strongest level after `moves`."""
    return GameRecord(
        id=2,
        guild_id=1,
        channel_id=2,
        x_id=3,
        o_id=4,
        challenger_id=3,
        size=9,
        k=3,
        ai_side="O",
        ai_level="expert",
        moves=moves,
        kind="ultimate",
    )


async def test_an_ultimate_search_runs_in_a_thread_of_the_bot_not_a_process() -> None:
    """The compiled search lets go of the GIL: it runs in the search threads, no process's
    round trip, and its CPU is counted."""
    assert ultimate.NATIVE, "the compiled core is built by the install (pip install -e .)"
    runner = EngineRunner(workers=1)
    await runner.start()
    pools: list[str] = []
    real_call = runner.call

    async def call(search: bool, fn: Any, *args: Any, later: bool = False) -> Any:
        pools.append("process" if search else "thread")
        return await real_call(search, fn, *args, later=later)

    runner.call = call  # type: ignore[method-assign]
    try:
        game = ultimate_game((40,))
        cells = await asyncio.gather(*(runner.best_move(game, level="expert") for _ in range(3)))
        legal = set(kinds.of(game).position(game).legal_moves())
        assert set(cells) <= legal
        assert "process" not in pools
        assert runner.search_cpu > 0
        assert runner.searching == runner.pending == 0
    finally:
        runner.close()


def test_a_search_gets_its_whole_budget_when_nothing_waits() -> None:
    assert search_budget(0.2, 0.45, 0, 1) == 0.2


def test_a_burst_of_searches_shares_the_time_left_before_the_click_s_wait_ends() -> None:
    """Sixty searches queued at once on one thread: each gets its share of the wait, so all of
    them answer within it; on two threads each thread runs half of them."""
    first = search_budget(0.2, 0.45, 59, 1)
    assert first == pytest.approx(0.45 / 60)
    assert search_budget(0.2, 0.45, 59, 2) == pytest.approx(0.45 / (1 + 59 / 2))
    # Each later one starts when the earlier ones are done and gets the same share again.
    left, spent = 0.45, 0.0
    for waiting in range(59, -1, -1):
        budget = search_budget(0.2, left - spent, waiting, 1)
        spent += budget
    assert spent == pytest.approx(0.45)


def test_a_search_past_the_wait_still_gets_the_shortest_search() -> None:
    assert search_budget(0.2, -1.0, 10, 1) == SHORTEST


async def test_a_killed_engine_worker_is_started_again_and_said_in_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker killed (by the operating system, out of memory) breaks its pool for good: the
    search that finds it broken gets a new pool, warmed, and its move from it; one line is
    logged, no traceback; the searches after it run in the new workers."""
    runner = EngineRunner(workers=1)
    await runner.start()
    try:
        before = runner._processes
        assert before is not None
        dead = before.pids
        for pid in dead:
            os.kill(pid, signal.SIGKILL)
        open_game = big_game((7, 4, 18, 19))  # off-book: a search in the pool
        with caplog.at_level(logging.INFO):
            cell = await runner.best_move(open_game, level="unbeatable", seed=1)
        assert cell in rules.board_of(open_game).legal_moves()
        assert runner._processes is not before
        lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [r.getMessage() for r in lines] == ["an engine worker process died; 1 started again"]
        assert all(r.exc_info is None for r in caplog.records)
        alive = runner._processes.pids  # type: ignore[union-attr]
        assert alive and not set(alive) & set(dead)
        again = await runner.best_move(big_game((7, 4, 18, 19, 12)), level="hard", seed=2)
        assert again in rules.board_of(big_game((7, 4, 18, 19, 12))).legal_moves()
        assert runner._processes.pids == alive  # type: ignore[union-attr]
    finally:
        runner.close()


async def test_an_engine_closed_under_a_search_is_one_line_and_a_legal_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A click's reply asked of an engine already closed (the bot stopping): any legal move,
    one line, no traceback (a traceback is kept for a bug in the engine itself)."""
    runner = EngineRunner(workers=1)
    await runner.start()
    runner.close()
    open_game = big_game((7, 4, 18, 19))
    with caplog.at_level(logging.INFO):
        cell = await Thinking(runner).cell(open_game)
    assert cell in rules.board_of(open_game).legal_moves()
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].exc_info is None, lines
    assert lines[0].getMessage().startswith("no engine for game 1 (")


@pytest.mark.tracebacks  # the test's own bug, logged as one
async def test_an_engine_that_raises_while_open_is_a_bug_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The same error class as a closed engine's (RuntimeError), raised by an engine still
    open, is a bug: the game gets a legal move and the log its traceback."""
    runner = EngineRunner(workers=1)
    await runner.start()
    try:

        async def broken(game: GameRecord, *, level: str, seed: int) -> int | None:
            raise RecursionError("a bug in the engine")

        runner.quick_move = broken  # type: ignore[method-assign]
        open_game = big_game((7, 4, 18, 19))
        with caplog.at_level(logging.INFO):
            replied = await Thinking(runner).reply(open_game, 1.0)
        assert len(replied.moves) == len(open_game.moves) + 1
        assert replied.moves[-1] in rules.board_of(open_game).legal_moves()
        lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1 and lines[0].exc_info is not None, lines
        assert lines[0].getMessage() == "engine failed in game 1; playing a random move"
    finally:
        runner.close()
