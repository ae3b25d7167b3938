"""Moves by reactions (the server setting ``input``), through SimCord: whole games on 3x3, 4x4 and
5x5 against the bot and a friend, with and without Manage Messages; refusals that stay quiet;
races between reactions and buttons; a restart mid-game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord import Env

from bot.client import TicTacToeBot
from bot.cogs.games.reactions import NOTICE
from bot.games import look as looks
from bot.games.record import Status
from devkit.simcord_board import board_message, raw, text
from tests.bot.faults_support import deny, set_bot_overwrite
from tests.bot.test_server_settings import server_with_admin
from tests.support.burst import click_together


def reactions(env: Env, message: Any) -> dict[str, list[int]]:
    """The message's reactions: emoji -> who reacted."""
    return {r.emoji: list(r.user_ids) for r in raw(env, message).reactions}


def bot_keys(env: Env, message: Any) -> list[str]:
    """The reactions the bot put on the board, in order."""
    me = env.backend.bot_user.id
    return [emoji for emoji, users in reactions(env, message).items() if me in users]


def free(game: Any) -> list[int]:
    return [c for c in range(game.size * game.size) if c not in game.moves]


def taken(env: Env, message: Any) -> int:
    """How many cells the board's grid shows taken (marks, not keys or empty squares)."""
    grid = text(env, message).split("\n\n")[1]
    return sum(grid.count(mark) for mark in ("❌", "⭕"))


async def reaction_server(env: Env, mode: str = "reactions", *names: str) -> tuple[Any, ...]:
    guild, channel, admin, members = server_with_admin(env, *(names or ("alice", "bob")))
    done = await admin.slash(channel, "tictactoe-settings set", input=mode)
    assert "Saved." in done.response.content
    return guild, channel, admin, members


async def game_of(env: Env, message: Any) -> Any:
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    game_id = int(message.components[-1].children[0].custom_id.split(":")[1])
    return await bot.store.load_game(game_id)


@pytest.mark.parametrize("size", [3, 4])
async def test_a_game_against_the_bot_by_reactions(simcord_env: Env, size: int) -> None:
    """The board carries one reaction per cell and no cell buttons; Alice plays by reacting,
    the bot answers; each reaction she adds is taken back by the bot (Manage Messages)."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    await alice.slash(channel, "tictactoe", size=size, difficulty="easy")
    board = board_message(channel)
    assert bot_keys(simcord_env, board) == looks.keys(size)
    assert all(not b.custom_id[-1].isdigit() for row in board.components[1:] for b in row.children)

    game = await game_of(simcord_env, board)
    while game.status is Status.ACTIVE:
        before = len(game.moves)
        key = looks.keys(size)[free(game)[0]]
        await alice.react(board, key)
        game = await game_of(simcord_env, board)
        assert len(game.moves) > before and taken(simcord_env, board) == len(game.moves)
        assert alice.id not in reactions(simcord_env, board).get(key, [])
    assert game.ending is not None


async def test_5x5_takes_a_column_then_a_row_and_shows_the_column_picked(simcord_env: Env) -> None:
    """On 5x5 a column reaction is shown on the board until its row comes; then the move is
    made in that cell; a row with no column picked plays nothing."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    await alice.slash(channel, "tictactoe", size=5, win_length=4, difficulty="easy")
    board = board_message(channel)
    assert bot_keys(simcord_env, board) == looks.keys(5)

    await alice.react(board, "3️⃣")  # a row first: nothing
    assert (await game_of(simcord_env, board)).moves == ()
    await alice.react(board, "🇨")
    assert "column 🇨 picked" in text(simcord_env, board)
    await alice.react(board, "2️⃣")  # row 2, column C: cell 7
    game = await game_of(simcord_env, board)
    assert game.moves[0] == 7 and len(game.moves) == 2
    assert "picked" not in text(simcord_env, board)


