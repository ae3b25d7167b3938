"""Boards moved by reactions: how long until every reaction is on a new board, what other games'
clicks see meanwhile, and the bot's CPU per move by reaction against per move by button.

    python benchmarks/load/reactions.py [--boards 8] [--moves 120] [--rounds 3]

The real bot process (``python -m bot`` against the local Discord of devkit/localdiscord,
SQLite), real time. The local Discord limits the bot's reaction requests (adding its own,
removing the players') to one every 0.25 s per channel, as Discord does (429 and the rate-limit
headers, which discord.py obeys).

1. ``--boards`` new 3x3 boards, then as many 5x5 boards, each in a channel of a server whose
   ``input`` is ``reactions``, all started at once: seconds from each ``/tictactoe`` to the board
   carrying every reaction (median and slowest). Meanwhile players in another server play 3x3
   games against the bot by buttons as fast as the bot answers: their acknowledgements' p50 and
   p99 during that time.
2. ``--rounds`` rounds, each ``--moves`` moves against the bot on 3x3 by reactions, then as many
   by buttons: CPU of the bot's whole process group per move (its engine workers included), and
   the ratio, per round and its median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.games import look as looks
from devkit.local_game import Table, bot_running, run, until
from devkit.localdiscord import Channel, FakeDiscord, User

TICK = os.sysconf("SC_CLK_TCK")


def group_cpu(group: int) -> float:
    """CPU seconds (user and system) of the live processes of a process group."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def grid_marks(table: Table, message_id: int) -> int:
    """Marks in a board's emoji grid (its cells are not buttons when moved by reactions)."""
    text = table.message(message_id)["components"][0]["content"]
    grid = text.split("\n\n")[1] if "\n\n" in text else ""
    return grid.count("❌") + grid.count("⭕")


def seeded(discord: FakeDiscord, message_id: int, keys: list[str]) -> bool:
    """Whether the bot's reaction is on the message for every key."""
    return all(discord.bot_user.id in discord.reacted(message_id, key) for key in keys)


def over(table: Table, message_id: int) -> bool:
    return "resign" not in table.controls(message_id)


async def seed_times(
    discord: FakeDiscord, table: Table, places: list[tuple[User, Channel]], size: int
) -> list[float]:
    """Start a board in each place at once; seconds until each carries every reaction."""
    keys = looks.keys(size)
    started = [
        (
            await discord.slash(user, channel, "tictactoe", size=size, difficulty="easy"),
            time.perf_counter(),
        )
        for user, channel in places
    ]
    seconds = []
    for iid, t0 in started:
        interaction = await table.answered(iid)
        board = interaction.message_id
        assert board is not None
        await until(lambda b=board: seeded(discord, b, keys), "the reactions", 60)
        seconds.append(time.perf_counter() - t0)
    for (user, channel), (iid, _) in zip(places, started, strict=True):
        board = discord.interactions[iid].message_id  # resigned: the channel is free again
        assert board is not None
        await table.click(user, channel, board, "resign")
    return seconds


async def button_traffic(
    table: Table, player: User, channel: Channel, acks: list[float], stop: asyncio.Event
) -> None:
    """3x3 games against the bot by buttons, each click as soon as the last was answered."""
    while not stop.is_set():
        board = (await table.command(player, channel, difficulty="easy")).message_id
        assert board is not None
        while not over(table, board) and not stop.is_set():
            clicked = await table.click(player, channel, board, table.free(board)[0])
            acks.append(clicked.timing.ack_latency or 0.0)
        if not over(table, board):
            await table.click(player, channel, board, "resign")


async def moves_by(
    kind: str, discord: FakeDiscord, table: Table, player: User, channels: list[Channel], moves: int
) -> int:
    """Play `moves` moves against the bot on 3x3, by reactions or by buttons; moves made."""
    made = 0
    while made < moves:
        for channel in channels:
            board = (await table.command(player, channel, difficulty="easy")).message_id
            assert board is not None
            while not over(table, board) and made < moves:
                before = grid_marks(table, board)
                if kind == "reactions":
                    cell = next(
                        c
                        for c in range(9)
                        if looks.keys(3)[c] in table.message(board)["components"][0]["content"]
                    )
                    await discord.react(player, channel, board, looks.keys(3)[cell])
                else:
                    await table.click(player, channel, board, table.free(board)[0])
                await until(lambda b=board, n=before: grid_marks(table, b) > n, "the move")
                await until(
                    lambda b=board, n=before: grid_marks(table, b) >= n + 2 or over(table, b),
                    "the reply",
                )
                made += 1
            if not over(table, board):
                await table.click(player, channel, board, "resign")
            if made >= moves:
                break
    return made


async def main(boards: int, moves: int, rounds: int) -> None:
    discord = FakeDiscord()
    by_reaction = discord.create_guild("reactions")
    by_button = discord.create_guild("buttons")
    admin = by_reaction.add_member(discord.create_user("admin"))
    seeders = [by_reaction.add_member(discord.create_user(f"r{i}")) for i in range(boards)]
    places = [(user, by_reaction.create_text_channel(f"r{i}")) for i, user in enumerate(seeders)]
    other = by_button.add_member(discord.create_user("other"))
    busy = by_button.create_text_channel("busy")
    player_b = by_button.add_member(discord.create_user("player"))
    button_channels = [by_button.create_text_channel(f"b{i}") for i in range(3)]
    player_r = by_reaction.add_member(discord.create_user("player"))
    reaction_channels = [by_reaction.create_text_channel(f"m{i}") for i in range(3)]
    async with bot_running(discord, CHALLENGE_COOLDOWN="0") as (bot, table):
        assert bot.process is not None
        await table.command(admin, places[0][1], "tictactoe-settings set", input="reactions")
        print(
            f"reactions on a new board ({boards} boards at once, one channel each; "
            "the local Discord takes one reaction a channel every 0.25 s):"
        )
        for size in (3, 5):
            acks: list[float] = []
            stop = asyncio.Event()
            traffic = asyncio.create_task(button_traffic(table, other, busy, acks, stop))
            seconds = await seed_times(discord, table, places, size)
            stop.set()
            await traffic
            p50, p99 = (
                1000 * sorted(acks)[min(len(acks) - 1, int(q * len(acks)))] for q in (0.5, 0.99)
            )
            print(
                f"  {size}x{size} ({len(looks.keys(size))} reactions): median "
                f"{statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s; other "
                f"games' clicks meanwhile: {len(acks)}, ack p50 {p50:.1f} ms, p99 {p99:.1f} ms"
            )
        print(f"  429 answers the bot got and waited out: {discord.limited}")
        print(f"CPU of the bot per move on 3x3 against it, {moves} moves a round:")
        ratios = []
        for n in range(rounds):
            cpu = {}
            for kind, player, channels in (
                ("reactions", player_r, reaction_channels),
                ("buttons", player_b, button_channels),
            ):
                before = group_cpu(bot.process.pid)
                made = await moves_by(kind, discord, table, player, channels, moves)
                cpu[kind] = (group_cpu(bot.process.pid) - before) / made
            ratios.append(cpu["reactions"] / cpu["buttons"])
            print(
                f"  round {n + 1}: by reaction {1000 * cpu['reactions']:.2f} ms, by button "
                f"{1000 * cpu['buttons']:.2f} ms, ratio {ratios[-1]:.2f}"
            )
        print(f"  median ratio (reaction / button): {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    run(main(args.boards, args.moves, args.rounds))
