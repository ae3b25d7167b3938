"""The members of a server playing a Swiss tournament through the local Discord: Create, Join
by the announcement's button, Start, and in each round a random free cell of their game's board
in its thread after a pause (`Swiss`); when the local Discord received what a click showed
(`shown`) and when it made a message (`created`), as seconds since 1970.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import random
import time
from typing import Any

from devkit.local_game import texts
from devkit.local_tournament import COMMAND, boards, custom_id, public
from devkit.localdiscord import Channel, FakeDiscord, Timing, User
from devkit.measure.boards import read_board, walk_components

SETTLE = 120.0  # seconds an answer may take before the run gives up


def wall(at: float) -> float:
    """A perf_counter time of this process (the local Discord's clock) as seconds since 1970."""
    return at + time.time() - time.perf_counter()


def created(message: dict[str, Any]) -> float:
    """When the local Discord made a message, as seconds since 1970."""
    return datetime.datetime.fromisoformat(message["timestamp"]).timestamp()


class Swiss:
    """The members of one server playing one Swiss tournament through the local Discord."""

    def __init__(self, fake: FakeDiscord, players: int, think: tuple[float, float], seed: int):
        self.fake = fake
        guild = fake.create_guild("club")
        self.channel = guild.create_text_channel("tournament")
        self.members = [guild.add_member(fake.create_user(f"player{i}")) for i in range(players)]
        guild.members_only.update(m.id for m in self.members[1:])  # the first: Manage Server
        self.people = {m.id: m for m in self.members}
        self.think = think
        self.rng = random.Random(seed)

    async def until(self, check: Any, channel_id: int, what: str) -> Any:
        """Wait for `check()` (woken by the local Discord's answers in the channel)."""
        event = self.fake.listeners.setdefault(channel_id, asyncio.Event())
        give_up = time.perf_counter() + SETTLE
        while not (found := check()):
            if time.perf_counter() > give_up:
                raise RuntimeError(f"gave up waiting for {what}")
            event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), 0.05)
        return found

    async def answered(self, iid: int) -> Timing:
        interaction = self.fake.interactions[iid]
        await self.until(lambda: interaction.answered, interaction.channel_id, "an answer")
        return self.fake.timings[iid]

    async def press(self, member: User, what: str) -> Timing:
        """A member waits, then presses the announcement's button; once answered."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        message = self.announcement()
        iid = await self.fake.click(
            what, member, self.channel, int(message["id"]), custom_id(message, what)
        )
        return await self.answered(iid)

    def announcement(self) -> dict[str, Any]:
        return next(
            m
            for m in public(self.fake, self.channel.id)
            if any(b.endswith(":join") or b.endswith(":start") for b in self._ids(m))
        )

    @staticmethod
    def _ids(message: dict[str, Any]) -> list[str]:
        return [
            b["custom_id"] for b in walk_components(message["components"]) if b.get("custom_id")
        ]

    async def open(self, rounds: int) -> Timing:
        """Create, everyone joins, Start: the Start press's answer."""
        creator = self.members[0]
        made = await self.fake.slash(
            creator, self.channel, f"{COMMAND} create", format="swiss", rounds=rounds
        )
        await self.answered(made)
        await self.until(
            lambda: any(self._ids(m) for m in public(self.fake, self.channel.id)),
            self.channel.id,
            "the announcement",
        )
        await asyncio.gather(*(self.press(m, "join") for m in self.members))
        return await self.press(creator, "start")

    async def play(self, thread: Channel) -> Timing | None:
        """A game's two players in its thread, a random free cell each turn after a pause; the
        click whose answer showed the result."""
        (message,) = await self.until(lambda: boards(self.fake, thread.id), thread.id, "a board")
        mid = int(message["id"])
        line = next(line for line in texts(message).splitlines() if " vs " in line)
        x, o = (int(part.split("<@")[1].split(">")[0]) for part in line.split(" vs "))
        last = None
        rng = random.Random(self.rng.getrandbits(32))
        while not (board := read_board(self.fake.messages[mid]["components"])).over:
            await asyncio.sleep(rng.uniform(*self.think))
            mover = self.people[x if board.taken % 2 == 0 else o]
            cell = f"ttt:{board.game_id}:{rng.choice(board.free)}"
            last = await self.answered(await self.fake.click("cell", mover, thread, mid, cell))

            def moved(before: int = board.taken) -> bool:
                shown = read_board(self.fake.messages[mid]["components"])
                return shown.over or shown.taken > before

            await self.until(moved, thread.id, "a move shown")
        return last


def shown(timing: Timing) -> float:
    """When the local Discord received what a click showed (the response, or its first edit
    after a deferred one), as seconds since 1970."""
    deferred = timing.ack_type in (5, 6) and timing.edits
    at = timing.edits[0] if deferred else timing.acked
    assert at is not None
    return wall(at)
