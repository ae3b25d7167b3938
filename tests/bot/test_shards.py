"""Shards across processes: who owns which server, what each process loads and syncs, and the
settings that would split one SQLite file between processes refused at start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import simcord
from discord.ext import commands

from bot.assembly import create_bot, postgres_store
from bot.client import ShardedTicTacToeBot, TicTacToeBot, identify_delay
from bot.config import ConfigError, Settings, Shards, load_settings
from tests.bot.store_support import game

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "simulated.bot.token"


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A realistic server id that lives on ``shard`` of ``count``."""
    return ((1_000_000 + n * count + shard) << 22) | 12345


def test_a_server_belongs_to_the_shard_of_its_id() -> None:
    """(guild_id >> 22) % count picks the shard; direct messages belong to shard 0."""
    two = Shards(count=4, ids=(2, 3), auto=True)
    assert [two.owns(guild_on(s, 4)) for s in range(4)] == [False, False, True, True]
    assert not two.owns(None) and Shards(count=4, ids=(0,), auto=True).owns(None)
    assert Shards().owns(guild_on(3, 4)) and Shards().owns(None)  # unsharded: everything
    assert two.partial and not Shards(count=2, ids=(0, 1)).partial


@pytest.mark.parametrize(
    ("raw", "ids"), [("0-3", (0, 1, 2, 3)), ("5", (5,)), ("0,2, 4-5", (0, 2, 4, 5)), ("", None)]
)
def test_shard_ids_are_read_as_ranges(raw: str, ids: tuple[int, ...] | None) -> None:
    """SHARD_IDS takes single ids and ranges; left empty, the process runs every shard."""
    env = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "8", "SHARD_IDS": raw}
    env["DATABASE_URL"] = "postgresql://bot@db/games"
    shards = load_settings(env).shards
    assert shards.count == 8 and shards.auto and shards.ids == (ids or tuple(range(8)))


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, "set DATABASE_URL to a PostgreSQL database"),
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-4"}, "from 0 to 3 such as 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "not 'a'"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
    ],
)
def test_bad_shard_settings_are_one_line(env: dict[str, str], says: str) -> None:
    """A partial shard range on SQLite, or a malformed one, is refused with one line."""
    with pytest.raises(ConfigError, match=says) as info:
        load_settings({"DISCORD_TOKEN": TOKEN, **env})
    assert "\n" not in str(info.value)


def test_every_shard_in_one_process_may_use_sqlite() -> None:
    """SHARD_COUNT alone runs every shard here: one process, so one SQLite file is fine."""
    shards = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2"}).shards
    assert shards.ids == (0, 1) and not shards.partial


def test_a_partial_range_on_sqlite_stops_the_start() -> None:
    """The bot refuses to start, exit code 2, one line and no traceback."""
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "1"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "DATABASE_URL" in done.stderr


def test_shard_settings_make_an_auto_sharded_bot(tmp_path: Path) -> None:
    """With SHARD_COUNT the bot is an AutoShardedBot running this process's shards only."""
    shards = Shards(count=4, ids=(2, 3), auto=True)
    bot = create_bot(Settings(token=TOKEN, database_path=tmp_path / "t.db", shards=shards))
    assert isinstance(bot, ShardedTicTacToeBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    plain = create_bot(Settings(token=TOKEN, database_path=tmp_path / "t.db"))
    assert type(plain) is TicTacToeBot


async def started(settings: Settings) -> tuple[list[int], int]:
    """Start the bot on a simulated Discord: the live games it took on, command syncs sent."""
    bot = create_bot(settings)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            cog: Any = bot.get_cog("BoardWatch")
            live = sorted(g.id for g in cog.live.games.live())
            syncs = sum(r.method == "PUT" and "/commands" in r.path for r in env.http_requests)
    finally:
        await bot.release()
    return live, syncs


async def test_each_process_takes_on_its_servers_games_and_only_shard_0_syncs(
    postgres_url: str,
) -> None:
    """Two processes (shards 0 and 1 of 2) on one database: each restores and clocks the live
    games of its own servers; the direct-message game and the command sync go to shard 0."""
    store = postgres_store(postgres_url)
    await store.open()
    await store.save_game(game(1, guild_id=guild_on(0, 2)))
    await store.save_game(game(2, guild_id=guild_on(1, 2)))
    await store.save_game(game(3, guild_id=None))
    await store.save_game(game(4, guild_id=guild_on(1, 2, n=7)))
    await store.close()

    def shard(n: int) -> Settings:
        ids = (n,)
        return Settings(
            token=TOKEN,
            database_url=postgres_url,
            engine_workers=1,
            shards=Shards(count=2, ids=ids, auto=True),
        )

    assert await started(shard(0)) == ([1, 3], 1)
    assert await started(shard(1)) == ([2, 4], 0)


def test_processes_started_together_identify_in_turn() -> None:
    """The process whose first shard is k waits 5 k s before identifying, so a fleet started at
    once identifies one shard per 5 s, as Discord asks; discord.py spaces the rest."""
    assert identify_delay(Shards(count=8, ids=(0, 1, 2, 3), auto=True)) == 0
    assert identify_delay(Shards(count=8, ids=(4, 5, 6, 7), auto=True)) == 20
    assert identify_delay(Shards(count=2, ids=(1,), auto=True)) == 5
