"""How long a call to Discord may take: an interaction's answer only while it can still count,
and no call made while a game's lock is held for longer than the clicks waiting for it can spare.

Discord gives an interaction's first response 3 seconds. discord.py retries a call that Discord
failed (a 5xx: after 1, 3, 5 and 7 s; a 429: after its Retry-After) on its own, which can outlast
that window many times over, and whoever holds the game's lock meanwhile holds every other
click on the game. So each call is bounded: a click's, by what is left of its window (set for the
whole of its handler with `opened`); any other made under a game's lock (the bot's move, a
deadline, a board catching up), by what is left of `HOLD_BUDGET` since the lock was taken; none
outside a lock but an answer's. A call
cut short raises `Unanswered`, a ``discord.HTTPException``, so it goes the way of any other
refusal: the board is then behind, and catches up in the background (``cogs.games.behind``).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import discord

from bot.live.locks import held_since

T = TypeVar("T")
Interaction = discord.Interaction[Any]

WINDOW = 3.0  # seconds Discord waits for an interaction's first response
MARGIN = 0.25  # of which kept for the answer's way to Discord (and clocks that differ a little)
# Seconds from taking a game's lock without a click (the bot's move, a deadline, a board catching
# up) within which its calls to Discord end: a click waiting for the lock has the rest.
HOLD_BUDGET = 1.5

# Tasks answering a click under its game's lock -> the loop time its window closes at. By task,
# not by context: a task started meanwhile (a timer, an event) has no click's window.
_deadlines: weakref.WeakKeyDictionary[asyncio.Task[Any], float] = weakref.WeakKeyDictionary()


class Unanswered(discord.HTTPException):
    """A call to Discord that did not end while it could count: cut short, as Discord would
    have refused it (an interaction's answer after its window) or to let a game go."""

    def __init__(self, what: str, seconds: float) -> None:
        late = f"no answer from Discord within {seconds:.2f} s" if seconds else "no time left"
        Exception.__init__(self, f"{what}: {late}")
        self.response: Any = None
        self.status = 0
        self.code = 0
        self.text = str(self)


def closes_at(interaction: Interaction) -> float:
    """The loop time the interaction's window for a first response closes at (its id holds the
    moment Discord created it, as discord.py reads it for ``is_expired``)."""
    loop = asyncio.get_running_loop()
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    age = min(max(age, 0.0), WINDOW)  # a clock a little off either way counts as now
    return loop.time() - age + WINDOW - MARGIN


def left(interaction: Interaction) -> float:
    """Seconds left for the interaction's first response (0 once its window has closed)."""
    return max(0.0, closes_at(interaction) - asyncio.get_running_loop().time())


@contextlib.asynccontextmanager
async def opened(interaction: Interaction) -> AsyncIterator[None]:
    """While inside (its handler holding the game's lock), every call through `answer` and
    `call` ends by the interaction's window: the next click on the game must be answered in
    its own."""
    task = asyncio.current_task()
    assert task is not None
    _deadlines[task] = closes_at(interaction)
    try:
        yield
    finally:
        _deadlines.pop(task, None)


def budget() -> float | None:
    """Seconds the next call to Discord may take here: what is left of the click's window in a
    click's handler, of `HOLD_BUDGET` under any other hold of a game's lock, else no bound."""
    task = asyncio.current_task()
    deadline = _deadlines.get(task) if task is not None else None
    if deadline is None:
        since = held_since()
        deadline = None if since is None else since + HOLD_BUDGET
    if deadline is None:
        return None
    return max(0.0, deadline - asyncio.get_running_loop().time())


async def within(seconds: float | None, work: Awaitable[T], what: str) -> T:
    """`work`, cut short with `Unanswered` after `seconds` (None: as long as it takes)."""
    if seconds is None:
        return await work
    if seconds <= 0:
        if asyncio.iscoroutine(work):
            work.close()  # never started: nothing to wait for
        raise Unanswered(what, 0.0)
    try:
        # A timeout of the running task, not `wait_for`'s task of its own: every click's answer
        # comes through here.
        async with asyncio.timeout(seconds):
            return await work
    except TimeoutError:
        raise Unanswered(what, seconds) from None


async def answer(interaction: Interaction, work: Awaitable[T]) -> T:
    """An interaction's first response, tried only while it can count (and within `budget`)."""
    bound = budget()
    seconds = left(interaction) if bound is None else min(left(interaction), bound)
    return await within(seconds, work, "an answer")


async def update(interaction: Interaction, **fields: Any) -> None:
    """Answer a click by editing the message its button is on (within `answer`'s bound):
    `fields` as ``edit_message`` takes them (its view, its attachments)."""
    await answer(interaction, interaction.response.edit_message(**fields))


async def call(work: Awaitable[T], what: str = "an edit") -> T:
    """Any other call to Discord, within `budget`."""
    return await within(budget(), work, what)