async def test_a_friend_game_by_reactions_refuses_quietly(simcord_env: Env) -> None:
    """Alice and Bob play by reactions; Bob out of turn and Carol, no player, change nothing,
    and their reactions are removed without a word in the channel; Bob on a taken cell in his
    turn hears why in a reply that goes away. Each key goes once its cell is taken, and every
    reaction once the game is over."""
    _, channel, _, (alice, bob, carol) = await reaction_server(
        simcord_env, "reactions", "alice", "bob", "carol"
    )
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Accept")
    assert bot_keys(simcord_env, board) == looks.keys(3)
    messages = len(raw_messages(simcord_env, channel))

    await bob.react(board, "5️⃣")  # Alice (X) moves first
    await carol.react(board, "5️⃣")
    assert (await game_of(simcord_env, board)).moves == ()
    assert reactions(simcord_env, board)["5️⃣"] == [simcord_env.backend.bot_user.id]
    assert len(raw_messages(simcord_env, channel)) == messages  # nothing said in the channel

    await alice.react(board, "1️⃣")
    assert bot_keys(simcord_env, board) == looks.keys(3)[1:]  # cell A1 is taken: its key goes
    await bob.react(board, "1️⃣")  # a board that has moved on: the cell is Alice's now
    assert (await game_of(simcord_env, board)).moves == (0,)
    said = raw_messages(simcord_env, channel)
    assert len(said) == messages + 1
    notice = next(m for m in said if m.id != board.id and "already taken" in m.content)
    assert notice.content.startswith(f"<@{bob.id}> ")
    assert notice.reference is not None and notice.reference.message_id == board.id
    await bob.react(board, "1️⃣")  # again at once: one reply at a time
    assert len(raw_messages(simcord_env, channel)) == messages + 1

    for who, key in ((bob, "4️⃣"), (alice, "2️⃣"), (bob, "5️⃣"), (alice, "3️⃣")):
        await who.react(board, key)
    game = await game_of(simcord_env, board)
    assert game.ending is not None and game.winner == "X"
    assert "wins" in text(simcord_env, board)
    assert reactions(simcord_env, board) == {}  # over: every key cleared (Manage Messages)
    await simcord_env.advance_time(NOTICE + 1)
    assert len(raw_messages(simcord_env, channel)) == messages  # the reply went away


def raw_messages(env: Env, channel: Any) -> list[Any]:
    return list(channel.history())


async def test_without_manage_messages_reactions_still_play(simcord_env: Env) -> None:
    """The bot cannot remove reactions: moves still count, the players' reactions stay, and a
    5x5 key used twice is taken back and added again (one move per toggle)."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    set_bot_overwrite(simcord_env, channel, deny("manage_messages"))
    await alice.slash(channel, "tictactoe", size=5, win_length=4, difficulty="easy")
    board = board_message(channel)

    await alice.react(board, "🇦")
    await alice.react(board, "1️⃣")  # A1: cell 0
    game = await game_of(simcord_env, board)
    assert game.moves[0] == 0
    assert alice.id in reactions(simcord_env, board)["🇦"]  # left where it is
    await alice.unreact(board, "🇦")  # taking a reaction back plays nothing
    assert (await game_of(simcord_env, board)).moves == game.moves
    await alice.react(board, "🇦")
    free_row = next(r for r in range(5) if r * 5 not in game.moves)
    await alice.react(board, looks.keys(5)[5 + free_row])
    assert (await game_of(simcord_env, board)).moves[2] == free_row * 5


async def test_without_manage_messages_the_bot_takes_its_own_dead_keys_away(
    simcord_env: Env,
) -> None:
    """Without Manage Messages the bot still takes its own key of each taken cell away, and the
    rest of its keys at the end; the players' reactions stay (it may not remove them)."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    set_bot_overwrite(simcord_env, channel, deny("manage_messages"))
    await alice.slash(channel, "tictactoe", difficulty="easy")
    board = board_message(channel)
    game = await game_of(simcord_env, board)
    played: list[str] = []
    while game.status is Status.ACTIVE:
        key = looks.keys(3)[free(game)[0]]
        await alice.react(board, key)
        played.append(key)
        game = await game_of(simcord_env, board)
        if game.status is Status.ACTIVE:
            assert bot_keys(simcord_env, board) == [looks.keys(3)[c] for c in free(game)]
    assert bot_keys(simcord_env, board) == []
    assert sorted(reactions(simcord_env, board)) == sorted(played)  # Alice's, left in place


async def test_a_reaction_and_a_click_at_once_make_one_move(simcord_env: Env) -> None:
    """input both: cell buttons and reactions; Alice clicks one cell and reacts on another at
    the same moment, and again two reactions at once: one move each time, never two."""
    _, channel, _, (alice, bob) = await reaction_server(simcord_env, "both")
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Accept")
    game_id = (await game_of(simcord_env, board)).id

    await click_together(
        simcord_env, [(alice, board, f"ttt:{game_id}:0")], reactions=[(alice, board, "9️⃣")]
    )
    first = await game_of(simcord_env, board)
    assert len(first.moves) == 1 and first.moves[0] in (0, 8)
    await click_together(simcord_env, [], reactions=[(bob, board, "4️⃣"), (bob, board, "6️⃣")])
    second = await game_of(simcord_env, board)
    assert len(second.moves) == 2 and second.moves[1] in (3, 5)


