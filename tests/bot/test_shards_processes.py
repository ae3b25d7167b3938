"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL database, against the load
benchmark's Discord on 127.0.0.1 (real discord.py over HTTP and the gateway, guilds dealt to
the shards). One process is SIGKILLed mid-game and restarted: nothing is lost and the other
shard never notices. Then the database server stops mid-game: the player gets the apology, and
once it is back the same processes go on, with nothing half written."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import asyncpg

from devkit.localdiscord import FakeDiscord
from devkit.measure.boards import Board
from devkit.measure.scenario import Game
from devkit.postgres import PgServer
from devkit.wire.client import WireBot, WireDriver, bots_for, connected

PATIENCE = 20.0  # seconds an answer may take on a busy test machine


async def step(driver: WireDriver, game: Game, board: Board, rng: random.Random) -> Board:
    """The game's next click (accept or a move), answered: the board after it."""
    before = board.taken
    ready = await driver.click(game, board, rng)
    assert ready is not None
    after = await driver.answered(game, ready, timeout=PATIENCE)
    assert after is not None and not game.stuck, f"no answer in game {game.game_id}"
    assert after.taken in (before, before + 1)
    return after


async def refused_with_apology(fake: FakeDiscord, game: Game, board: Board) -> None:
    """Click a free cell; the answer must be the private apology, the board unchanged."""
    player = game.to_move(board)
    assert player is not None and game.message_id is not None
    custom_id = f"ttt:{board.game_id}:{board.free[0]}"
    iid = await fake.click("cell", player, game.channel, game.message_id, custom_id)
    timing = fake.timings[iid]
    for _ in range(int(PATIENCE / 0.05)):
        if timing.acked is not None:
            break
        await asyncio.sleep(0.05)
    assert timing.ephemeral and timing.ack_latency is not None and timing.ack_latency < 3.0


async def test_two_shard_processes_share_one_database(
    tmp_path: Path, postgres_url: str, postgres_server: PgServer
) -> None:
    """Games in guilds of both shards; shard 1 killed and restarted; the database restarted."""
    rng = random.Random(5)
    fake = FakeDiscord()
    fake.shard_count = 2
    await fake.start()
    games = []
    for name in ("zero", "one"):
        guild = fake.create_guild(name)
        channel = guild.create_text_channel("games")
        alice = guild.add_member(fake.create_user(f"{name}-alice"))
        bob = guild.add_member(fake.create_user(f"{name}-bob"))
        games.append(Game(channel, alice, bob, 3, 3))
    assert [fake.shard_of(g.channel.guild_id) for g in games] == [0, 1]
    bots = bots_for(fake, tmp_path, postgres_url, 2)
    try:
        await connected(fake, bots)
        driver = WireDriver(fake, max_plies=20)
        boards = []
        for game in games:
            board = await driver.opened(game, await driver.start(game))
            assert board is not None and board.challenge
            board = await step(driver, game, board, rng)  # accepted
            boards.append(await step(driver, game, board, rng))  # X's first move
        assert [b.taken for b in boards] == [1, 1]

        # Shard 1's process dies mid-game; shard 0 plays on as if nothing happened.
        killed = bots[1].process
        assert killed is not None
        killed.send_signal(signal.SIGKILL)
        await killed.wait()
        boards[0] = await step(driver, games[0], boards[0], rng)
        assert boards[0].taken == 2 and not bots[0].errors()
        bots[1] = WireBot(fake, tmp_path, *bots[1].options)
        await bots[1].start()
        boards[1] = await step(driver, games[1], boards[1], rng)
        assert boards[1].taken == 2  # the move before the kill is still on the board

        # The database stops: a click gets the apology; once it is back, play goes on.
        postgres_server.stop("fast")
        try:
            await refused_with_apology(fake, games[0], boards[0])
        finally:
            postgres_server.start()
        for i, game in enumerate(games):
            boards[i] = await step(driver, game, boards[i], rng)
        assert [b.taken for b in boards] == [3, 3]
    finally:
        await asyncio.gather(*(bot.stop() for bot in bots))
        await fake.close()

    conn = await asyncpg.connect(postgres_url)
    try:
        stored = await conn.fetch("SELECT id, moves FROM games ORDER BY id")
    finally:
        await conn.close()
    assert [len(row["moves"].split(",")) for row in stored] == [3, 3]
    assert {row["id"] for row in stored} == {g.game_id for g in games}
    errors = [line for bot in bots for line in bot.errors()]
    # The outage, said once by the process that met it (each failed call is a debug line).
    assert all("the database stopped answering: cannot save" in line for line in errors), errors
    assert len(errors) <= len(bots)
