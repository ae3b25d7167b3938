"""Engine calls as plain functions of picklable arguments, run in a worker thread or process.

Kept free of Discord and asyncio so a worker process imports only the engine.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import random
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

import engine
from bot.games.kinds import KINDS, Position
from engine import puzzles, ultimate
from engine.puzzles import Puzzle


def choose_move(
    kind: str, board: Position, level: str, seed: int | None, budget: float | None
) -> int:
    """The engine's move in a game of `kind`; `budget` (seconds) becomes a deadline on the
    worker's own clock."""
    # The deadline is taken here, not in the bot: a worker's monotonic clock is its own.
    deadline = time.monotonic() + budget if budget is not None else None
    rng = random.Random(seed) if seed is not None else None
    return KINDS[kind].best_move(board, level, rng, deadline)


def quick_move(kind: str, board: Position, level: str, seed: int | None) -> int | None:
    """The engine's move where it needs no search (a win, a block, the book), else None; with
    the same seed, `choose_move` plays the same move."""
    rng = random.Random(seed) if seed is not None else None
    return KINDS[kind].quick_move(board, level, rng)


def missed_wins(
    size: int, k: int, moves: tuple[int, ...], sides: tuple[str, ...], budget: float
) -> list[Puzzle]:
    """The puzzles a finished classic game left behind (``engine.puzzles.missed_wins``), the
    positions not judged within `budget` seconds of the worker's own clock left out."""
    deadline = time.monotonic() + budget
    return puzzles.missed_wins(size, k, moves, sides=sides, deadline=deadline)


def exit_with_parent() -> None:
    """In a worker process: end it as soon as the bot's process ends, even by SIGKILL.

    A pool worker otherwise waits for work forever after its parent is killed. Ctrl-C and
    SIGTERM, which reach the whole process group, are left to the bot's process: it stops its
    workers itself once the games in flight are saved (a worker would otherwise die with a
    KeyboardInterrupt traceback, or in the middle of a move).
    """
    for ending in (signal.SIGINT, signal.SIGTERM):
        signal.signal(ending, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])  # ready when the parent's end of the pipe closes
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def warm_up() -> int:
    """Load the engine's tables (3x3, the opening book, the trap book, the missed-win verdicts)
    in a fresh worker or thread, so the first real move (or game judged) is not the slow one."""
    engine.quick_move(engine.Board.empty(5, 4).play(12))  # reads the book
    engine.quick_move(engine.Board.empty(4, 4))  # reads the trap book
    puzzles.missed_at(engine.Board.empty(5, 3), 12)  # reads the verdicts
    ultimate.best_move(ultimate.UltimateBoard.empty(), level="hard")  # its evaluation's table
    return engine.best_move(engine.Board.empty(3))


def run(fn: Callable[..., Any], *args: Any) -> Any:
    """Call `fn(*args)`; a named module-level trampoline keeps submissions picklable."""
    return fn(*args)


def serve(conn: Connection) -> None:
    """An engine worker process's life: answer each call `conn` brings, ``(fn, args)``, with
    ``(True, fn(*args))`` or ``(False, the exception)``, until it brings None or closes."""
    exit_with_parent()
    while True:
        try:
            call = conn.recv()
        except EOFError:  # the bot's end is closed
            return
        if call is None:
            return
        try:
            _send(conn, _answer(*call))
        except BrokenPipeError:
            return


def send_result(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In a process of its own: send back ``(True, fn(*args))``, or ``(False, the exception)``."""
    exit_with_parent()
    _send(conn, _answer(fn, args))
    conn.close()


def _answer(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
    try:
        return (True, fn(*args))
    except Exception as exc:
        return (False, exc)


def _send(conn: Connection, reply: tuple[bool, Any]) -> None:
    try:
        conn.send(reply)  # pickled whole before a byte is written
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        conn.send((False, RuntimeError(f"an answer that cannot be sent back: {exc}")))
