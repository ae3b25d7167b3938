"""Picture boards where games live and when Discord will not take the picture, through the real
bot and SimCord: the server's setting, moves by reactions, the bot's DM, an upload refused, no
Attach Files. Every fallback is the emoji board in the same one answer and a private line."""

from __future__ import annotations

import logging

import pytest
from simcord import Env

from bot.cogs.games import painter
from bot.compute import drawing
from bot.games import look as looks
from devkit.simcord_board import board_message, cells, game_id_of, guild_with, raw, text
from tests.bot.faults_support import CALLBACK, deny, set_bot_overwrite
from tests.bot.picture_support import check, decode, needs_font, picture_of, stored_game
from tests.bot.test_server_settings import server_with_admin

UNPICTURED = "I could not upload the board's picture just now"
NO_ATTACH = "I may not attach files in this channel, so the board is shown with emoji"


async def test_the_servers_setting_draws_new_boards_as_pictures_moved_by_reactions(
    simcord_env: Env,
) -> None:
    """board_style:picture with input:both: settings show it, a new board is a picture that
    keeps its reaction keys in words; a reaction plays and the picture follows."""
    needs_font()
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    done = await admin.slash(channel, "tictactoe-settings set", board_style="picture", input="both")
    assert "`board_style` · How the board is drawn: picture" in done.response.content
    await alice.slash(channel, "tictactoe", difficulty="easy")
    board = board_message(channel)
    game_id = game_id_of(simcord_env, board)
    assert (await stored_game(simcord_env, game_id)).look.picture
    assert "1️⃣2️⃣3️⃣" in text(simcord_env, board)  # the keys, since moves take reactions

    await alice.react(board, looks.keys(3)[4])

    game = await stored_game(simcord_env, game_id)
    assert 4 in game.moves and len(game.moves) == 2
    data, _, alt = picture_of(simcord_env, board)
    check(decode(data), game)
    assert "❌ on B2" in alt


async def test_a_picture_board_in_the_bots_dm(simcord_env: Env) -> None:
    """In the bot's DM the picture board works the same: shown, clicked, shown again."""
    needs_font()
    alice = simcord_env.create_user("alice")
    dm = alice.dm_channel
    await alice.slash("tictactoe", style="picture")
    board = board_message(dm)
    await alice.click(board, custom_id=cells(simcord_env, board, 3)[0].custom_id)
    game = await stored_game(simcord_env, game_id_of(simcord_env, board))
    assert len(game.moves) == 2
    check(decode(picture_of(simcord_env, board)[0]), game)


@pytest.mark.parametrize(("status", "code"), [(413, 40005), (500, 0), (429, 0)])
async def test_an_upload_refused_shows_the_emoji_board_and_says_so(
    simcord_env: Env, caplog: pytest.LogCaptureFixture, status: int, code: int
) -> None:
    """Discord refuses the click's answer with its picture (too large, a 5xx, a 429): the same
    answer shows the emoji board, the clicker is told privately, the log has one line and no
    traceback; the next click shows the picture again."""
    needs_font()
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", style="picture")
    board = board_message(channel)
    simcord_env.inject_error("POST", CALLBACK, status=status, code=code)
    caplog.set_level(logging.INFO)

    result = await alice.click(board, custom_id=cells(simcord_env, board, 3)[4].custom_id)

    assert result.acknowledged and not result.ephemeral
    assert [UNPICTURED in f.content for f in result.followups] == [True]
    assert not raw(simcord_env, board).attachments
    assert "❌" in text(simcord_env, board).split("\n\n")[1]  # the emoji grid
    assert cells(simcord_env, board, 3)[4].mark == "X"
    refused = [r for r in caplog.records if "picture of a board was refused" in r.getMessage()]
    assert len(refused) == 1 and not any(r.exc_info for r in caplog.records)

    free = [c for c in cells(simcord_env, board, 3) if not c.disabled]
    again = await alice.click(board, custom_id=free[0].custom_id)
    assert again.acknowledged and not again.followups
    check(
        decode(picture_of(simcord_env, board)[0]),
        await stored_game(simcord_env, game_id_of(simcord_env, board)),
    )


async def test_without_attach_files_the_board_is_emoji_and_the_player_told_once(
    simcord_env: Env,
) -> None:
    """No Attach Files in the channel: a picture board opens and plays with emoji, the
    starter told privately why, once a game."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    set_bot_overwrite(simcord_env, channel, deny("attach_files"))
    await simcord_env.settle()

    opened = await alice.slash(channel, "tictactoe", style="picture")

    board = board_message(channel)
    assert not opened.ephemeral and [NO_ATTACH in f.content for f in opened.followups] == [True]
    assert not raw(simcord_env, board).attachments and "⬜⬜⬜" in text(simcord_env, board)
    result = await alice.click(board, custom_id=cells(simcord_env, board, 3)[4].custom_id)
    assert result.acknowledged and not result.followups
    assert not raw(simcord_env, board).attachments


async def test_a_picture_not_drawn_in_time_shows_the_emoji_board_then_comes_next(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture not drawn within the answer's wait (no wait at all here, as under a burst of
    new positions): the click's answer shows the emoji board, nobody is told anything; the
    next answer shows the picture again."""
    needs_font()
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", style="picture")
    board = board_message(channel)
    monkeypatch.setattr(painter, "PICTURE_WAIT", 0.0)
    # Every picture to be drawn (none ready from the strips of the pictures before).
    monkeypatch.setattr(drawing, "ready", lambda game, side=0: None)

    result = await alice.click(board, custom_id=cells(simcord_env, board, 3)[4].custom_id)

    assert result.acknowledged and not result.followups
    assert not raw(simcord_env, board).attachments
    assert cells(simcord_env, board, 3)[4].mark == "X"
    monkeypatch.setattr(painter, "PICTURE_WAIT", 1.0)
    free = [c for c in cells(simcord_env, board, 3) if not c.disabled]
    await alice.click(board, custom_id=free[0].custom_id)
    check(
        decode(picture_of(simcord_env, board)[0]),
        await stored_game(simcord_env, game_id_of(simcord_env, board)),
    )
