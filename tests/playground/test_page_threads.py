"""Threads and regulars on the playground's page (Debian's Chromium, headless): a thread started
from the page, listed under #games, opened and played in, by one member and then another; a
regular challenged from the page who accepts and plays back by himself."""

from __future__ import annotations

import os
import urllib.error
import urllib.request

import pytest

from devkit.playground.process import Playground

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Locator, Page, expect

from devkit.playground.page import cells, last_message, mark, placed, run_command, view_as
from tests.playground.test_page import WAIT, browser, page  # noqa: F401  (fixtures)


def listed(tab: Page) -> Locator:
    """The channel and threads the page lists, in order."""
    return tab.locator("#playground-channels li button")


def start_thread(tab: Page, name: str) -> None:
    """Name a new thread in the box under the list, and start it."""
    tab.locator("#playground-thread-name").fill(name)
    tab.locator("#playground-start-thread").click()


def test_a_thread_started_opened_and_played_in(page: Page) -> None:  # noqa: F811
    """Alice starts a thread: it is listed under #games and opened; a game against the bot is
    played in it; #games keeps only the word that the thread was started; Bob opens the thread
    from the list and sees the game."""
    expect(listed(page)).to_have_text(["# games"], timeout=WAIT)
    start_thread(page, "practice")

    expect(listed(page)).to_have_text(["# games", "🧵 practice"], timeout=WAIT)
    expect(listed(page).nth(1)).to_have_attribute("aria-current", "page")
    expect(page.locator("#channel-name")).to_have_text("practice", timeout=WAIT)
    expect(page.locator(".channel-hash")).to_have_text("🧵")  # a thread's glyph, as Discord's
    run_command(page, "tictactoe")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)
    cells(board)[4].click()
    expect(placed(board)).to_have_count(2, timeout=WAIT)

    listed(page).nth(0).click()
    expect(page.locator("#channel-name")).to_have_text("games", timeout=WAIT)
    expect(page.locator(".channel-hash")).to_have_text("#")
    expect(last_message(page)).to_contain_text("started a thread", timeout=WAIT)
    expect(page.locator("#channel-message-list")).not_to_contain_text("your move")

    view_as(page, "bob")
    expect(listed(page)).to_have_text(["# games", "🧵 practice"], timeout=WAIT)
    listed(page).nth(1).click()
    expect(page.locator("#channel-name")).to_have_text("practice", timeout=WAIT)
    board = last_message(page)
    expect(placed(board)).to_have_count(2, timeout=WAIT)
    assert mark(cells(board)[4]) == "X"


def test_a_regular_accepts_and_plays_back_by_himself(page: Page) -> None:  # noqa: F811
    """Alice challenges dave from the page: with no click for him, his acceptance shows, then
    his ⭕ after each of alice's moves."""
    run_command(page, "tictactoe", opponent="dave")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)  # dave accepted
    expect(board).to_contain_text("@dave")

    cells(board)[4].click()
    expect(placed(board)).to_have_count(2, timeout=WAIT)  # dave's answer, by himself
    free = next(cell for cell in cells(board) if mark(cell) is None)
    free.click()
    expect(placed(board)).to_have_count(4, timeout=WAIT)
    assert [mark(cell) for cell in cells(board)].count("O") == 2


def test_the_list_is_the_pages_alone(playground: Playground) -> None:
    """The list of channels answers only a page of this playground: without its capability 401,
    with it but no page of its own 410."""
    base, capability = playground.url.split("/#")
    address = f"{base}/playground/channels"
    for headers, status in (({}, 401), ({"X-Simcord-Capability": capability}, 410)):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(address, headers=headers), timeout=10)
        assert refused.value.code == status
