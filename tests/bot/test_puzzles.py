"""/tictactoe-puzzle in a server: a puzzle near the player's rating, solved by clicking with the
defence answering, a wrong move ending the attempt with the reason, a hint that counts, clicks of
others refused privately, the daily puzzle once a day, the leaderboard."""

from __future__ import annotations

from typing import Any

from simcord import Env

from bot.games.puzzles import setup_moves
from engine import cell_name
from engine.puzzles import Attempt, by_id, hint, play
from tests.bot.game_support import board_message, cells, controls, guild_with, rows, text


def puzzle_of(env: Env, message: Any) -> Any:
    """The puzzle a board message shows, read from its title."""
    title = text(env, message).split("\n")[0]
    puzzle = by_id(title.split("Puzzle ")[1].split(" ")[0])
    assert puzzle is not None
    return puzzle


def attempt_id(env: Env, message: Any, size: int) -> int:
    """The attempt a board message belongs to, read from its buttons."""
    return int(cells(env, message, size)[0].custom_id.split(":")[1])


async def click_cell(env: Env, player: Any, message: Any, size: int, cell: int) -> Any:
    """Click the button of `cell` on the board (whatever ply it was drawn at)."""
    button = cells(env, message, size)[cell]
    return await player.click(message, custom_id=button.custom_id)


async def solve(env: Env, player: Any, message: Any) -> Attempt:
    """Play the puzzle's fastest line by clicking; the attempt as the engine saw it."""
    puzzle = puzzle_of(env, message)
    size = puzzle.board.size
    attempt = Attempt(puzzle)
    while attempt.state == "playing":
        _, cell = hint(attempt)
        result = await click_cell(env, player, message, size, cell)
        assert result.acknowledged and not result.ephemeral
        attempt = play(attempt, cell)
    return attempt


async def test_a_puzzle_is_solved_by_clicking_and_the_defence_answers(simcord_env: Env) -> None:
    """The board shows the puzzle's position, each empty cell's button named (C4); each right
    move is answered by the defence on the same message; the solve says so and moves the
    player's rating up."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    result = await alice.slash(channel, "tictactoe-puzzle")
    assert result.acknowledged and not result.ephemeral
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    shown = text(simcord_env, message)
    assert f"{alice.mention} plays" in shown and f"wins in {puzzle.moves} moves" in shown
    marks = [c.mark for c in cells(simcord_env, message, size)]
    assert marks == [None if m == "." else m for m in puzzle.board.to_string().replace("/", "")]
    buttons = [b for row in rows(simcord_env, message)[:size] for b in row]
    named = {b["label"]: cell for cell, b in enumerate(buttons) if "label" in b}
    assert named == {cell_name(c, size): c for c, m in enumerate(marks) if m is None}
    assert list(controls(simcord_env, message, size)) == ["Hint"]
    first = puzzle.solution
    await click_cell(simcord_env, alice, message, size, first)
    after = play(Attempt(puzzle), first)
    board = cells(simcord_env, message, size)
    assert board[first].mark == puzzle.board.turn and board[first].disabled
    assert board[after.moves[-1]].mark is not None  # the defence, drawn at once
    name, reply = cell_name(first, size), cell_name(after.moves[-1], size)
    assert f"**{name}** is right. I answer **{reply}**" in text(simcord_env, message)
    end = await solve_rest(simcord_env, alice, message, after)
    assert end.state == "solved"
    shown = text(simcord_env, message)
    assert "Solved:" in shown and "Your puzzle rating: 1500 → " in shown
    assert all(c.disabled for c in cells(simcord_env, message, size))
    assert list(controls(simcord_env, message, size)) == ["Next puzzle"]
    assert channel.last_message.id == message.id  # every answer on the one message


async def solve_rest(env: Env, player: Any, message: Any, attempt: Attempt) -> Attempt:
    """Finish an attempt already started by clicking winning moves."""
    size = attempt.puzzle.board.size
    while attempt.state == "playing":
        _, cell = hint(attempt)
        await click_cell(env, player, message, size, cell)
        attempt = play(attempt, cell)
    return attempt


async def test_a_wrong_first_move_ends_the_attempt_and_says_why(simcord_env: Env) -> None:
    """A move other than the solution: the attempt ends, the defence's refutation is drawn and
    named with the reason, the winning move is named, and the board takes no more clicks."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.solution)
    await click_cell(simcord_env, alice, message, size, wrong)
    failed = play(Attempt(puzzle), wrong)
    shown = text(simcord_env, message)
    said = {"slower": "still wins, but not this fast", "draw": "lets the win slip",
            "loses": "loses: "}[failed.state]  # fmt: skip
    assert said in shown and f"The winning move was **{cell_name(puzzle.solution, size)}**" in shown
    assert "turns the game around" not in shown
    if failed.refutation is not None:
        assert f"**{cell_name(failed.refutation, size)}**" in shown
        assert cells(simcord_env, message, size)[failed.refutation].mark is not None
    assert "Your puzzle rating: 1500 → " in shown
    assert all(c.disabled for c in cells(simcord_env, message, size))


