"""A tournament on the playground's page (Debian's Chromium, headless): alice creates a Swiss in
#games and joins it; its announcement shows the regulars joining by themselves until five are
listed; she presses Start, and the first round's games are listed as threads under #games; she
opens hers and plays a move there, and her opponent, a regular, answers."""

from __future__ import annotations

import os
import re

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Locator, Page, expect

from devkit.playground.page import button, cells, last_message, mark
from tests.playground.test_page import WAIT, browser, page  # noqa: F401  (fixtures)
from tests.playground.test_page_threads import listed

COMMAND = "tictactoe-tournament create"
FILLED = 90_000  # ms for four regulars to join one after another, each after their pause
ROUND_ONE = re.compile(r"🧵 R1\.[12] · \w+ vs \w+")


def announcement(tab: Page) -> Locator:
    """The tournament's announcement as the page shows it."""
    return tab.locator("article.channel-message", has_text="Swiss tournament").first


def create_swiss(tab: Page) -> None:
    """/tictactoe-tournament create: its one required option, format, is added with the command
    (as Discord adds it) and its list open; pick Swiss, send."""
    tab.locator("#channel-composer-input").fill(f"/{COMMAND}")
    tab.locator(".command-popup").get_by_text(f"/{COMMAND}", exact=True).first.click()
    tab.locator(".command-popup").get_by_text("Swiss", exact=True).first.click()
    tab.locator("#send-message").click()


def test_a_swiss_announced_filled_by_the_regulars_and_played_in_threads(
    page: Page,  # noqa: F811
) -> None:
    create_swiss(page)
    shown = announcement(page)
    expect(shown).to_contain_text("0 players", timeout=WAIT)
    expect(button(shown, "Start")).to_be_visible()
    button(shown, "Join").click()
    expect(shown).to_contain_text("1 player", timeout=WAIT)

    expect(shown).to_contain_text("5 players", timeout=FILLED)  # dave, erin, frank, grace
    for regular in ("dave", "erin", "frank", "grace"):
        expect(shown).to_contain_text(f"@{regular}")
    button(shown, "Start").click()

    expect(shown).to_contain_text("Round 1 of", timeout=WAIT)
    expect(shown).to_contain_text("Standings")
    expect(listed(page)).to_have_count(3, timeout=WAIT)  # #games, two games (and a bye)
    names = listed(page).all_inner_texts()
    assert names[0] == "# games" and all(ROUND_ONE.fullmatch(name) for name in names[1:])
    # Alice, the first to join, is seeded first: she plays in round 1 (the bye is the last's).
    hers = next(number for number, name in enumerate(names) if "alice" in name)
    listed(page).nth(hers).click()
    expect(page.locator("#channel-name")).to_have_text(names[hers][2:], timeout=WAIT)
    board = last_message(page)
    expect(board).to_contain_text("@alice, your move", timeout=WAIT)  # at once, or after ⭕'s
    free = next(number for number, cell in enumerate(cells(board)) if mark(cell) is None)
    cells(board)[free].click()
    expect(cells(board)[free].locator(".button-emoji")).to_be_visible(timeout=WAIT)
    expect(board).to_contain_text("@alice, your move", timeout=WAIT)  # her opponent answered
