"""What the tournament tests share: a server with the bot and its members, the bot started
against the local Discord, what its store holds, and members who play their boards to the end
(reading the tournament as the local Discord holds it: ``devkit/local_tournament.py``)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.assembly import postgres_store, sqlite_store
from bot.storage.base import Store
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import LIVE, Pairing, Tournament
from devkit.local_game import WAIT, LocalBot, Table, texts, until
from devkit.local_tournament import COMMAND, announcement, boards, custom_id, threads
from devkit.localdiscord import Channel, FakeDiscord, User
from devkit.localdiscord.thread_model import Thread


@dataclass
class Club:
    """A server with the bot: #games, and its members (the first creates tournaments; the
    others lack Manage Server)."""

    discord: FakeDiscord
    games: Channel
    members: list[User]


def club(discord: FakeDiscord, players: int) -> Club:
    guild = discord.create_guild("club")
    games = guild.create_text_channel("games")
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"][:players]
    members = [guild.add_member(discord.create_user(name)) for name in names]
    guild.members_only.update(member.id for member in members[1:])
    return Club(discord, games, members)


async def started(discord: FakeDiscord, folder: Path, **env: str) -> tuple[LocalBot, Table]:
    bot = LocalBot(discord, folder, **env)
    await bot.start()
    return bot, Table(discord)


async def stored(bot: LocalBot) -> tuple[list[Tournament], dict[int, list[Pairing]]]:
    """Every tournament the bot's store holds (live or not), and their pairings: its SQLite
    file, or its PostgreSQL database where ``DATABASE_URL`` is set."""
    url = bot.env.get("DATABASE_URL")
    store: Store = sqlite_store(bot.database) if url is None else postgres_store(url)
    await store.open()
    tournaments = TournamentStore(store)
    try:
        found = []
        for tid in range(1, 20):
            t = await tournaments.get_tournament(tid)
            if t is not None:
                found.append(t)
        return found, {t.id: await tournaments.pairings(t.id) for t in found}
    finally:
        await store.close()


async def settled(bot: LocalBot) -> tuple[list[Tournament], dict[int, list[Pairing]]]:
    """What `stored` gives once no tournament is open or running (the podium is posted just
    before the tournament is stored as over), waited for."""
    give_up = time.monotonic() + WAIT
    while True:
        found, pairings = await stored(bot)
        if all(t.stage not in LIVE for t in found) or time.monotonic() > give_up:
            return found, pairings
        await asyncio.sleep(0.05)


async def create(table: Table, user: User, channel: Channel, **options: Any) -> Any:
    """/tictactoe-tournament create, answered at once (deferred) and then told how it went: the
    interaction once its private answer is there."""
    made = await table.command(user, channel, f"{COMMAND} create", **options)
    await until(
        lambda: "Tournament created" in table.private(made),
        f"the tournament created (said: {table.private(made)!r})",
    )
    return made


async def filled(table: Table, c: Club, **options: Any) -> dict[str, Any]:
    """A tournament created by the club's first member with `options`, every member joined by
    its Join button; its announcement."""
    await create(table, c.members[0], c.games, **options)
    board = announcement(c.discord, c.games)
    for member in c.members:
        await press(table, member, c.games, board, "join")
    return board


async def press(
    table: Table, user: User, channel: Channel, message: dict[str, Any], what: str
) -> Any:
    """Press an announcement's button; the interaction, once answered."""
    iid = await table.discord.click(
        what, user, channel, int(message["id"]), custom_id(message, what)
    )
    return await table.answered(iid)


async def play_out(table: Table, thread: Channel, message_id: int, people: dict[int, User]) -> None:
    """The two players of a board move in turn (the lowest free cell) until the game is over."""
    text = texts(table.message(message_id))
    line = next(line for line in text.splitlines() if " vs " in line)
    x, o = (int(part.split("<@")[1].split(">")[0]) for part in line.split(" vs "))
    while table.free(message_id):
        before = table.marks(message_id)
        mover = people[x if before % 2 == 0 else o]
        await table.click(mover, thread, message_id, table.free(message_id)[0])
        await until(
            lambda n=before: table.marks(message_id) > n or not table.free(message_id),
            f"a move shown on board {message_id}",
        )


async def first_game_played(table: Table, c: Club, rounds: int = 2) -> tuple[Thread, Thread]:
    """A Swiss of `c`'s four members (created by the first, joined by all, started) whose
    round 1 has its two threads, a board in each, and its first game played out (its thread
    archived); the two threads, the first finished, the second's game not begun."""
    fake = c.discord
    people = {u.id: u for u in c.members}
    await create(table, c.members[0], c.games, format="swiss", rounds=rounds)
    board = announcement(fake, c.games)
    for member in c.members:
        await press(table, member, c.games, board, "join")
    await press(table, c.members[0], c.games, board, "start")
    await until(lambda: len(threads(fake, c.games)) == 2, "round 1's two threads")
    first, second = threads(fake, c.games)
    for thread in (first, second):
        await until(lambda t=thread: len(boards(fake, t.id)) == 1, "a board in each thread")
    await play_out(table, fake.channels[first.id], int(boards(fake, first.id)[0]["id"]), people)
    await until(lambda: first.archived, "the first game's thread archived")
    return first, second
