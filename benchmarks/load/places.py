"""Games where the app is installed to a person's account, beside the same games in a server.

    python benchmarks/load/places.py [--games 20] [--bot-games 5]

The real bot process (``python -m bot`` against the local Discord of devkit/localdiscord,
SQLite), real time. Two measures:

- Friend games on 3x3 played to the end (challenge, accept, moves until someone wins or the
  board is full), in a server that added the bot and in a DM between the two players (a user
  install: no channel route works there). Per place: the requests the bot sends per interaction
  (every REST call after login, divided by the commands and clicks), and the acknowledgement's
  p50 and p99 (from the INTERACTION_CREATE frame written to the bot's callback arriving).
- 5x5 games (4 in a row) against the bot in a server that has not added it: each of the bot's
  moves is shown in the click's own response, in an edit of that response through the
  interaction's webhook, or (never, if all is well) through a channel route.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from devkit.local_game import Table, bot_running, run
from devkit.localdiscord import Channel, FakeDiscord, User


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def friend_games(
    discord: FakeDiscord, table: Table, channel: Channel, players: tuple[User, User], games: int
) -> tuple[float, list[float]]:
    """Play `games` friend games to the end; (requests per interaction, ack latencies)."""
    rng = random.Random(7)
    alice, bob = players
    before, interactions, acks = len(discord.requests), 0, []
    for _ in range(games):
        started = await table.command(alice, channel, opponent=bob)
        board = started.message_id
        assert board is not None
        answered = [started, await table.click(bob, channel, board, "accept")]
        turn = 0
        while table.free(board):
            player = (alice, bob)[turn % 2]
            answered.append(
                await table.click(player, channel, board, rng.choice(table.free(board)))
            )
            turn += 1
        interactions += len(answered)
        acks += [i.timing.ack_latency or 0.0 for i in answered]
    return (len(discord.requests) - before) / interactions, acks


async def bot_games(discord: FakeDiscord, table: Table, games: int) -> dict[str, int]:
    """5x5 games against the bot in a server without it: where each bot move was shown."""
    server = discord.create_guild("without the bot", with_bot=False)
    channel = server.create_text_channel("games")
    alice = server.add_member(discord.create_user("player"))
    rng = random.Random(11)
    shown = {"response": 0, "webhook edit": 0, "bot moves": 0}
    refused_before = len(discord.refused)
    for _ in range(games):
        board = (await table.command(alice, channel, size=5, win_length=4)).message_id
        assert board is not None
        while table.free(board) and "resign" in table.controls(board):
            before = table.marks(board)
            click = await table.click(alice, channel, board, rng.choice(table.free(board)))
            await table.bot_replied(board, before)
            if table.marks(board) < before + 2:
                continue  # the player's move ended the game
            shown["bot moves"] += 1
            shown["webhook edit" if click.timing.edits else "response"] += 1
    shown["channel routes"] = (
        len(discord.refused)
        - refused_before
        + sum("/channels/" in path for _, path in discord.requests)
    )
    return shown


async def main(games: int, bot_games_count: int) -> None:
    discord = FakeDiscord()
    server = discord.create_guild("with the bot")
    in_server = server.create_text_channel("games")
    alice, bob = (server.add_member(discord.create_user(n)) for n in ("alice", "bob"))
    dm = discord.create_dm(alice, bob)
    async with bot_running(discord, CHALLENGE_COOLDOWN="0") as (_, table):
        print(f"friend games on 3x3, {games} per place, played to the end:")
        for name, channel in (("server with the bot", in_server), ("DM (user install)", dm)):
            per_click, acks = await friend_games(discord, table, channel, (alice, bob), games)
            p50, p99 = (1000 * percentile(acks, q) for q in (0.5, 0.99))
            print(
                f"  {name:22} requests per interaction {per_click:.2f} · "
                f"ack p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(acks)} interactions)"
            )
        shown = await bot_games(discord, table, bot_games_count)
        total = shown["bot moves"]
        without = shown["response"] + shown["webhook edit"]
        print(
            f"5x5 (4 in a row) against the bot in a server without it, {bot_games_count} "
            f"games: {total} bot moves; {shown['response']} in the click's response, "
            f"{shown['webhook edit']} in a webhook edit, {shown['channel routes']} channel "
            f"routes used; shown without a channel route: {without / max(total, 1):.0%}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bot-games", type=int, default=5)
    args = parser.parse_args()
    run(main(args.games, args.bot_games))
