"""/tictactoe-stats and /tictactoe-leaderboard over games recorded in the real SQLite store."""

from __future__ import annotations

import itertools

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.games.record import Ending, GameRecord, Status

_ids = itertools.count(1)


async def finish(
    env: Env,
    *,
    guild_id: int | None,
    channel_id: int,
    x: int,
    o: int,
    winner: str | None,
    ai_side: str | None = None,
    level: str | None = None,
) -> None:
    """Record one finished game through the bot's own store, as the game flow does."""
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    game = GameRecord(
        id=await bot.store.next_game_id(),
        guild_id=guild_id,
        channel_id=channel_id,
        x_id=x,
        o_id=o,
        challenger_id=x,
        ai_side=ai_side,
        ai_level=level,
        moves=(0, 3, 1, 4, 2) if winner else [0, 4, 8, 1, 7, 6, 2, 5, 3],
        status=Status.FINISHED,
        ending=Ending.WIN if winner else Ending.DRAW,
        winner=winner,
    )
    await bot.store.save_game(game)


@pytest.fixture
def world(simcord_env: Env):
    """A server with a channel and three players."""
    guild = simcord_env.create_guild(name="Arcade")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("ann", "bob", "cy")]
    return guild, channel, people


async def test_stats_of_someone_who_never_played(simcord_env: Env, world) -> None:
    """A new player sees zeros, not an error."""
    _, channel, (ann, _, _) = world
    result = await ann.slash(channel, "tictactoe-stats")
    text = result.response.content
    assert f"record of {ann.mention}" in text
    assert "Against people: no games" in text
    assert "Against the bot: no games" in text


async def test_stats_after_scripted_games(simcord_env: Env, world) -> None:
    """Wins, draws and losses against people and per bot level, with the rating."""
    guild, channel, (ann, bob, _) = world
    me = simcord_env.bot.user.id
    await finish(
        simcord_env, guild_id=guild.id, channel_id=channel.id, x=ann.id, o=bob.id, winner="X"
    )
    await finish(
        simcord_env, guild_id=guild.id, channel_id=channel.id, x=bob.id, o=ann.id, winner=None
    )
    await finish(
        simcord_env,
        guild_id=guild.id,
        channel_id=channel.id,
        x=ann.id,
        o=me,
        winner="O",
        ai_side="O",
        level="unbeatable",
    )
    await finish(
        simcord_env,
        guild_id=guild.id,
        channel_id=channel.id,
        x=me,
        o=ann.id,
        winner="O",
        ai_side="X",
        level="easy",
    )

    text = (await bob.slash(channel, "tictactoe-stats", user=ann)).response.content
    assert "Against people: 1W 1D 0L" in text
    assert "rating **15" in text and "(2 rated)" in text
    assert "Unbeatable: 0W 0D 1L" in text
    assert "Easy: 1W 0D 0L" in text
    assert "Medium" not in text  # levels never played are left out


async def test_stats_refuse_bots(simcord_env: Env, world) -> None:
    """Asking for a bot's record gets a private explanation."""
    guild, channel, (ann, _, _) = world
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    result = await ann.slash(channel, "tictactoe-stats", user=robot)
    assert result.ephemeral
    assert "is a bot" in result.response.content


async def test_leaderboard_ranks_by_rating(simcord_env: Env, world) -> None:
    """The best-rated player is first; games against the bot do not rank anyone."""
    guild, channel, (ann, bob, cy) = world
    me = simcord_env.bot.user.id
    for _ in range(2):
        await finish(
            simcord_env, guild_id=guild.id, channel_id=channel.id, x=cy.id, o=ann.id, winner="X"
        )
    await finish(
        simcord_env, guild_id=guild.id, channel_id=channel.id, x=ann.id, o=bob.id, winner="X"
    )
    await finish(
        simcord_env,
        guild_id=guild.id,
        channel_id=channel.id,
        x=bob.id,
        o=me,
        winner="X",
        ai_side="O",
        level="easy",
    )

    text = (await ann.slash(channel, "tictactoe-leaderboard")).response.content
    lines = text.splitlines()
    assert "leaderboard of Arcade" in lines[0]
    ranked = [line for line in lines[1:] if "<@" in line]
    assert [f"<@{p.id}>" in line for line, p in zip(ranked, (cy, ann, bob), strict=True)] == [
        True
    ] * 3
    assert "2W 0D 0L" in ranked[0] and "vs the bot" not in ranked[0]
    assert "1W 0D 2L" in ranked[1]
    assert ranked[2].endswith("0W 0D 1L · vs the bot 1W 0D 0L")  # rated apart from the bot game


async def test_leaderboard_empty_server(simcord_env: Env, world) -> None:
    """No rated games yet: say how to get on the board."""
    _, channel, (ann, _, _) = world
    text = (await ann.slash(channel, "tictactoe-leaderboard")).response.content
    assert "No rated games" in text


async def test_stats_when_storage_fails(simcord_env: Env, world) -> None:
    """A store failure is answered with a private apology and the bot keeps working."""
    _, channel, (ann, _, _) = world
    bot = simcord_env.bot
    await bot.store.close()  # the database goes away under the bot
    result = await ann.slash(channel, "tictactoe-stats")
    assert result.ephemeral
    assert "can't read the records" in result.response.content
    await bot.store.open()
    again = await ann.slash(channel, "tictactoe-stats")
    assert "Against people" in again.response.content
