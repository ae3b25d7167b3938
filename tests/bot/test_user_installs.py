"""The app installed to a person's account: games in a DM between two people, a group DM, the
bot's own DM and a server that has not added the bot, through the real bot process and the local
Discord (SimCord 3.2 does not model user installs: its interactions carry no owners and no
private-channel context).

Where the bot is not a member, the local Discord answers every channel route 403 Missing Access,
sends no gateway events, lets a token live 15 minutes of its own clock, allows 5 follow-ups per
interaction and makes the answers of a member without Use External Apps private. Each test checks
that the bot never used a channel route there (``discord.refused`` stays empty).
"""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp

from bot.assembly import sqlite_store
from bot.games.record import Ending, Status
from devkit.local_game import texts, until
from devkit.localdiscord import FakeDiscord
from tests.bot.user_install_support import (
    NEEDS_PROCESSES,
    no_channel_route,
    people,
    started,
    stored,
)

pytestmark = NEEDS_PROCESSES


async def test_a_friend_game_in_a_dm_between_two_people(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Alice challenges Bob in their DM; he accepts; they play to the end; every answer is an
    interaction response, no channel route is used, and the game counts in Alice's stats
    outside servers (and in no server's)."""
    alice, bob = people(local_discord, "alice", "bob")
    dm = local_discord.create_dm(alice, bob)
    bot, table = await started(local_discord, tmp_path)
    try:
        challenge = await table.command(alice, dm, opponent=bob)
        board = challenge.message_id
        assert board is not None and challenge.timing.ack_type == 4
        assert not challenge.timing.ephemeral
        assert {"accept", "decline", "withdraw"} <= table.controls(board)

        own = await table.click(alice, dm, board, "accept")
        assert own.timing.ephemeral and "challenge" in table.private(own).lower()
        accepted = await table.click(bob, dm, board, "accept")
        assert accepted.timing.ack_type == 7
        early = await table.click(bob, dm, board, 4)  # Alice (X) moves first
        assert early.timing.ephemeral and table.marks(board) == 0
        for who, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
            clicked = await table.click(who, dm, board, cell)
            assert clicked.timing.ack_type == 7 and not clicked.timing.ephemeral
        assert table.marks(board) == 5 and table.free(board) == []
        assert "wins" in texts(table.message(board))

        stats = await table.command(alice, dm, "tictactoe-stats")
        words = texts(table.message(stats.answers[0]))
        assert "in direct messages" in words and "Against people: 1W 0D 0L" in words
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    game = await stored(bot, table.game_id(board))
    assert game is not None and game.ending is Ending.WIN and game.interactions_only
    store = sqlite_store(bot.database)
    await store.open()
    try:
        assert (await store.player_stats(None, alice.id)).vs_people.wins == 1
        assert await store.leaderboard(None) != []  # rated outside servers, apart from any server
    finally:
        await store.close()


async def test_a_group_dm_game_with_every_control_and_refusal(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """In a group DM: an outsider's click is refused privately, a challenge is declined and
    one withdrawn, someone outside the group cannot be challenged; against the bot: hint,
    resign (asked on the board, put back after its seconds, then confirmed), review and
    rematch, all through interactions."""
    alice, bob, carol, dave = people(local_discord, "alice", "bob", "carol", "dave")
    group = local_discord.create_group_dm(alice, bob, carol)
    bot, table = await started(local_discord, tmp_path)
    try:
        first = (await table.command(alice, group, opponent=bob)).message_id
        assert first is not None
        outsider = await table.click(carol, group, first, "accept")
        assert outsider.timing.ephemeral
        assert (await table.click(bob, group, first, "decline")).timing.ack_type == 7
        assert "declined" in texts(table.message(first))

        second = (await table.command(alice, group, opponent=bob)).message_id
        assert second is not None
        assert (await table.click(alice, group, second, "withdraw")).timing.ack_type == 7
        assert "withdr" in texts(table.message(second)).lower()

        away = await table.command(alice, group, opponent=dave)
        assert away.timing.ephemeral and "not in this conversation" in table.private(away)

        game = (await table.command(alice, group, difficulty="easy")).message_id
        assert game is not None and table.marks(game) == 0
        intruder = await table.click(carol, group, game, 4)
        assert intruder.timing.ephemeral and table.marks(game) == 0
        hint = await table.click(alice, group, game, "hint")
        assert hint.timing.ephemeral and table.private(hint)
        moved = await table.click(alice, group, game, 4)
        assert moved.timing.ack_type == 7 and table.marks(game) == 2  # with the bot's reply
        # Resign asks on the board (through the click's response: no channel here), and the
        # same interaction puts Resign back once the few seconds are up.
        asked = await table.click(alice, group, game, "resign")
        assert asked.timing.ack_type == 7 and not asked.timing.ephemeral
        assert "Confirm resign" in texts(table.message(game))
        assert "resign" not in table.controls(game)
        await until(lambda: "resign" in table.controls(game), "Resign back on the board")
        assert "Confirm resign" not in texts(table.message(game))
        asked, resigned = await table.resign(alice, group, game)
        assert asked.timing.ack_type == 7 and resigned.timing.ack_type == 7
        assert "resigned" in texts(table.message(game))
        review = await table.click(bob, group, game, "review")
        assert review.timing.ephemeral and table.private(review)
        rematch = await table.click(alice, group, game, "rematch")
        assert rematch.timing.ack_type == 4 and not rematch.timing.ephemeral
        assert rematch.message_id is not None and rematch.message_id != game
        assert table.game_id(rematch.message_id) != table.game_id(game)
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


async def test_a_5x5_game_in_a_server_without_the_bot(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A server that has not added the bot: Alice plays 5x5 against it. Every move of the bot
    is shown through an edit of the click's response (its webhook), none through a channel
    (the click's response waits for no reply here, as when a search is long); a member
    without Use External Apps is told privately that nobody would see a board, and nothing
    starts; a player's /tictactoe-stats counts this server's games."""
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    alice, erin, hidden = (
        server.add_member(u) for u in people(local_discord, "alice", "erin", "h")
    )
    server.no_external_apps.add(hidden.id)
    bot, table = await started(
        local_discord, tmp_path, LOCAL_REPLY_WAIT="0"
    )  # every reply in a later edit
    rng = random.Random(3)
    try:
        refused = await table.command(hidden, channel)
        assert refused.timing.ephemeral and "external apps" in table.private(refused)

        board = (await table.command(alice, channel, size=5, win_length=4)).message_id
        assert board is not None
        game_id, replies = table.game_id(board), 0
        stranger = await table.click(erin, channel, board, 12)
        assert stranger.timing.ephemeral and table.marks(board) == 0
        while table.free(board) and "resign" in table.controls(board):
            before = table.marks(board)
            clicked = await table.click(alice, channel, board, rng.choice(table.free(board)))
            assert clicked.timing.ack_type == 7 and not clicked.timing.ephemeral
            await table.bot_replied(board, before)
            replies += table.marks(board) == before + 2
            assert clicked.timing.edits or table.marks(board) == before + 1
        game = await stored(bot, game_id)
        assert game is not None and game.status is Status.FINISHED and game.interactions_only
        stats = await table.command(alice, channel, "tictactoe-stats")
        assert "in this server" in texts(table.message(stats.answers[0]))
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    assert table.marks(board) == len(game.moves)  # every bot move shown
    assert replies == sum(ply % 2 == 1 for ply in range(len(game.moves)))  # the bot is O
    assert game.guild_id == server.id


async def test_the_bots_own_dm_plays_against_the_bot_only(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """In the bot's DM a game against it runs as in a server (the bot may use that channel); a
    challenge there is refused privately."""
    alice, bob = people(local_discord, "alice", "bob")
    own = local_discord.create_dm(alice, local_discord.bot_user)
    bot, table = await started(local_discord, tmp_path)
    try:
        challenge = await table.command(alice, own, opponent=bob)
        assert challenge.timing.ephemeral and "only play against me" in table.private(challenge)
        board = (await table.command(alice, own, size=4)).message_id
        assert board is not None
        await table.click(alice, own, board, 5)
        await until(lambda: table.marks(board) == 2, "the bot's reply")
    finally:
        await bot.stop()
    game = await stored(bot, table.game_id(board))
    assert game is not None and not game.interactions_only


async def test_the_local_discord_keeps_discords_rules_for_user_installs(
    local_discord: FakeDiscord,
) -> None:
    """What the tests above lean on: 403 Missing Access on a channel route where the bot is not
    a member, a token dead after 15 minutes of the local clock, 5 follow-ups per interaction
    authorised by a user install only, and answers forced private without Use External Apps."""
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    alice = server.add_member(local_discord.create_user("alice"))
    server.no_external_apps.add(alice.id)
    local_discord._links[0] = [_Sink(), 0]  # no bot: the interaction's frame goes nowhere
    iid = await local_discord.emit("slash", alice, channel, 2, {"name": "x", "type": 1})
    token = local_discord.interactions[iid].token
    api, app = local_discord.api_base, local_discord.application_id
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{api}/channels/{channel.id}/messages/1") as answer:
            assert answer.status == 403 and (await answer.json())["code"] == 50001
        async with http.post(
            f"{api}/interactions/{iid}/{token}/callback?with_response=true",
            json={"type": 4, "data": {"content": "board"}},
        ) as answer:
            assert (await answer.json())["interaction"]["response_message_ephemeral"]
        codes = []
        for _ in range(6):
            async with http.post(f"{api}/webhooks/{app}/{token}", json={"content": "x"}) as answer:
                codes.append(answer.status)
        assert codes == [200] * 5 + [400]
        local_discord.advance(15 * 60)
        async with http.get(f"{api}/webhooks/{app}/{token}/messages/@original") as answer:
            assert answer.status == 401 and (await answer.json())["code"] == 50027
    assert local_discord.interactions[iid].owners == {"1": str(alice.id)}


class _Sink:
    """A gateway link that drops what it is sent."""

    async def send_str(self, text: str) -> None:
        return None

    async def close(self) -> None:
        return None
