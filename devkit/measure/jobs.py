"""Work a benchmark sends to the bot's engine workers, measured where it runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[..., Any], *args: Any) -> float:
    """`fn(*args)` run in this process (a worker), and the CPU seconds it took there."""
    started = time.process_time()
    fn(*args)
    return time.process_time() - started
