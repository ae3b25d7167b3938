"""Ultimate tic-tac-toe on Discord: the board message, picking a small board then a cell, the
bot's replies, a friend's game, refusals, hints, reviews and stats kept apart."""

from __future__ import annotations

from simcord import Env

from bot.client import TicTacToeBot
from bot.games import kinds
from bot.games.record import Status
from devkit.simcord_board import board_message, guild_with, resign, text
from engine.ultimate import UltimateBoard
from engine.ultimate.geometry import board_cells
from tests.bot.ultimate_support import buttons, ids, labels, move, open_cells, stored
from tests.support.burst import click_together
from tests.support.forge import forged_click

BOARD_E = (30, 31, 32, 39, 40, 41, 48, 49, 50)  # the centre small board, D4 to F6


async def test_a_new_game_shows_nine_boards_and_asks_for_a_board(simcord_env: Env) -> None:
    """The grid with the small boards set apart and named cells; free to choose, the buttons
    are the nine boards (the words say any may be chosen), then Hint and Resign; the bot's level
    is named (expert)."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    result = await alice.slash(channel, "tictactoe", variant="ultimate")
    assert result.acknowledged and not result.ephemeral
    message = board_message(channel)
    shown = text(simcord_env, message)
    assert "Ultimate tic-tac-toe" in shown and "(bot, expert)" in shown
    lines = shown.split("\n")
    assert any(line.startswith("1️⃣⬜⬜⬜ ⬜⬜⬜ ⬜⬜⬜") for line in lines)
    assert f"{alice.mention}, your move (❌)" in shown
    assert "First move: choose any of the nine boards, then a cell in it." in shown
    assert ids(simcord_env, message)[:9] == [f"pick{b}@0" for b in range(9)]
    assert labels(simcord_env, message)[:9][4] == "D4–F6"
    assert labels(simcord_env, message)[9:] == ["Hint", "Resign"]
    assert len(shown) < 4000 and len(buttons(simcord_env, message)) <= 25


async def test_picking_a_board_shows_its_cells_and_a_way_back(simcord_env: Env) -> None:
    """A board picked shows its nine cells by name, with Other boards to go back; nothing is
    stored; someone else's pick is refused privately."""
    _, channel, (alice, carol) = guild_with(simcord_env, "alice", "carol")
    await alice.slash(channel, "tictactoe", variant="ultimate")
    message = board_message(channel)
    outsider = await carol.click(message, custom_id="ttt:1:pick4@0")
    assert outsider.ephemeral and "This game is between" in outsider.response.content
    picked = await alice.click(message, custom_id="ttt:1:pick4@0")
    assert picked.acknowledged and not picked.ephemeral
    assert ids(simcord_env, message)[:9] == [f"{cell}@0" for cell in BOARD_E]
    assert labels(simcord_env, message)[:9] == [
        "D4",
        "E4",
        "F4",
        "D5",
        "E5",
        "F5",
        "D6",
        "E6",
        "F6",
    ]
    assert "Other boards" in labels(simcord_env, message)
    assert (await stored(simcord_env)).moves == ()
    await alice.click(message, custom_id="ttt:1:back@0")
    assert ids(simcord_env, message)[:9] == [f"pick{b}@0" for b in range(9)]


