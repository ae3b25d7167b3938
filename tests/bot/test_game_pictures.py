"""Boards drawn as pictures, through the real bot and SimCord: the picture above the buttons in
the board message, read back and checked against the game at every click, its alt text, the
server's setting and the player's choice."""

from __future__ import annotations

from typing import Any

from simcord import Env
from simcord.components import walk_components

from tests.bot.game_support import board_message, cells, game_id_of, guild_with, raw, text
from tests.bot.picture_support import check, decode, needs_font

MEDIA_GALLERY = 12


def picture_of(env: Env, message: Any) -> tuple[bytes, str, str]:
    """The board message's one attachment (its bytes and description) and the description of
    the media gallery item that shows it."""
    stored = raw(env, message)
    assert len(stored.attachments) == 1, stored.attachments
    found = stored.attachments[0]
    assert found["filename"] == "board.png"
    galleries = [c for c in walk_components(stored.components) if c["type"] == MEDIA_GALLERY]
    assert len(galleries) == 1
    item = galleries[0]["items"][0]
    assert item["media"]["url"] in (found["url"], "attachment://board.png")
    data = env.backend.cdn.get(found["url"])
    assert data is not None
    return data, found["description"], item["description"]


async def stored_game(env: Env, game_id: int) -> Any:
    return await env.bot.store.load_game(game_id)


async def test_a_picture_board_shows_each_position_above_its_buttons(simcord_env: Env) -> None:
    """style:picture: the board message carries the position's picture (one attachment, alt
    text as its description) in a gallery above the cells; each click's one response shows
    the new picture, checked cell by cell against the stored game."""
    needs_font()
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", style="picture")
    message = board_message(channel)
    game_id = game_id_of(simcord_env, message)
    data, description, alt = picture_of(simcord_env, message)
    assert description == alt and "No marks yet." in alt and "to move." in alt
    check(decode(data), await stored_game(simcord_env, game_id))
    assert "⬜⬜⬜" not in text(simcord_env, message)  # the picture is the board
    for _ in range(2):
        free = [c for c in cells(simcord_env, message, 3) if not c.disabled]
        result = await alice.click(message, custom_id=free[0].custom_id)
        assert result.acknowledged and not result.ephemeral
        game = await stored_game(simcord_env, game_id)
        data, description, alt = picture_of(simcord_env, message)
        assert check(decode(data), game) == 9
        assert "❌ on" in alt and "⭕ on" in alt
    assert channel.last_message.id == message.id
