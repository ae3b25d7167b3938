"""The playground's pictures in a real browser (Debian's Chromium, headless): a game finished on
the page, opened from /tictactoe-history, shows its picture and its replay as images the
playground's server sends, with their alt texts; /tictactoe-stats shows the rating chart."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from devkit.playground.process import Playground

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from devkit.playground.page import WAIT, button, cells, last_message, placed, run_command
from tests.playground.test_page import browser as browser  # the fixture
from tests.playground.test_page import opened


@pytest.fixture
def page(browser: Browser, playground: Playground) -> Iterator[Page]:
    """The playground's page."""
    with opened(browser, playground.url) as page:
        yield page


def loaded(image: Locator) -> int:
    """The width of the picture the browser decoded from the playground's server (0: none)."""
    expect(image).to_be_visible(timeout=WAIT)
    handle = image.element_handle()
    try:
        image.page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=handle, timeout=WAIT
        )
    except PlaywrightTimeout:
        return 0  # never decoded: the assertion says so
    source = str(image.evaluate("img => img.currentSrc"))
    origin = str(image.evaluate("img => location.origin"))
    assert source.startswith((origin, "blob:" + origin)), source  # sent by the playground
    return int(image.evaluate("img => img.naturalWidth"))


def test_a_game_in_history_shows_its_picture_and_replay(page: Page) -> None:
    """A move against the bot, then Resign: the history lists the game; chosen in its menu,
    the page shows the final board (PNG) and the replay (GIF), each with its alt text."""
    run_command(page, "tictactoe")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)
    cells(board)[4].click()
    expect(placed(board)).to_have_count(2, timeout=WAIT)
    button(board, "Resign").click()
    button(board, "Confirm resign").click()
    expect(board).to_contain_text("resigned", timeout=WAIT)

    run_command(page, "tictactoe-history")
    listed = last_message(page)
    expect(listed).to_contain_text("Recent games of", timeout=WAIT)
    expect(listed).to_contain_text("Lost (by resignation) against @tictactoe (bot, unbeatable)")
    listed.locator(".select-trigger").first.click()
    page.locator(".select-option").first.click()

    shown = page.locator("article.channel-message", has=page.locator("img[alt*='Last move']"))
    picture = shown.locator("img[alt^='Tic-tac-toe']").first
    replay = shown.locator("img[alt^='A replay of 2 moves']").first
    assert loaded(picture) == 768
    assert loaded(replay) == 512
    assert "⭕ won." in (picture.get_attribute("alt") or "")


def test_the_rating_chart_on_the_page(page: Page) -> None:
    """Alice beats Bob: her stats show the chart, an image the browser decodes, and its key."""
    from devkit.playground.page import view_as

    run_command(page, "tictactoe", opponent="bob")
    expect(last_message(page)).to_contain_text("challenges you", timeout=WAIT)
    view_as(page, "bob")
    button(last_message(page), "Accept").click()
    board = last_message(page)
    expect(board).to_contain_text("@alice, your move", timeout=WAIT)
    button(board, "Resign").click()
    button(board, "Confirm resign").click()
    expect(board).to_contain_text("resigned", timeout=WAIT)
    view_as(page, "alice")
    run_command(page, "tictactoe-stats")
    stats = last_message(page)
    expect(stats).to_contain_text("Elo over time: 🟦 Classic", timeout=WAIT)
    chart = stats.locator("img[alt^='A chart of the Elo rating']").first
    assert loaded(chart) == 960


def test_a_picture_board_on_the_page(page: Page) -> None:
    """/tictactoe style:picture: the board message shows its picture above the buttons, an image
    the browser decodes with the position in words, and a click's answer shows the next one."""
    run_command(page, "tictactoe", style="picture")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)
    picture = board.locator("img[alt^='Tic-tac-toe']").first
    assert loaded(picture) == 768
    assert "❌ on" not in (picture.get_attribute("alt") or "")  # nobody has moved yet
    cells(board)[4].click()
    expect(placed(board)).to_have_count(2, timeout=WAIT)
    moved = board.locator("img[alt*='❌ on B2']").first
    assert loaded(moved) == 768
