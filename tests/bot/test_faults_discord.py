"""Discord misbehaving: failed edits, a deleted board, lost permissions (a gateway reconnect:
``test_faults_reconnect``).

Whatever Discord refuses, the stored game stays right, every click still gets exactly one
answer, and the board catches up with the store on the next click.
"""

from __future__ import annotations

import discord
import pytest
from simcord import Env

from bot.games.record import Ending, Status
from devkit.simcord_board import board_message, game_id_of, guild_with
from tests.bot.faults_support import (
    CALLBACK,
    CHANNEL_EDIT,
    ORIGINAL,
    answered_once,
    deny,
    marks,
    moderator,
    people_game,
    set_bot_overwrite,
    shows_store,
    stored,
)

# ------------------------------------------------------------- failed edits


@pytest.mark.parametrize("status", [500, 502, 503, 504, 429])
async def test_a_click_whose_board_update_fails_is_answered_once_and_caught_up_without_a_click(
    simcord_env: Env, status: int
) -> None:
    """Discord fails the update and the channel edit: the move is kept, the clicker told, and
    the board catches up in the background with nobody clicking; then Bob plays on it."""
    _, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=status)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=status)

    failed = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert answered_once(failed) and failed.ephemeral
    assert "would not let me update the board" in failed.response.content
    assert (await stored(simcord_env, game)).moves == (4,)
    await simcord_env.settle()
    assert marks(simcord_env, message)[4] == "X"  # shown with no click
    assert await shows_store(simcord_env, message, game)

    nxt = await bob.click(message, custom_id=f"ttt:{game}:0")
    assert answered_once(nxt) and not nxt.ephemeral
    assert (await stored(simcord_env, game)).moves == (4, 0)
    assert await shows_store(simcord_env, message, game)


async def test_a_board_still_behind_is_shown_by_a_refused_click(simcord_env: Env) -> None:
    """The channel edit keeps failing, so the board cannot catch up by itself; once Discord is
    well, Alice, not seeing her move, clicks again: told it is Bob's turn, the board shows it."""
    _, _, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=500)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=500, times=None)  # until cleared
    await alice.click(message, custom_id=f"ttt:{game}:4")
    assert not await shows_store(simcord_env, message, game)
    simcord_env.backend.faults.clear()

    again = await alice.click(message, custom_id=f"ttt:{game}:8")

    assert answered_once(again) and again.ephemeral
    assert f"It's not your turn: waiting for {bob.mention}." in again.response.content
    assert (await stored(simcord_env, game)).moves == (4,)
    assert await shows_store(simcord_env, message, game)


async def test_a_passing_failure_is_repaired_by_the_channel_edit_at_once(simcord_env: Env) -> None:
    """Only the click's update fails (a 429): the board is edited another way, no error shown."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=429, message="You are being rate limited.")

    result = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert answered_once(result) and not result.ephemeral  # acknowledged without a word
    moves = (await stored(simcord_env, game)).moves
    assert moves[0] == 4 and len(moves) == 2  # the bot's reply went in too
    assert await shows_store(simcord_env, message, game)
    assert marks(simcord_env, message).count("O") == 1


@pytest.mark.usefixtures("two_step_replies")
@pytest.mark.parametrize("status", [500, 502, 503, 504, 429])
async def test_the_bots_reply_that_cannot_be_shown_shows_without_a_click(
    simcord_env: Env, status: int
) -> None:
    """A 4x4 reply that outlasts the click's wait is a second edit; it is stored but the edit
    (through the click, then the channel) fails: Alice is told, and the board shows the reply
    with no click of hers (she waits for the bot); then she plays."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", size=4)
    message = board_message(channel)
    game = game_id_of(simcord_env, message, 4)
    simcord_env.inject_error("PATCH", ORIGINAL, status=status)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=status)

    first = await alice.click(message, custom_id=f"ttt:{game}:5")

    assert first.acknowledged and not first.ephemeral  # her move itself was shown
    assert [f.content for f in first.followups] == [
        "Saved, but Discord would not let me update the board just now; "
        "it will catch up on its own shortly."
    ]
    await simcord_env.settle()
    reply = (await stored(simcord_env, game)).moves[1]
    assert marks(simcord_env, message, 4)[reply] == "O"
    assert await shows_store(simcord_env, message, game)

    free = next(i for i in range(16) if i not in (5, reply))
    second = await alice.click(message, custom_id=f"ttt:{game}:{free}")

    assert answered_once(second) and not second.ephemeral
    now = await stored(simcord_env, game)
    assert now.moves[:3] == (5, reply, free)
    assert await shows_store(simcord_env, message, game)


async def test_a_forfeit_that_cannot_be_shown_at_once_is_kept_and_shown_without_a_click(
    simcord_env: Env,
) -> None:
    """The deadline's edit fails: the forfeit stands, the channel is free, and the board shows
    the end with nobody clicking."""
    _, channel, _alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("PATCH", CHANNEL_EDIT, status=503)

    await simcord_env.advance_time(301)

    over = await stored(simcord_env, game)
    assert (over.status, over.ending, over.winner) == (Status.FINISHED, Ending.TIMEOUT, "O")
    await simcord_env.settle()
    assert await shows_store(simcord_env, message, game)
    assert not (await bob.slash(channel, "tictactoe")).ephemeral
    assert simcord_env.errors == []


