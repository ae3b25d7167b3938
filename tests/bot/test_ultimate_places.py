"""Ultimate wherever a game can live: a server without the bot and a group DM (the app installed
to a person's account, through interactions only, with the real bot process and the local
Discord), moves by reactions on a server that chose them, and a restart mid-game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from simcord import Env

from bot.client import TicTacToeBot
from bot.games.record import Status
from devkit.local_game import Table, buttons, texts
from devkit.localdiscord import FakeDiscord
from devkit.simcord_board import board_message, guild_with, text
from engine.ultimate import UltimateBoard
from tests.bot.test_reactions import bot_keys, game_of, reaction_server
from tests.bot.test_restart import restart
from tests.bot.ultimate_support import move, stored
from tests.bot.user_install_support import (
    NEEDS_PROCESSES,
    no_channel_route,
    people,
    started,
)
from tests.bot.user_install_support import stored as stored_locally

KEYCAPS = [f"{digit}\ufe0f\u20e3" for digit in "123456789"]


def local_ids(table: Table, board: int) -> list[str]:
    """The clickable buttons of a board message, as "<what>@<ply>"."""
    return [
        b["custom_id"].split(":", 2)[2]
        for b in buttons(table.message(board)["components"])
        if not b.get("disabled") and "@" in b["custom_id"]
    ]


async def local_move(table: Table, user: Any, channel: Any, board: int) -> Any:
    """Pick the first open board when free to choose, then play the first open cell."""
    cells = [i for i in local_ids(table, board) if i.split("@")[0].isdigit()]
    if not cells:
        picked = await table.click(user, channel, board, local_ids(table, board)[0])
        assert not picked.timing.ephemeral
        cells = [i for i in local_ids(table, board) if i.split("@")[0].isdigit()]
    return await table.click(user, channel, board, cells[0])


@NEEDS_PROCESSES
async def test_ultimate_in_a_server_without_the_bot(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Against the bot where it has no channel: every move and reply through interactions, and
    resigning in two clicks (each answered on the board)."""
    server = local_discord.create_guild("elsewhere", with_bot=False)
    channel = server.create_text_channel("games")
    (alice,) = (server.add_member(u) for u in people(local_discord, "alice"))
    bot, table = await started(local_discord, tmp_path)
    try:
        board = await table.command(alice, channel, variant="ultimate", difficulty="easy")
        assert board.message_id is not None
        assert "choose any of the nine boards" in texts(table.message(board.message_id))
        game_id = table.game_id(board.message_id)
        for _ in range(4):
            clicked = await local_move(table, alice, channel, board.message_id)
            assert not clicked.timing.ephemeral
        game = await stored_locally(bot, game_id)
        assert game is not None and game.kind == "ultimate" and game.interactions_only
        assert len(game.moves) >= 7  # four of Alice's moves and the bot's replies
        asked, resigned = await table.resign(alice, channel, board.message_id)
        assert asked.timing.ack_type == 7 and resigned.timing.ack_type == 7
        assert "resigned" in texts(table.message(board.message_id))
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


@NEEDS_PROCESSES
async def test_ultimate_between_friends_in_a_group_dm(
    local_discord: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = people(local_discord, "alice", "bob")
    group = local_discord.create_group_dm(alice, bob)
    bot, table = await started(local_discord, tmp_path)
    try:
        challenge = await table.command(alice, group, opponent=bob, variant="ultimate")
        assert challenge.message_id is not None
        board = challenge.message_id
        await table.click(bob, group, board, "accept")
        assert "choose any of the nine boards" in texts(table.message(board))
        for player in (alice, bob, alice):
            assert not (await local_move(table, player, group, board)).timing.ephemeral
        game = await stored_locally(bot, table.game_id(board))
        assert game is not None and len(game.moves) == 3 and game.status is Status.ACTIVE
    finally:
        await bot.stop()
    assert no_channel_route(local_discord)


async def test_ultimate_by_reactions_a_board_then_a_cell(simcord_env: Env) -> None:
    """Nine keycaps; free to choose, a board's number then a cell's; once sent to a board, a
    cell's number alone."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    board = board_message(channel)
    assert bot_keys(simcord_env, board) == KEYCAPS
    assert "react with a board's number" in text(simcord_env, board)
    assert "choose any of the nine boards" in text(simcord_env, board)
    await alice.react(board, KEYCAPS[4])  # the centre board
    assert "react with a cell's number in the board D4–F6" in text(simcord_env, board)
    await alice.react(board, KEYCAPS[4])  # its centre cell: E5
    game = await game_of(simcord_env, board)
    assert game.moves[0] == 40 and len(game.moves) == 2
    target = UltimateBoard.from_moves(game.moves).board_to_play()
    assert target is not None
    await alice.react(board, KEYCAPS[0])
    after = await game_of(simcord_env, board)
    legal = UltimateBoard.from_moves(game.moves).legal_moves()
    assert len(after.moves) >= 3 and after.moves[2] in legal


async def test_an_ultimate_game_goes_on_after_a_restart(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    message = board_message(channel)
    await move(simcord_env, alice, message)
    await simcord_env.settle()
    before = await stored(simcord_env)
    await restart(simcord_env, make_bot)
    result = await move(simcord_env, alice, message)
    assert result.acknowledged and not result.ephemeral
    await simcord_env.settle()
    after = await stored(simcord_env)
    assert after.moves[: len(before.moves)] == before.moves and len(after.moves) > len(before.moves)
