"""Boards drawn as pictures, through the real bot and SimCord: the picture above the buttons in
the board message, read back and checked against the game at every click, with its alt text;
Replay and Share under a finished game, and their refusals."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import pytest
from simcord import Env
from simcord.components import walk_components

from bot.cogs.games import replays
from bot.games.record import Status
from devkit.simcord_board import (
    board_message,
    cells,
    controls,
    game_id_of,
    guild_with,
    people_game,
    raw,
    resign,
    text,
)
from tests.bot.faults_support import deny, set_bot_overwrite
from tests.bot.picture_support import check, decode, gif_of, needs_font, picture_of, stored_game


def buttons_in(components: Any) -> list[dict[str, Any]]:
    return [c for c in walk_components(components) if c["type"] == 2]


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


async def alice_wins(env: Env) -> tuple[Any, Any, Any, Any]:
    """Alice (❌) beats Bob on the top row; the channel, both players and the board."""
    channel, alice, bob, _carol, message = await people_game(env)
    game_id = game_id_of(env, message)
    for player, cell in ((alice, 0), (bob, 3), (alice, 1), (bob, 4), (alice, 2)):
        await player.click(message, custom_id=f"ttt:{game_id}:{cell}")
    return channel, alice, bob, message


async def test_replay_answers_privately_and_share_posts_it(simcord_env: Env) -> None:
    """Replay under a won game: a private GIF of one frame a move (the empty board first), the
    last frame the end with its winning line, alt text in words; Share posts the same replay
    in the channel for everyone."""
    needs_font()
    channel, _alice, bob, message = await alice_wins(simcord_env)
    game = await stored_game(simcord_env, game_id_of(simcord_env, message))
    assert list(controls(simcord_env, message, 3)) == ["Rematch", "Review", "Replay"]

    result = await bob.click(message, label="Replay")

    assert result.acknowledged and result.ephemeral
    gif, alt = gif_of(simcord_env, result.response)
    assert gif.n_frames == len(game.moves) + 1 == 6
    gif.seek(0)
    assert (
        check(
            gif.convert("RGB"),
            replace(game, moves=(), status=Status.ACTIVE, ending=None, winner=None),
        )
        == 9
    )
    gif.seek(gif.n_frames - 1)
    assert gif.info["duration"] > 1000  # the end is held
    check(gif.convert("RGB"), game)
    assert "won with" in alt and "A1" in alt.upper()
    assert "Share" in [b.get("label") for b in buttons_in(result.response.components)]
    before = channel.last_message.id

    shared = await bob.click(result.response.message, label="Share")

    assert shared.acknowledged and not shared.ephemeral
    posted = channel.last_message
    assert posted.id != before and posted.id == shared.response.id
    gif, _ = gif_of(simcord_env, posted)
    assert gif.n_frames == 6
    assert "Share" not in [b.get("label") for b in buttons_in(shared.response.components)]


async def test_a_game_resigned_before_any_move_has_nothing_to_replay(simcord_env: Env) -> None:
    """Resigned at once: Replay says privately there is nothing to replay (no picture)."""
    _channel, alice, bob, _carol, message = await people_game(simcord_env)
    await resign(alice, message)

    result = await bob.click(message, label="Replay")

    assert result.ephemeral and "no moves stored" in result.response.content
    assert not raw(simcord_env, result.response).attachments


async def test_a_replay_over_the_upload_limit_is_a_line_not_a_file(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A replay larger than what may be uploaded (the limit made tiny here) is not sent: the
    private answer says how large it is and the limit, the log one line, no traceback."""
    needs_font()
    monkeypatch.setattr(replays, "LIMIT", 1000)
    caplog.set_level(logging.INFO)
    _channel, _alice, bob, message = await alice_wins(simcord_env)

    result = await bob.click(message, label="Replay")

    assert result.acknowledged and result.ephemeral
    said = result.response.content
    assert said.startswith("The replay is ") and "more than the 0.0 MB" in said
    assert not raw(simcord_env, result.response).attachments
    lines = [r for r in caplog.records if "the replay of game" in r.getMessage()]
    assert len(lines) == 1 and not any(r.exc_info for r in caplog.records)


async def test_share_where_the_bot_may_not_attach_files_says_so(simcord_env: Env) -> None:
    """Attach Files taken away after the game: Replay still answers privately, Share says
    privately that it cannot post the replay there, and posts nothing."""
    needs_font()
    channel, _alice, bob, message = await alice_wins(simcord_env)
    set_bot_overwrite(simcord_env, channel, deny("attach_files"))
    await simcord_env.settle()
    replay = await bob.click(message, label="Replay")
    before = channel.last_message.id

    shared = await bob.click(replay.response.message, label="Share")

    assert shared.ephemeral and "I may not attach files" in shared.response.content
    assert channel.last_message.id == before