async def test_a_hint_names_a_winning_cell_and_the_solve_is_not_clean(simcord_env: Env) -> None:
    """Hint names the solution; solved after it, the rating still drops (a hinted solve is
    not a clean solve)."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    await alice.click(message, label="Hint")
    assert f"💡 **{cell_name(puzzle.solution, size)}** wins in time" in text(simcord_env, message)
    await solve(simcord_env, alice, message)
    shown = text(simcord_env, message)
    assert "Solved:" in shown
    before, after = shown.split("Your puzzle rating: ")[1].split(".")[0].split(" → ")
    assert float(after) < float(before)


async def test_others_are_refused_privately_and_a_stale_click_is_not_played(
    simcord_env: Env,
) -> None:
    """Bob clicking Alice's puzzle gets one private line; a click on a board drawn at an older
    ply shows the board as it stands instead of playing."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    result = await click_cell(simcord_env, bob, message, size, puzzle.solution)
    assert result.ephemeral and f"This puzzle is {alice.mention}'s" in result.response.content
    # The attempt moves on without this board (its answer never showed: a crash between the
    # save and the edit): a click on the old board shows the attempt as stored, plays nothing.
    store = simcord_env.bot.store
    stored = await store.load_attempt(attempt_id(simcord_env, message, size))
    assert stored is not None and stored.ply == 0
    moved = stored.moved(play(stored.attempt, puzzle.solution))
    assert await store.save_attempt(moved, stored)
    other = next(c for c in puzzle.board.legal_moves() if c not in moved.moves)
    shown = await click_cell(simcord_env, alice, message, size, other)
    assert shown.acknowledged and not shown.ephemeral
    board = cells(simcord_env, message, size)
    assert board[other].mark is None and board[other].custom_id.endswith(f"@{moved.ply}")
    assert all(board[c].mark is not None for c in moved.moves)
    assert await store.load_attempt(stored.id) == moved


async def test_the_daily_puzzle_is_private_the_same_for_all_and_once_a_day(
    simcord_env: Env,
) -> None:
    """The daily puzzle comes privately, the same for two members; after it is solved the
    player is told so, and the leaderboard shows the streak."""
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    first = await alice.slash(channel, "tictactoe-puzzle", puzzle="daily")
    second = await bob.slash(channel, "tictactoe-puzzle", puzzle="daily")
    assert first.ephemeral and second.ephemeral
    mine, theirs = first.response, second.response
    assert puzzle_of(simcord_env, mine) == puzzle_of(simcord_env, theirs)
    assert "Daily puzzle of " in text(simcord_env, mine)
    await solve(simcord_env, alice, mine)
    assert "Daily streak: 1." in text(simcord_env, mine)
    done = await alice.slash(channel, "tictactoe-puzzle", puzzle="daily")
    assert done.ephemeral and "You already solved today's puzzle" in done.response.content
    board = await alice.slash(channel, "tictactoe-puzzle-leaderboard")
    assert (
        f"🥇 {alice.mention}" in board.response.content
        and "daily streak 1" in board.response.content
    )


async def test_setup_moves_draw_every_puzzle_of_the_set() -> None:
    """Every shipped puzzle's position is reached by its setup moves (the board drawn)."""
    from engine import Board
    from engine.puzzles import puzzles

    for puzzle in puzzles():
        moves = setup_moves(puzzle)
        assert Board.from_moves(moves, size=puzzle.board.size, k=puzzle.board.k) == puzzle.board


async def test_the_posted_daily_button_gives_each_clicker_the_daily_privately(
    simcord_env: Env,
) -> None:
    """A message of the bot's with the `pz:daily` button (as the daily post carries): each
    clicker gets today's puzzle of the server as a private attempt of their own, the same one
    /tictactoe-puzzle gives; once it is over the button says so; the post is never edited."""
    from bot.discord_ui.board import BoardView
    from bot.discord_ui.puzzle_board import DAILY_ID

    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    row = {"type": 2, "style": 1, "label": "Play", "custom_id": DAILY_ID}
    post = await simcord_env.bot.get_channel(channel.id).send(
        view=BoardView([{"type": 10, "content": "Daily"}, {"type": 1, "components": [row]}])
    )
    mine = await alice.click(post, custom_id=DAILY_ID)
    theirs = await bob.click(post, custom_id=DAILY_ID)
    assert mine.ephemeral and theirs.ephemeral
    assert mine.response.id != theirs.response.id != post.id
    assert puzzle_of(simcord_env, mine.response) == puzzle_of(simcord_env, theirs.response)
    puzzle = puzzle_of(simcord_env, mine.response)
    size = puzzle.board.size
    again = await alice.click(post, custom_id=DAILY_ID)  # the same attempt, shown again
    assert again.ephemeral
    assert attempt_id(simcord_env, again.response, size) == attempt_id(
        simcord_env, mine.response, size
    )
    wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.solution)
    await click_cell(simcord_env, alice, mine.response, size, wrong)
    assert "Daily streak: 0." in text(simcord_env, mine.response)
    over = await alice.click(post, custom_id=DAILY_ID)
    assert over.ephemeral and "You already tried today's puzzle" in over.response.content
    assert text(simcord_env, post) == "Daily"