async def test_a_move_and_the_bots_reply_set_the_board_to_play(simcord_env: Env) -> None:
    """E5 sends the bot to the centre board; its reply sends Alice on; then her buttons are the
    cells of that board only, and the grid and caption say where to play."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:pick4@0")
    result = await alice.click(message, custom_id="ttt:1:40@0")
    assert result.acknowledged and not result.ephemeral
    await simcord_env.settle()
    game = await stored(simcord_env)
    assert len(game.moves) == 2 and game.moves[0] == 40 and game.moves[1] in BOARD_E
    target = UltimateBoard.from_moves(game.moves).board_to_play()
    assert target is not None
    cells_now = [i.split("@")[0] for i in ids(simcord_env, message)[:9]]
    assert cells_now == [str(c) for c in board_cells(target)]
    assert all(i.endswith("@2") for i in ids(simcord_env, message)[:9])
    assert "Last move: ⭕" in text(simcord_env, message) and "🟨" in text(simcord_env, message)
    assert "First move" not in text(simcord_env, message)


async def test_clicks_on_a_position_the_game_left_or_outside_the_board_play_nothing(
    simcord_env: Env,
) -> None:
    """A button drawn before the last move, a cell outside the board to play: each a private
    line; the stored game is unchanged."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:pick4@0")
    await alice.click(message, custom_id="ttt:1:40@0")
    await simcord_env.settle()
    before = await stored(simcord_env)
    stale = await forged_click(simcord_env, alice, message, "ttt:1:pick0@0", channel=channel)
    assert (
        stale.ephemeral and "The board changed before your click arrived" in stale.response.content
    )
    target = UltimateBoard.from_moves(before.moves).board_to_play()
    assert target is not None
    elsewhere = next(c for c in range(81) if c not in board_cells(target) and c not in before.moves)
    wrong = await forged_click(simcord_env, alice, message, f"ttt:1:{elsewhere}@2", channel=channel)
    assert wrong.ephemeral and "not in the board to play" in wrong.response.content
    assert (await stored(simcord_env)).moves == before.moves


async def test_two_clicks_at_once_play_one_move(simcord_env: Env) -> None:
    """Two cells of the picked board clicked together: one move, the other refused privately."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob, variant="ultimate")
    message = board_message(channel)
    await bob.click(message, label="Accept")
    await alice.click(message, custom_id="ttt:1:pick4@0")
    results = await click_together(
        simcord_env, [(alice, message, "ttt:1:40@0"), (alice, message, "ttt:1:30@0")]
    )
    assert sorted(r.ephemeral for r in results) == [False, True]
    assert len((await stored(simcord_env)).moves) == 1


async def test_a_game_against_the_bot_plays_to_the_end_with_review_and_its_own_stats(
    simcord_env: Env,
) -> None:
    """Against the easy bot to the end: Rematch and Review; the review answers privately; the
    result counts in ultimate's stats only."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    message = board_message(channel)
    for _ in range(60):
        game = await stored(simcord_env)
        if game.status is Status.FINISHED:
            break
        result = await move(simcord_env, alice, message)
        assert result.acknowledged and not result.ephemeral
        await simcord_env.settle()
    game = await stored(simcord_env)
    assert game.status is Status.FINISHED and game.kind == "ultimate"
    labels = [b.get("label") for b in buttons(simcord_env, message)]
    assert labels == ["Rematch", "Review", "Replay"]
    review = await alice.click(message, label="Review")
    assert review.ephemeral and review.response.content.startswith("**Review of game 1**")
    assert "balance" not in review.response.content  # how X stood, in words
    if "the engine preferred" in review.response.content:
        assert "For ❌: " in review.response.content
    bot = simcord_env.bot
    assert isinstance(bot, TicTacToeBot)
    ultimate = await bot.store.player_stats(guild.id, alice.id, "ultimate")
    classic = await bot.store.player_stats(guild.id, alice.id)
    played = ultimate.vs_bot["easy"]
    assert played.wins + played.draws + played.losses == 1
    assert classic.vs_bot["easy"] == type(played)()
    shown = await alice.slash(channel, "tictactoe-stats", variant="ultimate")
    assert "**Ultimate tic-tac-toe record of" in shown.response.content
    assert "Easy:" in shown.response.content


async def test_a_hint_names_a_legal_cell(simcord_env: Env) -> None:
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="hard")
    message = board_message(channel)
    await alice.click(message, custom_id="ttt:1:pick4@0")
    await alice.click(message, custom_id="ttt:1:40@0")
    await simcord_env.settle()
    hint = await alice.click(message, label="Hint")
    await simcord_env.settle()
    assert hint.ephemeral
    words = hint.followups[-1].content if hint.followups else hint.response.content
    game = await stored(simcord_env)
    legal = {
        kinds.ULTIMATE.cell_name(game, c)
        for c in UltimateBoard.from_moves(game.moves).legal_moves()
    }
    assert words.startswith("💡 Play ") and words.split()[2].rstrip(":") in legal
    assert "balance" not in words and ("the engine's estimate" in words or "force" in words)


