"""/tictactoe-history where the bot is not a member (a server that has not added it, a group DM:
through interactions only), through the real bot process and the local Discord: the list, a
game opened as its picture and replay (the files as Discord stores them, decoded), and an upload
Discord refuses (413) told privately in one line, no traceback."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.assembly import sqlite_store
from bot.games.record import Ending, GameRecord, Status
from devkit.local_game import LocalBot, Table, until
from devkit.localdiscord import Channel, FakeDiscord, User
from devkit.localdiscord.model import EPHEMERAL
from tests.bot import picture_support
from tests.bot.user_install_support import NEEDS_PROCESSES, no_channel_route, people, started

pytestmark = NEEDS_PROCESSES
MOVES = (0, 3, 1, 4, 2)  # ❌ wins on the top row


async def keep(bot: LocalBot, *games: GameRecord) -> None:
    """Games finished, written to the bot's database as the game flow writes them."""
    store = sqlite_store(bot.database)
    await store.open()
    try:
        for game in games:
            await store.save_game(game)
    finally:
        await store.close()


def game(gid: int, guild_id: int | None, channel: Channel, x: User, o: User) -> GameRecord:
    return GameRecord(
        id=gid,
        guild_id=guild_id,
        channel_id=channel.id,
        x_id=x.id,
        o_id=o.id,
        challenger_id=x.id,
        moves=MOVES,
        status=Status.FINISHED,
        ending=Ending.WIN,
        winner="X",
        interactions_only=True,
    )


async def listed(table: Table, user: User, channel: Channel, **options: Any) -> dict[str, Any]:
    """The history's private message, once answered."""
    answered = await table.command(user, channel, "tictactoe-history", **options)
    assert answered.timing.ephemeral and answered.message_id is not None
    return table.message(answered.message_id)


async def open_game(
    table: Table, user: User, channel: Channel, message: dict[str, Any], game_id: int
) -> list[dict[str, Any]]:
    """Choose a game in the list's menu; the private messages that answer it, once there."""
    menu = next(c for row in message["components"] for c in row["components"] if c["type"] == 3)
    iid = await table.discord.select(
        user, channel, int(message["id"]), menu["custom_id"], [str(game_id)]
    )
    interaction = await table.answered(iid)
    await until(lambda: interaction.followups >= 1, "the pictures")
    found = [table.message(m) for m in interaction.answers]
    assert found and all(int(m["flags"]) & EPHEMERAL for m in found)
    return found


async def test_history_in_a_server_without_the_bot_and_a_group_dm(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Installed to Alice's account only: in a server without the bot her history lists her
    game there and opens it as a PNG and a GIF; in a group DM, Bob's history as she asks for it
    lists only the games the two played. No channel route is ever used."""
    picture_support.needs_font()
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    alice, bob, erin = people(local_discord, "alice", "bob", "erin")
    for member in (alice, bob):
        server.add_member(member)
    group = local_discord.create_group_dm(alice, bob, erin)
    bot, table = await started(local_discord, tmp_path)
    try:
        here = game(1, server.id, channel, alice, bob)
        await keep(bot, here, game(2, None, group, bob, alice), game(3, None, group, bob, erin))
        message = await listed(table, alice, channel)
        assert "1. Won against" in message["content"] and "5 moves" in message["content"]
        [shown] = await open_game(table, alice, channel, message, 1)
        png, gif = shown["attachments"]
        assert png["description"].startswith("Tic-tac-toe")
        picture_support.check(picture_support.decode(local_discord.attachment_bytes(png)), here)
        replay = Image.open(io.BytesIO(local_discord.attachment_bytes(gif)))
        assert replay.n_frames == len(MOVES) + 1

        message = await listed(table, alice, group, player=bob)
        lines = message["content"].splitlines()
        assert "in direct messages" in lines[0] and len(lines) == 2
        assert f"<@{alice.id}>" in lines[1]  # the game with Erin is not Alice's to see
        [shown] = await open_game(table, alice, group, message, 2)
        assert len(shown["attachments"]) == 2
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


async def test_pictures_refused_by_discord_are_one_private_line(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord refuses the upload (413, over the place's limit): the opener is told privately,
    the bot logs one line and no traceback."""
    server = local_discord.create_guild("home")
    channel = server.create_text_channel("games")
    alice, bob = people(local_discord, "alice", "bob")
    for member in (alice, bob):
        server.add_member(member)
    bot, table = await started(local_discord, tmp_path)
    try:
        await keep(bot, game(1, server.id, channel, alice, bob))
        message = await listed(table, alice, channel)
        local_discord.upload_limit = 1000
        [told] = await open_game(table, alice, channel, message, 1)
        assert "would not take the pictures" in told["content"] and not told["attachments"]
    finally:
        await bot.stop()  # fails on a traceback in the log
    assert bot.log().count("pictures: Discord refused them") == 1
