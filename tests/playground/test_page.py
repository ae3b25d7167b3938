"""The playground in a real browser (Debian's Chromium, headless): a game as a person plays it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from devkit.playground.process import Playground
from tests.playground.conftest import headless_chromium

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Browser, Page, expect

from devkit.playground.page import (
    WAIT,
    button,
    cells,
    last_message,
    mark,
    placed,
    run_command,
    view_as,
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from headless_chromium()


@contextmanager
def opened(browser: Browser, url: str) -> Iterator[Page]:
    """A playground's page in a fresh browser context, opened at the address it printed."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        expect(page.locator("#channel-composer-input")).to_be_visible(timeout=WAIT)
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser: Browser, playground: Playground) -> Iterator[Page]:
    """The playground's page."""
    with opened(browser, playground.url) as page:
        yield page


def test_a_move_against_the_bot_is_answered_on_the_page(page: Page) -> None:
    """/tictactoe, a click on the centre: the page shows ❌ there and the bot's ⭕ beside it."""
    run_command(page, "tictactoe")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)
    expect(placed(board)).to_have_count(0)

    cells(board)[4].click()

    expect(placed(board)).to_have_count(2, timeout=WAIT)
    shown = [mark(cell) for cell in cells(board)]
    assert shown[4] == "X"
    assert shown.count("O") == 1
    expect(board).to_contain_text("your move")


def test_a_friend_game_through_the_viewer_switch(page: Page) -> None:
    """Alice challenges Bob; as Bob the page accepts; turns alternate by switching member."""
    run_command(page, "tictactoe", opponent="bob")
    challenge = last_message(page)
    expect(challenge).to_contain_text("challenges you", timeout=WAIT)

    view_as(page, "bob")
    button(last_message(page), "Accept").click()
    board = last_message(page)
    expect(board).to_contain_text("@alice, your move", timeout=WAIT)

    # Out of turn: Bob alone is told why, and the board does not change.
    cells(board)[8].click()
    refusal = page.locator("#channel-message-list").get_by_text("It's not your turn")
    expect(refusal).to_be_visible(timeout=WAIT)
    view_as(page, "alice")
    expect(refusal).to_have_count(0)

    moves = [("alice", 0), ("bob", 1), ("alice", 3), ("bob", 4), ("alice", 6)]
    for number, (member, cell) in enumerate(moves, start=1):
        view_as(page, member)
        board = page.locator("article.channel-message", has_text="Tic-tac-toe").last
        cells(board)[cell].click()
        expect(placed(board)).to_have_count(number, timeout=WAIT)

    expect(board).to_contain_text("wins with", timeout=WAIT)
    assert [mark(c) for c in cells(board)][:7:3] == ["X", "X", "X"]
    expect(button(board, "Rematch")).to_be_visible()


def test_a_challenge_expires_on_the_page_in_real_time(
    browser: Browser, launch: Callable[..., Playground]
) -> None:
    """The clocks run on their own: a challenge nobody answers is shown expired, no click."""
    running = launch("--challenge-timeout", "5")
    with opened(browser, running.url) as page:
        run_command(page, "tictactoe", opponent="bob")
        expect(last_message(page)).to_contain_text("challenges you", timeout=WAIT)
        expect(last_message(page)).to_contain_text("The challenge expired", timeout=WAIT)


def test_ultimate_from_the_composer_a_board_then_a_cell(page: Page) -> None:
    """The composer offers the variant: ultimate's board, a small board picked, then a cell;
    the bot answers on the same board."""
    run_command(page, "tictactoe", variant="Ultimate (nine boards in one)")
    board = last_message(page)
    expect(board).to_contain_text("Ultimate tic-tac-toe", timeout=WAIT)
    button(board, "D4–F6").click()
    expect(button(board, "E5")).to_have_count(1, timeout=WAIT)
    button(board, "E5").click()
    expect(board).to_contain_text("Last move: ⭕", timeout=WAIT)


def test_a_puzzle_is_offered_and_solved_on_the_page(page: Page) -> None:
    """/tictactoe-puzzle from the composer: the puzzle's board; each winning cell clicked is
    answered by the defence on the same message, until it is solved."""
    from engine.puzzles import Attempt, by_id, hint, play

    run_command(page, "tictactoe-puzzle")
    board = last_message(page)
    expect(board).to_contain_text("find the only move", timeout=WAIT)
    puzzle = by_id(board.inner_text().split("Puzzle ")[1].split(" ")[0])
    assert puzzle is not None
    attempt, size = Attempt(puzzle), puzzle.board.size
    setup = sum(c in "XO" for c in puzzle.board.to_string())
    while attempt.state == "playing":
        _, cell = hint(attempt)
        cells(board, size)[cell].click()
        attempt = play(attempt, cell)  # the move and the defence, both drawn
        expect(placed(board)).to_have_count(setup + len(attempt.moves), timeout=WAIT)
    expect(board).to_contain_text("Solved:", timeout=WAIT)
    expect(button(board, "Next puzzle")).to_be_visible()
