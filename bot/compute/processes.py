"""The engine's processes: the forkserver that starts them, and analyses run in a process of
their own, killed at their time limit (``EngineRunner.analyse``)."""

from __future__ import annotations

import contextvars
import multiprocessing
import signal
import threading
from collections.abc import Callable
from multiprocessing import forkserver
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.compute import jobs

T = TypeVar("T")


class AnalysisTimeout(TimeoutError):
    """An analysis needed more time than it was given; it was stopped."""


def run_limited(
    fn: Callable[..., T], args: tuple[Any, ...], limit: float, analysts: set[BaseProcess]
) -> T:
    # In an empty context: nothing of the caller's context (a test's simulated clock, say)
    # may reach multiprocessing's own waits, which read time.monotonic().
    return contextvars.Context().run(_run_process, fn, args, limit, analysts)


def _run_process(
    fn: Callable[..., T], args: tuple[Any, ...], limit: float, analysts: set[BaseProcess]
) -> T:
    context = multiprocessing.get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=jobs.send_result, args=(sender, fn, args), daemon=True)
    analysts.add(process)
    try:
        process.start()
        sender.close()
        if not receiver.poll(limit):
            raise AnalysisTimeout(f"analysis took over {limit:g} s")
        ok, value = receiver.recv()
    except EOFError as exc:
        raise RuntimeError("the analysis process ended without an answer") from exc
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join()
        analysts.discard(process)
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def start_forkserver() -> None:
    """Start the forkserver deaf to SIGINT and SIGTERM, as every engine process it forks is.

    Ctrl-C or SIGTERM sent to the bot's process group reaches them too. The bot's process
    stops them itself once the changes in flight are done; had the forkserver died at the
    signal, every worker would look dead to the pool (their exit is reported through it) and
    the move in flight would be lost; a worker just forked would die with a traceback. They
    still end with the bot's process, whatever kills it.
    """
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()  # signal dispositions can only be set on the main thread
        return
    endings = (signal.SIGINT, signal.SIGTERM)
    previous = [signal.signal(ending, signal.SIG_IGN) for ending in endings]
    try:
        forkserver.ensure_running()
    finally:
        for ending, handler in zip(endings, previous, strict=True):
            signal.signal(ending, handler)