async def keys_missing(env: Env) -> tuple[Any, Any, Any]:
    """Alice against the bot on a board moved by reactions, two of the bot's keys (8️⃣, 9️⃣) not
    on it, as when the bot stopped before adding them: (channel, alice, board)."""
    _, channel, _, (alice, _) = await reaction_server(env)
    await alice.slash(channel, "tictactoe", difficulty="easy")
    board = board_message(channel)
    for key in ("8️⃣", "9️⃣"):
        env.backend.remove_reaction(channel.id, board.id, key, env.backend.bot_user.id)
    return channel, alice, board


async def test_a_restart_adds_what_was_left_and_reactions_still_move(
    simcord_env: Env, make_bot: Callable[..., TicTacToeBot]
) -> None:
    """The bot stopped before all its reactions were on the board (two taken off here); a move
    made with a missing key counts; after a restart the missing reactions are added and the
    game goes on by reactions, read from raw events with nothing cached."""
    channel, alice, board = await keys_missing(simcord_env)
    await alice.react(board, "9️⃣")  # before the reaction is there: it counts
    game = await game_of(simcord_env, board)
    assert game.moves[0] == 8
    left = [looks.keys(3)[c] for c in free(game)]
    assert bot_keys(simcord_env, board) == left  # the free cells' keys, 8️⃣'s if free
    me = simcord_env.backend.bot_user.id
    simcord_env.backend.remove_reaction(channel.id, board.id, left[-1], me)  # as at a stop

    await simcord_env.bot.release()
    await simcord_env.restart_bot(make_bot())
    assert bot_keys(simcord_env, board) == left
    await alice.react(board, looks.keys(3)[free(game)[0]])
    assert len((await game_of(simcord_env, board)).moves) == 4


async def test_without_add_reactions_a_reaction_board_does_not_start(simcord_env: Env) -> None:
    """input reactions and no Add Reactions in the channel: one private line naming it."""
    _, channel, _, (alice, _) = await reaction_server(simcord_env)
    set_bot_overwrite(simcord_env, channel, deny("add_reactions"))
    refused = await alice.slash(channel, "tictactoe")
    assert refused.ephemeral and "**Add Reactions**" in refused.response.content


async def react_key(env: Env, who: Any, board: Any, key: str) -> None:
    """React with `key`; where the reactor's own reaction is still there (the bot may not remove
    it), take it back first, as a person does to use it again."""
    if who.id in reactions(env, board).get(key, []):
        await who.unreact(board, key)
    await who.react(board, key)


@pytest.mark.parametrize("manage", [True, False], ids=["manage messages", "no manage messages"])
@pytest.mark.parametrize("friend", [False, True], ids=["vs bot", "vs friend"])
@pytest.mark.parametrize("size", [3, 4, 5])
async def test_a_whole_game_by_reactions(
    simcord_env: Env, size: int, friend: bool, manage: bool
) -> None:
    """Every board, against the bot and a friend, with and without Manage Messages: played by
    reactions alone to its end, each reaction one move (on 5x5 a column and a row)."""
    _, channel, _, (alice, bob) = await reaction_server(simcord_env)
    if not manage:
        set_bot_overwrite(simcord_env, channel, deny("manage_messages"))
    options: dict[str, Any] = {"size": size, "win_length": min(size, 4)}
    await alice.slash(channel, "tictactoe", **({"opponent": bob} if friend else {}), **options)
    board = board_message(channel)
    if friend:
        await bob.click(board, label="Accept")
    assert bot_keys(simcord_env, board) == looks.keys(size)
    game = await game_of(simcord_env, board)
    while game.status is Status.ACTIVE:
        player = alice if len(game.moves) % 2 == 0 else bob
        cell = free(game)[-1]
        if looks.picks_cell(size):
            await react_key(simcord_env, player, board, looks.keys(size)[cell])
        else:
            await react_key(simcord_env, player, board, looks.keys(5)[cell % 5])
            await react_key(simcord_env, player, board, looks.keys(5)[5 + cell // 5])
        after = await game_of(simcord_env, board)
        assert after.moves[len(game.moves)] == cell
        game = after
    assert game.ending is not None and "resign" not in str(raw(simcord_env, board).components)
    mine = [u for users in reactions(simcord_env, board).values() for u in users if u != 0]
    people = {alice.id, bob.id}
    assert (not any(u in people for u in mine)) is manage  # taken back only with the permission