async def test_two_friends_play_ultimate_and_an_outsider_is_refused(simcord_env: Env) -> None:
    _, channel, (alice, bob, carol) = guild_with(simcord_env, "alice", "bob", "carol")
    await alice.slash(channel, "tictactoe", opponent=bob, variant="ultimate")
    message = board_message(channel)
    await bob.click(message, label="Accept")
    assert ids(simcord_env, message)[:9] == [f"pick{b}@0" for b in range(9)]
    assert (await move(simcord_env, alice, message)).acknowledged
    out_of_turn = await alice.click(
        message, custom_id=f"ttt:1:{open_cells(simcord_env, message)[0]}"
    )
    assert out_of_turn.ephemeral and "not your turn" in out_of_turn.response.content
    outsider = await carol.click(message, custom_id=f"ttt:1:{open_cells(simcord_env, message)[0]}")
    assert outsider.ephemeral
    assert (await move(simcord_env, bob, message)).acknowledged
    assert len((await stored(simcord_env)).moves) == 2
    await resign(alice, message)
    board = await bob.slash(channel, "tictactoe-leaderboard", variant="ultimate")
    assert "**Ultimate tic-tac-toe leaderboard" in board.response.content
    assert board.response.content.index(bob.mention) < board.response.content.index(alice.mention)
    classic = await bob.slash(channel, "tictactoe-leaderboard")
    assert "No rated games" in classic.response.content


async def test_size_with_ultimate_is_refused(simcord_env: Env) -> None:
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    result = await alice.slash(channel, "tictactoe", variant="ultimate", size=4)
    assert result.ephemeral and "ultimate is always nine 3×3 boards" in result.response.content
    assert channel.last_message is None


async def test_a_closed_small_board_can_be_neither_picked_nor_played(simcord_env: Env) -> None:
    """X wins the top-left board; sent there, X may choose: a pick of the closed board and a
    click on one of its cells (forged: neither is on the board) are each one private line."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob, variant="ultimate")
    message = board_message(channel)
    await bob.click(message, label="Accept")
    await alice.click(message, custom_id="ttt:1:pick0@0")
    for ply, (player, cell) in enumerate(
        zip((alice, bob, alice, bob, alice, bob), (19, 57, 20, 60, 18, 54), strict=True)
    ):
        result = await player.click(message, custom_id=f"ttt:1:{cell}@{ply}")
        assert result.acknowledged and not result.ephemeral, (ply, cell)
    assert (
        ids(simcord_env, message)[0] == "pick0@6" and buttons(simcord_env, message)[0]["disabled"]
    )
    picked = await forged_click(simcord_env, alice, message, "ttt:1:pick0@6", channel=channel)
    assert picked.ephemeral and "That small board is closed" in picked.response.content
    played = await forged_click(simcord_env, alice, message, "ttt:1:0@6", channel=channel)
    assert played.ephemeral and "That small board is closed" in played.response.content
    assert len((await stored(simcord_env)).moves) == 6


async def test_the_clock_runs_out_and_a_rematch_is_ultimate_again(simcord_env: Env) -> None:
    """Bob lets the turn timeout pass after Alice's move: he forfeits; Rematch challenges Alice
    to a new ultimate game with the first move swapped."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob, variant="ultimate")
    message = board_message(channel)
    await bob.click(message, label="Accept")
    await move(simcord_env, alice, message)
    await simcord_env.advance_time(301)
    shown = text(simcord_env, message)
    assert f"⌛ {bob.mention} ran out of time. ❌ {alice.mention} wins by forfeit." in shown
    labels = [b.get("label") for b in buttons(simcord_env, message)]
    assert labels == ["Rematch", "Review", "Replay"]
    await bob.click(message, label="Rematch")
    rematch = board_message(channel)
    await alice.click(rematch, label="Accept")
    game = await stored(simcord_env, 2)
    assert game.kind == "ultimate" and game.x_id == bob.id and game.status is Status.ACTIVE