async def test_a_puzzle_in_the_bots_dm(simcord_env: Env) -> None:
    """In the bot's own DM a puzzle is posted there and solved by clicking; ratings there are
    kept apart from any server's."""
    alice = simcord_env.create_user("alice")
    result = await alice.slash("tictactoe-puzzle")
    assert result.acknowledged and not result.ephemeral
    message = board_message(alice.dm_channel)
    assert (await solve(simcord_env, alice, message)).state == "solved"
    store = simcord_env.bot.store
    assert (await store.puzzle_player(None, alice.id)).solved == 1


def test_a_puzzle_board_speaks_its_players_language_within_discords_limits() -> None:
    """Every language: the board's words translated (not the English), the text within a text
    display's 4,000 characters, each button label within 80."""
    import dataclasses

    from bot.discord_ui.puzzle_board import Extras, text, view
    from bot.games.puzzles import AttemptRecord
    from bot.i18n import LOCALE_DIR
    from engine.puzzles import puzzles

    puzzle = max(puzzles(), key=lambda p: (p.board.size, p.moves))
    english = text(AttemptRecord(1, 2, 3, 4, puzzle, day=739_580))
    for folder in sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir()):
        locale = folder.replace("_", "-")
        record = AttemptRecord(1, 2, 3, 4, puzzle, day=739_580, locale=locale)
        first, reply = puzzle.board.legal_moves()[:2]
        failed = dataclasses.replace(
            record, day=None, moves=(first,), state="slower", refutation=reply
        )
        for shown, extras in (
            (record, Extras(hint=0)),
            (failed, Extras(rating=(1500.0, 1432.0), streak=3)),
        ):
            words = text(shown, extras)
            assert len(words) <= 4000 and words.split("\n")[0] != english.split("\n")[0], locale
            labels = [b.get("label", "") for c in view(shown, extras).to_components()
                      for b in c.get("components", [])]  # fmt: skip
            assert all(len(label) <= 80 for label in labels) and any(labels), locale


async def test_a_click_on_a_locked_database_is_refused_and_nothing_changes(
    simcord_env: Env, settings: Any, caplog: Any
) -> None:
    """The database locked by another process: a private apology, one log line, the board and
    the stored attempt unchanged; once the lock is gone the same click plays."""
    import logging

    from tests.bot.test_storage_trouble import locked, one_clear_line, spy_on_errors

    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    store = simcord_env.bot.store
    errors = spy_on_errors(store, "save_attempt")
    with caplog.at_level(logging.WARNING), locked(settings.database_path):
        result = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert result.acknowledged and result.ephemeral
    assert "sorry" in result.response.content.lower()
    assert cells(simcord_env, message, size)[puzzle.solution].mark is None
    stored = await store.load_attempt(attempt_id(simcord_env, message, size))
    assert stored is not None and stored.moves == ()
    assert len(errors) == 1 and "locked" in str(errors[0])
    one_clear_line(caplog, errors[0])
    again = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert not again.ephemeral and cells(simcord_env, message, size)[puzzle.solution].mark


async def test_a_slow_answer_shows_the_move_first_then_the_defence(
    simcord_env: Env, monkeypatch: Any
) -> None:
    """When the engine outlasts the wait, the click's one response shows the move with the
    cells disabled, and the defence follows in an edit of that response (no second response)."""
    from bot.cogs.puzzles import attempts

    monkeypatch.setattr(attempts, "REPLY_WAIT", 0.0)
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe-puzzle")
    message = board_message(channel)
    puzzle = puzzle_of(simcord_env, message)
    size = puzzle.board.size
    result = await click_cell(simcord_env, alice, message, size, puzzle.solution)
    assert result.acknowledged and not result.ephemeral and not result.followups
    after = play(Attempt(puzzle), puzzle.solution)
    board = cells(simcord_env, message, size)
    assert board[after.moves[-1]].mark is not None and board[puzzle.solution].disabled
    assert "is right" in text(simcord_env, message)
    assert sum(not c.disabled for c in board) == len(after.board.legal_moves())
    await click_cell(simcord_env, alice, message, size, hint(after)[1])
    assert channel.last_message.id == message.id