# ----------------------------------------------------------- a deleted board


@pytest.mark.parametrize("vs_bot", [False, True])
async def test_a_deleted_board_abandons_its_game_and_frees_the_channel(
    simcord_env: Env, vs_bot: bool
) -> None:
    """A moderator deletes the board mid-game: abandoned, counted for nobody, channel free."""
    guild, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    mod = await moderator(simcord_env, guild)
    await alice.slash(channel, "tictactoe", **({} if vs_bot else {"opponent": bob}))
    message = board_message(channel)
    if not vs_bot:
        await bob.click(message, label="Accept")
    game = game_id_of(simcord_env, message)
    await alice.click(message, custom_id=f"ttt:{game}:4")

    await mod.delete(message)

    gone = await stored(simcord_env, game)
    assert (gone.status, gone.ending, gone.winner) == (Status.FINISHED, Ending.ABANDONED, None)
    for player in (alice, bob):
        stats = await simcord_env.bot.store.player_stats(guild.id, player.id)
        assert stats.vs_people.games == 0 and all(r.games == 0 for r in stats.vs_bot.values())
    fresh = await alice.slash(channel, "tictactoe")
    assert answered_once(fresh) and not fresh.ephemeral
    # The old game's clock is gone with it: nothing fires later.
    await simcord_env.advance_time(600)
    assert (await stored(simcord_env, game)).ending is Ending.ABANDONED
    assert simcord_env.errors == []


async def test_a_click_racing_the_deletion_is_told_the_game_ended(simcord_env: Env) -> None:
    """The update of a click gets 404 Unknown Message: the game is abandoned, the clicker told."""
    _, channel, alice, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    simcord_env.inject_error("POST", CALLBACK, status=404, code=10008, message="Unknown Message")

    result = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert answered_once(result) and result.ephemeral
    assert "The board message was deleted, so this game has ended" in result.response.content
    assert (await stored(simcord_env, game)).ending is Ending.ABANDONED
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


# ------------------------------------------------------------ lost permissions


async def test_no_game_starts_where_the_bot_cannot_send(simcord_env: Env) -> None:
    """/tictactoe where the bot may not send: refused, naming the missing permission."""
    _guild, channel, (alice,) = guild_with(simcord_env, "alice")
    set_bot_overwrite(simcord_env, channel, deny("send_messages"))
    await simcord_env.settle()

    result = await alice.slash(channel, "tictactoe")

    assert answered_once(result) and result.ephemeral
    assert "missing the **Send Messages** permission" in result.response.content
    assert channel.last_message is None
    set_bot_overwrite(simcord_env, channel, discord.PermissionOverwrite())
    await simcord_env.settle()
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_a_player_is_told_when_the_bot_lost_view_channel_mid_game(simcord_env: Env) -> None:
    """View Channel is taken away: clicks still work, each player is told what is missing."""
    _, channel, alice, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    set_bot_overwrite(simcord_env, channel, deny("view_channel"))
    await simcord_env.settle()

    result = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert result.acknowledged and not result.ephemeral  # the move is shown (the click's answer)
    assert marks(simcord_env, message)[4] == "X"
    notes = [f.content for f in result.followups]
    assert len(notes) == 1 and "missing the **View Channel** permission" in notes[0]
    assert simcord_env.errors == []


async def test_a_click_whose_update_is_forbidden_names_the_missing_permission(
    simcord_env: Env,
) -> None:
    """Discord answers 403 to the update: one private answer naming it; the move is kept."""
    _, channel, alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    set_bot_overwrite(simcord_env, channel, deny("view_channel", "read_message_history"))
    await simcord_env.settle()
    simcord_env.inject_error("POST", CALLBACK, status=403, code=50001, message="Missing Access")

    result = await alice.click(message, custom_id=f"ttt:{game}:4")

    assert result.acknowledged and result.ephemeral
    first = result.response.content
    assert "I can't update the board" in first
    assert "**View Channel** and **Read Message History** permissions" in first
    assert (await stored(simcord_env, game)).moves == (4,)

    # The permission comes back: Bob's click, on a board without Alice's move, shows it.
    set_bot_overwrite(simcord_env, channel, discord.PermissionOverwrite())
    await simcord_env.settle()
    nxt = await bob.click(message, custom_id=f"ttt:{game}:0")
    assert answered_once(nxt) and nxt.ephemeral
    assert "X played B2" in nxt.response.content
    assert await shows_store(simcord_env, message, game)


async def test_a_forfeit_while_the_bot_cannot_see_the_channel_is_kept(simcord_env: Env) -> None:
    """The deadline's edit is refused (403): the forfeit stands and shows once access is back."""
    _, channel, _alice, bob, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    set_bot_overwrite(simcord_env, channel, deny("view_channel"))
    await simcord_env.settle()

    await simcord_env.advance_time(301)

    assert (await stored(simcord_env, game)).ending is Ending.TIMEOUT
    assert not await shows_store(simcord_env, message, game)
    assert simcord_env.errors == []

    set_bot_overwrite(simcord_env, channel, discord.PermissionOverwrite())
    await simcord_env.settle()
    late = await bob.click(message, custom_id=f"ttt:{game}:4")
    assert answered_once(late) and late.ephemeral and "This game is over" in late.response.content
    assert await shows_store(simcord_env, message, game)
