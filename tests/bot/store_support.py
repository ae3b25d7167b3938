"""What the store tests share: a server and the bot's ids, games to save (any field changed),
and tournaments to store and run. The stores themselves are fixtures (``tests/bot/conftest.py``:
``new_store``, ``store``, ``sqlite_store``)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from bot.games.record import Ending, GameRecord, Status
from bot.storage.base import Store
from bot.tournaments.store import TournamentStore
from bot.tournaments.tournament import Format, Join, Tournament

GUILD = 111
BOT_ID = 999
WHEN = datetime(2026, 11, 27, 18, 0, 0, 250000, tzinfo=UTC)


def game(gid: int, x: int = 1, o: int = 2, **changes: object) -> GameRecord:
    """A game between people in GUILD, in a channel of its own, with any field changed."""
    base = GameRecord(
        id=gid, guild_id=GUILD, channel_id=10_000 + gid, x_id=x, o_id=o, challenger_id=x
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def finished(gid: int, x: int, o: int, winner: str | None, **changes: object) -> GameRecord:
    """A game between x and o that ended with ``winner`` ("X", "O" or None for a draw)."""
    changes.setdefault("ending", Ending.DRAW if winner is None else Ending.WIN)
    return game(gid, x, o, status=Status.FINISHED, winner=winner, **changes)


def swiss_of(guild: int = GUILD, **changes: object) -> Tournament:
    """A new Swiss of three rounds in `guild`, with any field changed."""
    base = Tournament(0, guild, 500, 1, Format.SWISS, rounds=3, created_at=WHEN)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def arena_of(**changes: object) -> Tournament:
    """A new arena of 30 minutes, 4x4 four in a row, with any field changed."""
    base = Tournament(0, GUILD, 501, 1, Format.ARENA, size=4, k=4, minutes=30, created_at=WHEN)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


async def running(store: Store, tournament: Tournament, players: range) -> Tournament:
    """`tournament` stored, `players` joined (the first the strongest), and started."""
    tournaments = TournamentStore(store)
    made = await tournaments.create_tournament(tournament)
    for player in players:
        assert (
            await tournaments.join_tournament(made.id, player, rating=2000.0 - player)
            is Join.JOINED
        )
    assert await tournaments.start_tournament(made.id, at=WHEN)
    return made
