"""A server's own marks (settings mark_x, mark_o, mark_empty), through SimCord: what is refused,
every place a board is drawn, a board keeping the marks it started with, and reading a board
back with marks that are not the defaults."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from devkit.simcord_board import board_message, raw, resign, text
from tests.bot.test_restart import restart
from tests.bot.test_server_settings import server_with_admin
from tests.support.burst import click_together


def cell_emojis(env: Env, message: Any) -> list[str | None]:
    """The emoji of each cell button, as a mark's text (a custom one as <:name:id>)."""
    found = []
    for row in raw(env, message).components:
        for button in row.get("components", []):
            if button.get("type") != 2 or not button["custom_id"].split(":")[-1].isdigit():
                continue
            emoji = button.get("emoji")
            if emoji is None:
                found.append(None)
            elif emoji.get("id"):
                found.append(f"<:{emoji['name']}:{emoji['id']}>")
            else:
                found.append(emoji["name"])
    return found


async def test_refused_marks_say_why_and_change_nothing(simcord_env: Env) -> None:
    """Not an emoji, another server's emoji, the same mark twice: one private line each, and
    the settings stay as they were."""
    _, channel, admin, _ = server_with_admin(simcord_env, "alice")
    other = simcord_env.create_guild()
    foreign = other.create_emoji("stranger")

    words = await admin.slash(channel, "tictactoe-settings set", mark_x="cat")
    elsewhere = await admin.slash(
        channel, "tictactoe-settings set", mark_o=f"<:stranger:{foreign.id}>"
    )
    same = await admin.slash(channel, "tictactoe-settings set", mark_x="⭕")
    shown = await admin.slash(channel, "tictactoe-settings show")

    assert words.ephemeral and "is not an emoji I know" in words.response.content
    assert elsewhere.ephemeral and "I can't show" in elsewhere.response.content
    assert same.ephemeral and "three different marks" in same.response.content
    assert "`mark_x` · Mark of X: ❌ (default)" in shown.response.content
    assert "`mark_o` · Mark of O: ⭕ (default)" in shown.response.content
    assert "`input` · How players move: buttons (default)" in shown.response.content


async def test_a_servers_marks_on_every_part_of_the_board(simcord_env: Env) -> None:
    """A Unicode X, this server's emoji for O, an application emoji for empty cells: the
    header, the grid, the buttons, the end and the review use them; a click on an old
    position is still recognised (reading back does not rely on the default marks)."""
    guild, channel, admin, (alice, bob) = server_with_admin(simcord_env, "alice", "bob")
    dog = guild.create_emoji("dog")
    dot = simcord_env.backend.create_application_emoji("dot")
    o_mark, empty = f"<:dog:{dog.id}>", f"<:dot:{dot.id}>"
    done = await admin.slash(
        channel, "tictactoe-settings set", mark_x="🐱", mark_o=o_mark, mark_empty=empty
    )
    assert "Saved." in done.response.content
    assert f"Mark of O: {o_mark}" in done.response.content

    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    assert f"🐱 {alice.mention} vs {o_mark} {bob.mention}" in text(simcord_env, board)
    await bob.click(board, label="Accept")
    game_id = board.components[-1].children[0].custom_id.split(":")[1]
    assert cell_emojis(simcord_env, board) == [empty] * 9
    assert text(simcord_env, board).count(empty) == 9  # the grid

    await alice.click(board, custom_id=f"ttt:{game_id}:0")
    # Bob's move and Alice's click arrive together: hers was made on the board before his move.
    _, late = await click_together(
        simcord_env, [(bob, board, f"ttt:{game_id}:4"), (alice, board, f"ttt:{game_id}:1")]
    )
    assert late.ephemeral and "before your click arrived" in late.response.content
    assert cell_emojis(simcord_env, board)[:5] == ["🐱", empty, empty, empty, o_mark]
    await alice.click(board, custom_id=f"ttt:{game_id}:1")
    for who, cell in ((bob, 3), (alice, 2)):
        await who.click(board, custom_id=f"ttt:{game_id}:{cell}")
    assert f"🐱 {alice.mention} wins" in text(simcord_env, board)
    review = await bob.click(board, label="Review")
    assert review.ephemeral and "(🐱)" in review.response.content


async def test_a_board_keeps_its_marks_after_the_setting_changes_and_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """A game started with 🐱 keeps it when the server switches to 🦊 and after a restart; the
    rematch, a new board, takes 🦊."""
    _, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    await admin.slash(channel, "tictactoe-settings set", mark_x="🐱")
    await alice.slash(channel, "tictactoe")
    board = board_message(channel)
    game_id = board.components[-1].children[0].custom_id.split(":")[1]
    await admin.slash(channel, "tictactoe-settings set", mark_x="🦊")

    await alice.click(board, custom_id=f"ttt:{game_id}:4")
    assert "🐱" in cell_emojis(simcord_env, board)
    await restart(simcord_env, make_bot)
    free = cell_emojis(simcord_env, board).index("⬜")
    await alice.click(board, custom_id=f"ttt:{game_id}:{free}")
    assert cell_emojis(simcord_env, board).count("🐱") == 2
    assert "🦊" not in text(simcord_env, board)

    await resign(alice, board)
    await alice.click(board, label="Rematch")
    rematch = board_message(channel)
    assert rematch.id != board.id and "🦊" in text(simcord_env, rematch)


