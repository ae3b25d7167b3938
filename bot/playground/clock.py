"""Wall-clock time for the simulated Discord, and pages that show what the clock did.

A simulated Discord keeps time of its own that moves only when told to. In the playground it
follows the wall clock: about once a second it is moved to now, which runs every timer of the
bot's that fell due (a challenge that expired, a turn that ran out), and the server's regulars
make the clicks they had in mind (``regulars``); when the bot answered anything on its own,
the open pages are republished so the page shows it.

The preview serves the page's actions (a command, a click) on the same event loop; SimCord runs
one operation at a time, so a tick and an action are serialised by one lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simcord import Env
    from simcord.preview import Preview

    from bot.playground.regulars import Regulars

log = logging.getLogger(__name__)
TICK = 1.0  # seconds between two moves of the simulated clock


def start_at_wall_clock(env: Env) -> None:
    """Before the simulated Discord starts: make its clock read today's date and time."""
    # SimCord starts every world on a fixed date; a playground shows real times instead.
    env.backend.clock._epoch = datetime.now(UTC)


class WallClock:
    """Moves the simulated clock to now once a second; republishes pages the bot changed."""

    def __init__(self, env: Env, preview: Preview, regulars: Regulars | None = None) -> None:
        self._env = env
        self._preview = preview
        self._regulars = regulars
        self._turn = asyncio.Lock()  # a tick, or one page action, at a time
        self._seen_requests = len(env.http_requests)
        self._seen_errors = env.error_cursor
        serve: Callable[..., Awaitable[Any]] = preview._action

        async def one_at_a_time(*args: Any, **kwargs: Any) -> Any:
            async with self._turn:
                # Act at the current time, and show times ("runs out in 5 minutes") from now.
                await self._catch_up()
                preview.capture_time = env.now()
                try:
                    return await serve(*args, **kwargs)
                finally:
                    # The action has published every page itself.
                    self._seen_requests = len(env.http_requests)
                    self._report_errors()

        preview._action = one_at_a_time  # type: ignore[method-assign]

    async def run(self) -> None:
        """Tick until cancelled."""
        while True:
            await asyncio.sleep(TICK)
            async with self._turn:
                try:
                    await self.tick()
                except TimeoutError:
                    pass  # the bot is still busy (a deep analysis): the next tick shows it
                except Exception:
                    log.exception("the playground's clock failed a tick")

    async def tick(self) -> None:
        """Move the clock to now, let the regulars make the clicks now due; republish the pages
        if the bot did anything meanwhile."""
        await self._catch_up()
        if self._regulars is not None:
            await self._regulars.play()
        if len(self._env.http_requests) != self._seen_requests:
            await self._preview.refresh()
            self._seen_requests = len(self._env.http_requests)
        self._report_errors()

    async def _catch_up(self) -> None:
        behind = (datetime.now(UTC) - self._env.now()).total_seconds()
        if behind > 0:
            await self._env.advance_time(behind)

    def _report_errors(self) -> None:
        """Log what went wrong in the bot (SimCord keeps the bot's errors instead of logging)."""
        errors = self._env.errors_since(self._seen_errors)
        self._seen_errors += len(errors)
        for error in errors:
            log.error("error in the bot", exc_info=error)
