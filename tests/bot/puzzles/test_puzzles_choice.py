"""Which puzzle, and what it shows: the daily puzzle (private, the same for all, once a day, and
by the posted button), every puzzle of the set drawable, a board in its player's language
within Discord's limits, a server's puzzles in that server only, the engine's answers kept and
stored answers used without it, and the next puzzle near the rating the last one left."""

from __future__ import annotations

from simcord import Env

from bot.puzzles.model import setup_moves
from bot.puzzles.store import PuzzleStore
from devkit.simcord_board import board_message, guild_with, text
from engine.puzzles import Attempt, hint, play
from tests.bot.puzzles.puzzle_support import attempt_id, click_cell, puzzle_of, solve


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
    from bot.puzzles.board import DAILY_ID

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


def test_a_puzzle_board_speaks_its_players_language_within_discords_limits() -> None:
    """Every language: the board's words translated (not the English), the text within a text
    display's 4,000 characters, each button label within 80."""
    import dataclasses

    from bot.i18n import LOCALE_DIR
    from bot.puzzles.board import Extras, text, view
    from bot.puzzles.model import AttemptRecord
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
            labels = [
                b.get("label", "")
                for c in view(shown, extras).to_components()
                for b in c.get("components", [])
            ]
            assert all(len(label) <= 80 for label in labels) and any(labels), locale


async def test_server_puzzles_are_served_in_their_server_only(simcord_env: Env) -> None:
    """puzzle:server serves a puzzle kept from this server's games; a server with none, and a
    DM, are told privately where such puzzles come from."""
    from engine.puzzles import puzzles

    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    _, elsewhere, (bob,) = guild_with(simcord_env, "bob")
    kept = puzzles()[-1]
    await PuzzleStore(simcord_env.bot.store).add_server_puzzle(guild.id, kept, 7)
    result = await alice.slash(channel, "tictactoe-puzzle", puzzle="server")
    assert not result.ephemeral and puzzle_of(simcord_env, board_message(channel)) == kept
    carol = simcord_env.create_user("carol")
    for none in (
        await bob.slash(elsewhere, "tictactoe-puzzle", puzzle="server"),
        await carol.slash("tictactoe-puzzle", puzzle="server"),  # her DM with the bot
    ):
        assert none.ephemeral and "no puzzles from games played here" in none.response.content


async def test_the_engines_answers_are_kept_for_a_position_asked_again() -> None:
    """For a puzzle without stored answers (as a puzzle found by an older bot is), an answer
    asked again (the same puzzle, moves and cell) is the engine's own, hints carried as the
    attempt has them, and no new search is kept for it."""
    from dataclasses import replace

    from bot.compute.runner import EngineRunner
    from bot.puzzles.answers import Answers
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
    from bot.compute.runner import EngineRunner
    from bot.puzzles.answers import Answers
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
    puzzles = PuzzleStore(simcord_env.bot.store)
    seen = []
    for _ in range(3):
        await alice.slash(channel, "tictactoe-puzzle")
        message = board_message(channel)
        puzzle = puzzle_of(simcord_env, message)
        rating = (await puzzles.puzzle_player(channel.guild.id, alice.id)).rating.rating
        ratings = await puzzles.puzzle_ratings()
        assert abs(ratings.get(puzzle.id, puzzle.difficulty) - rating) <= 100, (seen, rating)
        seen.append(puzzle.id)
        assert (await solve(simcord_env, alice, message)).state == "solved"
    assert len(set(seen)) == 3
    assert (await puzzles.puzzle_player(channel.guild.id, alice.id)).solved == 3