@pytest.mark.parametrize("size", [3, 4, 5])
async def test_custom_marks_on_every_board_size_and_after_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot], size: int
) -> None:
    """On 3x3, 4x4 and 5x5 the grid and the buttons show the server's marks, before and after
    a restart (an empty cell's button on 4x4 and 5x5 shows its name instead of the empty
    mark)."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    star = guild.create_emoji("star")
    o_mark = f"<:star:{star.id}>"
    await admin.slash(
        channel, "tictactoe-settings set", mark_x="🟥", mark_o=o_mark, mark_empty="🟦"
    )
    await alice.slash(channel, "tictactoe", size=size)
    board = board_message(channel)
    game_id = board.components[-1].children[0].custom_id.split(":")[1]
    await alice.click(board, custom_id=f"ttt:{game_id}:0")
    await restart(simcord_env, make_bot)
    empty = "🟦" if size == 3 else None
    second = cell_emojis(simcord_env, board).index(empty)
    await alice.click(board, custom_id=f"ttt:{game_id}:{second}")

    shown = cell_emojis(simcord_env, board)
    assert shown.count("🟥") == 2 and shown.count(o_mark) == 2
    assert shown.count(empty) == size * size - 4
    grid = text(simcord_env, board).split("\n\n")[1]
    assert grid.count("🟥") == 2 and grid.count(o_mark) == 2 and grid.count("🟦") == size * size - 4


async def test_symbols_variants_and_kept_emojis_are_refused(simcord_env: Env) -> None:
    """An arrow or a square is a symbol, not an emoji; ⭕ with its variation selector is the
    default O again; a server emoji kept for a role the bot lacks is one it can't use. A
    keycap, a flag and a family (a joined sequence) are emojis."""
    guild, channel, admin, _ = server_with_admin(simcord_env, "alice")
    vip = guild.create_role("vip")
    kept = simcord_env.backend.create_emoji(
        guild.id, "gold", simcord_env.backend.bot_user.id, role_ids=[vip.id]
    )
    for symbol in ("→", "■", "℃"):
        refused = await admin.slash(channel, "tictactoe-settings set", mark_x=symbol)
        assert refused.ephemeral and "is not an emoji I know" in refused.response.content
    same = await admin.slash(channel, "tictactoe-settings set", mark_x="⭕\ufe0f")
    assert same.ephemeral and "three different marks" in same.response.content
    role = await admin.slash(channel, "tictactoe-settings set", mark_x=f"<:gold:{kept.id}>")
    assert role.ephemeral and "keeps it for roles I don't have" in role.response.content
    for emoji in ("7️⃣", "🇯🇵", "👨‍👩‍👧"):
        done = await admin.slash(channel, "tictactoe-settings set", mark_x=emoji)
        assert "Saved." in done.response.content, emoji


async def test_a_deleted_emoji_mark_goes_back_to_the_default(simcord_env: Env) -> None:
    """The server deletes the emoji its O mark names while a game uses it: the setting and the
    live board go back to ⭕ (Discord would refuse a board naming a deleted emoji), the X mark
    stays, and the game goes on."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    star = guild.create_emoji("star")
    await admin.slash(channel, "tictactoe-settings set", mark_x="🐱", mark_o=f"<:star:{star.id}>")
    await alice.slash(channel, "tictactoe")
    board = board_message(channel)
    game_id = board.components[-1].children[0].custom_id.split(":")[1]
    await alice.click(board, custom_id=f"ttt:{game_id}:4")
    assert f"<:star:{star.id}>" in cell_emojis(simcord_env, board)

    simcord_env.backend.delete_emoji(guild.id, star.id)
    await simcord_env.settle()
    shown = await admin.slash(channel, "tictactoe-settings show")
    assert "Mark of O: ⭕ (default)" in shown.response.content
    assert "Mark of X: 🐱" in shown.response.content
    assert sorted(e for e in cell_emojis(simcord_env, board) if e != "⬜") == ["⭕", "🐱"]
    assert str(star.id) not in text(simcord_env, board)
    free = cell_emojis(simcord_env, board).index("⬜")
    await alice.click(board, custom_id=f"ttt:{game_id}:{free}")
    assert cell_emojis(simcord_env, board).count("🐱") == 2


async def test_an_emoji_deleted_while_the_bot_was_away_is_found_at_start(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """The server deletes its emoji for O while the bot is stopped: at the next start the
    setting and the live board go back to ⭕, the application's emoji for empty cells stays, and
    the player's turn keeps its deadline (a new look is no move)."""
    guild, channel, admin, (alice,) = server_with_admin(simcord_env, "alice")
    star = guild.create_emoji("star")
    dot = simcord_env.backend.create_application_emoji("dot")
    empty = f"<:dot:{dot.id}>"
    await admin.slash(
        channel, "tictactoe-settings set", mark_o=f"<:star:{star.id}>", mark_empty=empty
    )
    await alice.slash(channel, "tictactoe")
    board = board_message(channel)
    game_id = int(board.components[-1].children[0].custom_id.split(":")[1])
    await alice.click(board, custom_id=f"ttt:{game_id}:4")
    before = await simcord_env.bot.store.load_game(game_id)
    assert before is not None and before.deadline is not None

    await simcord_env.advance_time(60)  # a minute of Alice's turn has gone by
    await simcord_env.bot.release()
    simcord_env.backend.delete_emoji(guild.id, star.id)
    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()
    after = await simcord_env.bot.store.load_game(game_id)
    assert after is not None and after.look.o == "⭕" and after.look.empty == empty
    assert after.deadline == before.deadline
    shown = cell_emojis(simcord_env, board)
    assert "⭕" in shown and empty in shown and str(star.id) not in text(simcord_env, board)
    settings = await admin.slash(channel, "tictactoe-settings show")
    assert "Mark of O: ⭕ (default)" in settings.response.content
    assert f"Mark of an empty cell: {empty}" in settings.response.content
