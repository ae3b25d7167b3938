"""The playground's page as a newcomer meets it (Debian's Chromium, headless): pages that are
never refused, opened on the newest message; the how-to of commands and options; the board's
buttons; the refusal of a busy channel."""

from __future__ import annotations

import os

import pytest

from devkit.playground.process import Playground

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Browser, Page, expect

from devkit.playground.page import button, cells, last_message, run_command
from tests.playground.test_page import WAIT, browser, opened, page  # noqa: F401  (fixtures)

OPENS = 30


def test_thirty_pages_gone_without_a_word_never_lock_the_next_out(
    browser: Browser,  # noqa: F811
    playground: Playground,
) -> None:
    """30 opens in a row, each page going away without telling the playground (its network
    cut, then closed, as when a browser is killed): every one opens, and the next plays."""
    for _ in range(OPENS):
        context = browser.new_context()
        try:
            tab = context.new_page()
            tab.goto(playground.url)
            expect(tab.locator("#channel-composer-input")).to_be_visible(timeout=WAIT)
            expect(tab.get_by_text("could not be opened")).to_have_count(0)
            context.set_offline(True)  # the page's goodbye never arrives
        finally:
            context.close()
    with opened(browser, playground.url) as tab:
        run_command(tab, "tictactoe")
        expect(last_message(tab)).to_contain_text("your move", timeout=WAIT)


def at_bottom(tab: Page) -> bool:
    """Whether the channel's messages are scrolled to the newest."""
    return bool(
        tab.evaluate(
            "() => { const t = document.querySelector('#channel-timeline');"
            " return t.scrollHeight - t.scrollTop - t.clientHeight <= 2; }"
        )
    )


def test_a_page_opens_on_the_newest_message_and_a_busy_channel_says_so_without_a_link(
    browser: Browser,  # noqa: F811
    playground: Playground,
    page: Page,  # noqa: F811
) -> None:
    """A game, then /tictactoe again and again: each refusal says a game is running (no link to
    discord.com, which has no page for the playground's messages) and that alice, with Manage
    Server, may change the setting; the page keeps the newest in sight, and a page opened
    afterwards opens on it, not at the top of the channel."""
    run_command(page, "tictactoe")
    expect(last_message(page)).to_contain_text("your move", timeout=WAIT)
    for shown in range(1, 6):
        run_command(page, "tictactoe")
        refusals = page.locator("article.channel-message", has_text="A game is running")
        expect(refusals).to_have_count(shown, timeout=WAIT)
    refusal = refusals.last
    expect(refusal).to_contain_text("wait for its end or play in another one")
    expect(refusal).to_contain_text("You have the Manage Server permission")
    assert "discord.com" not in refusal.inner_text()
    expect(refusal).to_be_in_viewport()

    with opened(browser, playground.url) as again:
        newest = again.locator("article.channel-message", has_text="A game is running").last
        expect(newest).to_be_in_viewport(timeout=WAIT)
        board = again.locator("article.channel-message", has_text="Tic-tac-toe").last
        expect(board).not_to_be_in_viewport()  # the channel is longer than the window
        assert at_bottom(again)


def test_the_how_to_of_options_the_names_of_the_cells_and_keys_that_go(
    playground: Playground,
    page: Page,  # noqa: F811
) -> None:
    """The topic says to pick commands and options from their lists, and doing so changes the
    input; a 3x3 board's cells are named A1 to C3 and line up in columns, marked or not; on a
    board moved by reactions, the key of a taken cell goes."""
    topic = page.locator("#channel-topic")
    expect(topic).to_contain_text("Pick each command and option from the list", timeout=WAIT)
    assert "Pick each command and option" in "".join(playground.out)

    run_command(page, "tictactoe")
    board = last_message(page)
    expect(board).to_contain_text("your move", timeout=WAIT)
    cells(board)[4].click()
    expect(board.locator(".button-emoji", has_text="⭕")).to_have_count(1, timeout=WAIT)
    grid = cells(board)
    names = [cell.locator(".button-label").inner_text().strip() for cell in grid]
    assert names == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    boxes = [cell.bounding_box() for cell in grid]
    assert all(box is not None for box in boxes)
    for column in range(3):
        lefts = {round(boxes[row * 3 + column]["x"]) for row in range(3)}  # type: ignore[index]
        widths = {round(boxes[row * 3 + column]["width"]) for row in range(3)}  # type: ignore[index]
        assert len(lefts) == 1 and len(widths) == 1, (column, lefts, widths)
    button(board, "Resign").click()  # the board asks first
    button(board, "Confirm resign").click()
    expect(board).to_contain_text("resigned", timeout=WAIT)

    run_command(page, "tictactoe-settings set", input="reactions")
    expect(last_message(page)).to_contain_text("Saved.", timeout=WAIT)
    run_command(page, "tictactoe")
    board = page.locator("article.channel-message", has_text="Tic-tac-toe").last
    keys = board.locator(".reaction-chip")
    expect(keys).to_have_count(9, timeout=WAIT)
    keys.filter(has_text="5️⃣").click()  # B2, by reaction
    expect(board).to_contain_text("your move", timeout=WAIT)
    expect(keys).to_have_count(7, timeout=WAIT)  # B2's key and the bot's reply's have gone
    expect(keys.filter(has_text="5️⃣")).to_have_count(0)
