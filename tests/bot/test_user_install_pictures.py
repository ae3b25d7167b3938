"""Pictures where the bot has no channel (a user install in a group DM) and a server's custom
emoji marks fetched from the CDN, through the real bot process and the local Discord: every
board, replay and share is an interaction's answer or its edit, with the picture uploaded in it.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.assembly import sqlite_store
from bot.games.record import Ending
from bot.games.settings import ServerSettings
from bot.pictures import board as drawing
from devkit.local_game import texts, until
from devkit.localdiscord import FakeDiscord
from tests.bot.picture_support import check, decode, needs_font
from tests.bot.user_install_support import (
    NEEDS_PROCESSES,
    no_channel_route,
    people,
    started,
    stored,
)

pytestmark = NEEDS_PROCESSES

BLUE = (30, 90, 230)


def attachments(discord: FakeDiscord, message_id: int) -> list[dict[str, Any]]:
    return discord.messages[message_id].get("attachments") or []


def board_png(discord: FakeDiscord, message_id: int) -> tuple[Image.Image, str]:
    """The board message's one picture, decoded, and its description."""
    (found,) = attachments(discord, message_id)
    assert found["filename"] == "board.png"
    return decode(discord.attachment_bytes(found)), found["description"]


def square(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (128, 128), (*colour, 255)).save(out, "PNG")
    return out.getvalue()


async def test_a_picture_game_in_a_group_dm_through_interactions_only(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Alice challenges Bob in their group DM with style:picture: Accept, every move, Replay
    and Share answer with the picture uploaded in the interaction's own answer or edit; no
    channel route is used."""
    needs_font()
    alice, bob, carol = people(local_discord, "alice", "bob", "carol")
    group = local_discord.create_group_dm(alice, bob, carol)
    bot, table = await started(local_discord, tmp_path)
    try:
        challenge = await table.command(alice, group, opponent=bob, style="picture")
        board = challenge.message_id
        assert board is not None and attachments(local_discord, board) == []  # no board yet
        accepted = await table.click(bob, group, board, "accept")
        assert accepted.timing.ack_type == 7
        image, alt = board_png(local_discord, board)
        assert "No marks yet." in alt
        for who, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
            clicked = await table.click(who, group, board, cell)
            assert clicked.timing.ack_type == 7 and not clicked.timing.ephemeral
            assert len(attachments(local_discord, board)) == 1
        image, alt = board_png(local_discord, board)
        assert "won with" in alt
        replay = await table.click(carol, group, board, "replay")
        assert replay.timing.ack_type == 5 and replay.timing.ephemeral

        def replay_gif(message_id: int | None) -> Image.Image | None:
            found = attachments(local_discord, message_id or 0)
            if not found:
                return None
            assert found[0]["filename"] == "replay.gif"
            return Image.open(io.BytesIO(local_discord.attachment_bytes(found[0])))

        await until(lambda: replay_gif(replay.message_id) is not None, "the replay")
        gif = replay_gif(replay.message_id)
        assert gif is not None and gif.n_frames == 6
        assert "share" in table.controls(replay.message_id or 0)
        shared = await table.click(carol, group, replay.message_id or 0, "share")
        assert not shared.timing.ephemeral
        await until(lambda: replay_gif(shared.message_id) is not None, "the shared replay")
        assert "Replay, one frame a move" in texts(table.message(shared.message_id or 0))
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    game = await stored(bot, table.game_id(board))
    assert game is not None and game.ending is Ending.WIN and game.interactions_only
    assert check(image, game) == 9


async def test_custom_emoji_marks_are_fetched_once_and_a_lost_one_drawn_as_its_default(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A server's X is its blue custom emoji, its O one the CDN no longer has: the picture
    draws X from the emoji's image, fetched once for every picture after, and O as ⭕, with one
    log line for the lost one and no traceback; then the CDN goes down and a new board still
    shows (the blue one kept, nothing fetched again)."""
    needs_font()
    guild = local_discord.create_guild("club")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(local_discord.create_user("alice"))
    cat = local_discord.add_emoji(guild, "bluecat", square(BLUE))
    gone = local_discord.add_emoji(guild, "lostdog", None)
    bot, table = await started(local_discord, tmp_path)
    await bot.stop()  # the database made; the server's settings written as an admin would
    store = sqlite_store(bot.database)
    await store.open()
    try:
        conf = ServerSettings(mark_x=cat, mark_o=gone, board_style="picture")
        await store.save_server_settings(guild.id, conf)
    finally:
        await store.close()
    await bot.start()
    try:
        opened = await table.command(alice, channel, difficulty="easy")
        board = opened.message_id or 0
        for _ in range(2):  # the marks are custom: the free cells say the bot replied
            free = table.free(board)
            await table.click(alice, channel, board, free[0])
            await until(lambda free=free: len(table.free(board)) <= len(free) - 2, "a reply")
        image, alt = board_png(local_discord, board)
        assert ":bluecat:" in alt and ":lostdog:" in alt
        assert local_discord.cdn_requests["emoji"] == 2  # each fetched once (the lost one tried)
        await table.resign(alice, channel, board)
        local_discord.cdn_down = True
        again = await table.command(alice, channel, difficulty="easy")
        assert len(attachments(local_discord, again.message_id or 0)) == 1
        assert local_discord.cdn_requests["emoji"] == 2
    finally:
        await bot.stop()
    game = await stored(bot, table.game_id(board))
    assert game is not None
    x_cells = [c for n, c in enumerate(game.moves) if n % 2 == 0]
    o_cells = [c for n, c in enumerate(game.moves) if n % 2 == 1]
    grid = drawing.layout(3, 3, image.width)
    for cell in x_cells:
        r, g, b = image.getpixel(grid.centre(cell, 3))  # type: ignore[misc]
        assert b > 180 and r < 100, (cell, (r, g, b))
    for cell in o_cells:
        left, top, right, bottom = grid.box(cell, 3)
        ring = image.getpixel(
            (grid.centre(cell, 3)[0] - round((right - left) * 0.7 * 0.4), (top + bottom) // 2)
        )
        assert ring[0] > 180 and ring[1] < 120, (cell, ring)  # type: ignore[index]
    lost = [line for line in bot.log().splitlines() if "could not fetch the custom emoji" in line]
    assert len(lost) == 1 and str(gone.split(":")[2][:-1]) in lost[0]


async def test_a_5x5_picture_game_in_a_server_without_the_bot(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A server that has not added the bot, style:picture on 5x5: the bot's every move follows
    in an edit of the click's answer (its webhook) with the new picture uploaded in it; the
    last picture is the stored game, cell by cell; no channel route is used."""
    needs_font()
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    (alice,) = (server.add_member(u) for u in people(local_discord, "alice"))
    bot, table = await started(local_discord, tmp_path, LOCAL_REPLY_WAIT="0")
    try:
        board = (
            await table.command(
                alice, channel, size=5, win_length=4, style="picture", difficulty="easy"
            )
        ).message_id or 0
        for _ in range(3):
            before = table.marks(board)
            clicked = await table.click(alice, channel, board, table.free(board)[0])
            assert clicked.timing.ack_type == 7
            await table.bot_replied(board, before)
            assert clicked.timing.edits  # the bot's move, in an edit with its picture
            image, alt = board_png(local_discord, board)
            assert "❌ on" in alt and "⭕ on" in alt
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)
    game = await stored(bot, table.game_id(board))
    assert game is not None and game.interactions_only and len(game.moves) == 6
    assert check(image, game) == 25
