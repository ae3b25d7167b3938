"""Tournaments through a crash where it hurts: the bot SIGKILLed at the very call to Discord
whose result the tournament must remember, before Discord does it (the intent stored, the
call not made), while Discord does it (made, its answer never reaching the bot), or a few
milliseconds after the answer (the store write racing the kill); then started again on the same
SQLite file or PostgreSQL database, and what Discord holds read at the end.

The calls: a game's thread, a game's board in its thread (round 1's right after Start, round 2's
first and second), the announcement at ``create``, the final message, and the announcement's last
edit. Whatever the window, Discord ends with one announcement showing the final standings, one
thread a game named for its players, one board a thread, and one final message; the store agrees.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from bot.tournaments.board import score
from bot.tournaments.tournament import Pairing, Stage
from devkit.local_game import LocalBot, Table, texts, until
from devkit.local_tournament import COMMAND, announcement, boards, public, threads
from devkit.localdiscord import FakeDiscord
from devkit.localdiscord.faults import AFTER, BEFORE, DURING, Trap
from devkit.localdiscord.rest import NONCE_LIFE
from devkit.localdiscord.thread_model import Thread
from tests.bot.tournaments.tournament_support import Club, club, play_out, press, settled, started
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES

PLAYERS, ROUNDS = 4, 2  # two games a round, four in all
CREATE = f"{COMMAND} create"
MS = 0.005  # the kill "a few milliseconds after" Discord's answer
NOTICE = 0.2  # seconds before a player clicks a board that has just come up


@dataclass(frozen=True)
class Window:
    """Where the kill comes: the `nth` request of `route` in the tournament's channel or in
    a game's thread (`in_thread`), `when` (``faults.Trap``); `then_edit`: at the first edit of
    the channel after that request instead (the announcement's last edit)."""

    route: str
    when: Literal["before", "during", "after"]
    nth: int = 1
    in_thread: bool = False
    delay: float = 0.0
    then_edit: bool = False
    late: bool = False  # started again after the nonce's life, the channel busy meanwhile


WINDOWS = {
    "round 1's first board, during (right after Start)": Window("channel post", DURING, 1, True),
    "round 2's first thread, before": Window("thread create", BEFORE, 3),
    "round 2's first thread, during": Window("thread create", DURING, 3),
    "round 2's first thread, just after": Window("thread create", AFTER, 3, delay=MS),
    "round 2's first board, before": Window("channel post", BEFORE, 3, True),
    "round 2's first board, during": Window("channel post", DURING, 3, True),
    "round 2's second board, just after": Window("channel post", AFTER, 4, True, MS),
    "the announcement at create, during": Window("channel post", DURING, 1),
    "the final message, before": Window("channel post", BEFORE, 2),
    "the final message, during": Window("channel post", DURING, 2),
    "the final message, just after": Window("channel post", AFTER, 2, delay=MS),
    "the announcement's last edit, before": Window("channel post", AFTER, 2, then_edit=True),
    # Started again only after Discord has forgotten the nonce, 120 messages later: the post
    # made is found in the channel (or its thread), not made again.
    "round 2's first board, during, found late": Window("channel post", DURING, 3, True, late=True),
    "the announcement at create, during, found late": Window("channel post", DURING, 1, late=True),
    "the final message, during, found late": Window("channel post", DURING, 2, late=True),
}
CHATTER = 120  # members' messages while the bot is down, in a late window


@pytest.mark.parametrize("name", WINDOWS)
async def test_a_kill_at_a_call_to_discord_does_nothing_twice_and_loses_nothing(
    tmp_path: Path, name: str
) -> None:
    await crash_at(tmp_path, WINDOWS[name])


@pytest.mark.parametrize("name", WINDOWS)
async def test_the_same_kill_on_postgresql(tmp_path: Path, name: str, postgres_url: str) -> None:
    await crash_at(tmp_path, WINDOWS[name], DATABASE_URL=postgres_url)


async def crash_at(tmp_path: Path, window: Window, **env: str) -> None:
    fake = FakeDiscord()
    c = club(fake, PLAYERS)
    people = {u.id: u for u in c.members}
    await fake.start()
    bot, table = await started(fake, tmp_path, **env)
    killed = asyncio.Event()

    def kill() -> None:
        bot.kill()
        killed.set()

    def where(channel: int) -> bool:
        inside = isinstance(fake.channels.get(channel), Thread)
        return inside if window.in_thread else channel == c.games.id

    def then_edit() -> None:
        fake.trap(Trap("channel edit", BEFORE, kill, where=where))

    spring: Callable[[], None] = then_edit if window.then_edit else kill
    fake.trap(Trap(window.route, window.when, spring, window.nth, where, window.delay))

    def busy() -> None:  # Discord forgets the nonce while members talk
        fake.advance(NONCE_LIFE + 1)
        for n in range(CHATTER):
            fake.say(c.members[n % PLAYERS], c.games, f"chatter {n}")

    restarted = asyncio.create_task(restart(bot, killed, busy if window.late else None))
    try:
        await start_swiss(table, c, killed, restarted)
        played: set[int] = set()

        seen: dict[int, float] = {}  # threads made -> when all their boards were first up

        def ready() -> bool:
            """Every board of the round up for a moment (players take one to notice it: a kill
            a few milliseconds after the last board's post comes before their first click),
            one still to play, and the bot not restarting."""
            if killed.is_set() and not restarted.done():
                return False
            made = threads(fake, c.games)
            up = len(made) % (PLAYERS // 2) == 0 and all(boards(fake, t.id) for t in made)
            up = up and any(t.id not in played and len(boards(fake, t.id)) == 1 for t in made)
            since = seen.setdefault(len(made), time.monotonic()) if up else None
            return since is not None and time.monotonic() - since > NOTICE

        while not over(fake, c.games.id) or not restarted.done():
            await until(
                lambda: (over(fake, c.games.id) and restarted.done()) or ready(),
                "a board to play, or the end after the restart",
            )
            for thread in threads(fake, c.games):
                if thread.id in played or len(boards(fake, thread.id)) != 1:
                    continue
                played.add(thread.id)
                board = int(boards(fake, thread.id)[0]["id"])
                await play_out(table, fake.channels[thread.id], board, people)
        (t,), pairings = await settled(bot)
        games = pairings[t.id]
        assert t.stage is Stage.FINISHED
        # What Discord holds: one thread a game, one board a thread, named for the players.
        made = threads(fake, c.games)
        assert len(made) == len(games) == PLAYERS // 2 * ROUNDS, [x.name for x in made]
        assert sorted(x.id for x in made) == sorted(p.thread_id for p in games)
        for thread in made:
            assert len(boards(fake, thread.id)) == 1, thread.name
            assert "#" not in thread.name.partition(" · ")[2], thread.name
            for p in games:
                if p.thread_id == thread.id:
                    names = f"{people[p.x].name} vs {people[p.o].name}"
                    assert thread.name == f"R{p.round}.{p.board} · {names}"
        # One announcement showing the end and every result; one final message.
        mine = str(fake.bot_user.id)
        posted = [m for m in public(fake, c.games.id) if m["author"]["id"] == mine]
        finals = [m for m in posted if "🥇" in texts(m)]
        assert len(posted) == 2 and len(finals) == 1, [texts(m)[:40] for m in posted]
        assert int(finals[0]["id"]) == t.final_message_id
        shown = texts(announcement(fake, c.games))
        assert int(announcement(fake, c.games)["id"]) == t.message_id, bot.log()
        assert "Finished." in shown
        for player, points in scores(games).items():
            assert f"<@{player}> **{points}**" in shown, (player, points, shown)
        assert killed.is_set() and bot.starts == 2
    finally:
        restarted.cancel()
        await bot.stop()
        await fake.close()


async def restart(
    bot: LocalBot, killed: asyncio.Event, meanwhile: Callable[[], None] | None = None
) -> None:
    """Start the bot again once a trap has killed it (after `meanwhile`, if given)."""
    await killed.wait()
    if meanwhile is not None:
        meanwhile()
    await bot.start()


async def start_swiss(
    table: Table, c: Club, killed: asyncio.Event, restarted: asyncio.Task[None]
) -> None:
    """A Swiss of `ROUNDS` rounds created, joined by every member and started. Where the kill
    takes the announcement's post, the creator is never answered: the restarted bot finds the
    announcement and the members join there."""
    fake = c.discord
    options = {"format": "swiss", "rounds": ROUNDS}
    made = fake.interactions[await fake.slash(c.members[0], c.games, CREATE, **options)]
    await until(
        lambda: killed.is_set() or "Tournament created" in table.private(made), "the tournament"
    )
    if killed.is_set():
        await restarted
    await until(lambda: has_announcement(fake, c), "the announcement")
    board = announcement(fake, c.games)
    for member in c.members:
        await press(table, member, c.games, board, "join")
    await press(table, c.members[0], c.games, board, "start")


def has_announcement(fake: FakeDiscord, c: Club) -> bool:
    try:
        announcement(fake, c.games)
    except AssertionError:
        return False
    return True


def over(fake: FakeDiscord, channel_id: int) -> bool:
    return any("🥇" in texts(m) for m in public(fake, channel_id))


def scores(games: list[Pairing]) -> dict[int, str]:
    """Each player's score as the standings write it, from the stored results."""
    total: dict[int, float] = {}
    for p in games:
        assert p.result is not None
        total[p.x] = total.get(p.x, 0.0) + p.result
        total[p.o] = total.get(p.o, 0.0) + 1 - p.result
    return {player: score(points) for player, points in total.items()}