async def test_server_puzzles_are_served_in_their_server_only(simcord_env: Env) -> None:
    """puzzle:server serves a puzzle kept from this server's games; a server with none, and a
    DM, are told privately where such puzzles come from."""
    from engine.puzzles import puzzles

    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    _, elsewhere, (bob,) = guild_with(simcord_env, "bob")
    kept = puzzles()[-1]
    await simcord_env.bot.store.add_server_puzzle(guild.id, kept, 7)
    result = await alice.slash(channel, "tictactoe-puzzle", puzzle="server")
    assert not result.ephemeral and puzzle_of(simcord_env, board_message(channel)) == kept
    carol = simcord_env.create_user("carol")
    for none in (
        await bob.slash(elsewhere, "tictactoe-puzzle", puzzle="server"),
        await carol.slash("tictactoe-puzzle", puzzle="server"),  # her DM with the bot
    ):
        assert none.ephemeral and "no puzzles from games played here" in none.response.content


async def test_the_engines_answers_are_kept_for_a_position_asked_again() -> None:
    """For a puzzle without stored answers (one kept before puzzles carried them), an answer
    asked again (the same puzzle, moves and cell) is the engine's own, hints carried as the
    attempt has them, and no new search is kept for it."""
    from dataclasses import replace

    from bot.cogs.puzzles.answers import Answers
    from bot.compute.runner import EngineRunner
    from engine.puzzles import puzzles

    runner = EngineRunner(use_processes=False)
    await runner.start()
    try:
        answers = Answers(runner)
        puzzle = replace(puzzles()[0], answers="")
        first = await answers.play(Attempt(puzzle, hints=1), puzzle.solution)
        assert first == play(Attempt(puzzle, hints=1), puzzle.solution)
        again = await answers.play(Attempt(puzzle), puzzle.solution)
        assert again == play(Attempt(puzzle), puzzle.solution) and again.hints == 0
        hinted = [await answers.hint(again) for _ in range(2)]
        assert hinted == [hint(again)] * 2
        assert len(answers._kept) == 2  # one move, one hint
        wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.solution)
        failed = [await answers.play(Attempt(puzzle), wrong) for _ in range(2)]
        assert failed == [play(Attempt(puzzle), wrong)] * 2  # the refutation and better kept
        assert failed[1].better == puzzle.solution and len(answers._kept) == 3
    finally:
        runner.close()


async def test_a_puzzle_with_stored_answers_is_answered_without_the_engine() -> None:
    """A shipped puzzle carries its answers: every move of an attempt and every hint comes from
    them, the engine never called (its runner is not even started), and they are the engine's
    own answers (the searched ones)."""
    from bot.cogs.puzzles.answers import Answers
    from bot.compute.runner import EngineRunner
    from engine.puzzles import judge, puzzles

    answers = Answers(EngineRunner(use_processes=False))  # not started: a call would fail
    for puzzle in puzzles()[::150]:
        assert puzzle.answers
        attempt = Attempt(puzzle)
        while attempt.state == "playing":
            hinted, cell = await answers.hint(attempt)
            assert hinted.hints == attempt.hints + 1
            wrong = next(c for c in attempt.board.legal_moves() if c != cell)
            assert await answers.play(attempt, wrong) == judge(attempt, wrong)
            after = await answers.play(attempt, cell)
            assert after == judge(attempt, cell)
            attempt = after
        assert attempt.state == "solved"
    assert not answers._kept


async def test_the_next_puzzle_is_near_the_rating_the_last_one_left(simcord_env: Env) -> None:
    """A player's rating and tried puzzles are read once and kept by the bot: after a solve,
    the next puzzle is chosen near the rating the solve left (as stored), and none is offered
    twice."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    store = simcord_env.bot.store
    seen = []
    for _ in range(3):
        await alice.slash(channel, "tictactoe-puzzle")
        message = board_message(channel)
        puzzle = puzzle_of(simcord_env, message)
        rating = (await store.puzzle_player(channel.guild.id, alice.id)).rating.rating
        ratings = await store.puzzle_ratings()
        assert abs(ratings.get(puzzle.id, puzzle.difficulty) - rating) <= 100, (seen, rating)
        seen.append(puzzle.id)
        assert (await solve(simcord_env, alice, message)).state == "solved"
    assert len(set(seen)) == 3
    assert (await store.puzzle_player(channel.guild.id, alice.id)).solved == 3
