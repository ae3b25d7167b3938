"""The playground's command box as a newcomer uses it, with the keys of Discord's (Debian's
Chromium, headless): Enter sends a command that is complete, Tab, the arrows or a click pick from
a list, the focus stays in the box, and each option says what it is."""

from __future__ import annotations

import os

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Page, expect

from bot.cogs.games.command import GameCog
from devkit.playground.page import WAIT, last_message, options_listed, type_command
from tests.playground.test_page import browser, page  # noqa: F401  (fixtures)

TOOLS = ("#refresh", "#capture-open", "#inspector-toggle", ".session-menu")


def test_type_the_command_pick_it_press_enter_a_board(page: Page) -> None:  # noqa: F811
    """The README's way: /tictactoe typed, the command picked with Enter, Enter: the board, and
    the box keeps the focus. Picked, the command lists its options with the bot's own
    descriptions (no "…"). The toolbar shows SimCord's developer tools only when asked."""
    for tool in TOOLS:
        expect(page.locator(tool)).to_be_hidden()
    type_command(page, "tictactoe")
    page.keyboard.press("Enter")

    described = {p.display_name: str(p.description) for p in GameCog.tictactoe.parameters}
    assert options_listed(page) == described
    expect(page.locator(".command-popup")).not_to_contain_text("…")
    expect(page.locator(".command-chip")).to_be_focused()

    page.keyboard.press("Enter")
    board = last_message(page)
    expect(board).to_contain_text("Tic-tac-toe", timeout=WAIT)
    expect(board).to_contain_text("your move")
    expect(page.locator("#channel-composer-input")).to_be_focused(timeout=WAIT)

    page.locator("#developer-tools").click()
    for tool in TOOLS:
        expect(page.locator(tool)).to_be_visible()


def test_an_option_and_its_value_by_keyboard_then_enter_sends(page: Page) -> None:  # noqa: F811
    """Arrows and Enter add `variant`, its value typed and taken with Tab, then Enter: ultimate's
    board. Enter on the options list sends, unless the arrows moved in it."""
    type_command(page, "tictactoe")
    page.keyboard.press("Enter")
    names = list(options_listed(page))
    for _ in range(names.index("variant")):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    field = page.locator(".command-option-input[data-option='variant']")
    expect(field).to_be_focused()

    page.keyboard.type("ult")
    expect(page.locator(".command-popup .command-suggestion")).to_have_count(1)
    page.keyboard.press("Tab")
    expect(field).to_have_value("ultimate")
    expect(page.locator(".command-chip")).to_be_focused()

    page.keyboard.press("Enter")
    expect(last_message(page)).to_contain_text("Ultimate tic-tac-toe", timeout=WAIT)
    expect(page.locator("#channel-composer-input")).to_be_focused(timeout=WAIT)


def test_an_option_and_its_value_by_mouse_then_enter_sends(page: Page) -> None:  # noqa: F811
    """The command, `opponent` and bob each clicked in their lists: the focus stays in the box,
    and Enter sends the challenge."""
    type_command(page, "tictactoe")
    page.locator(".command-popup").get_by_text("/tictactoe", exact=True).first.click()
    page.locator(".command-popup").get_by_text("opponent", exact=True).click()
    page.locator(".command-popup").get_by_text("bob", exact=True).first.click()
    expect(page.locator(".command-pill[data-option='opponent']")).to_contain_text("@bob")
    expect(page.locator(".command-chip")).to_be_focused()

    page.keyboard.press("Enter")
    expect(last_message(page)).to_contain_text("challenges you", timeout=WAIT)
    expect(page.locator("#channel-composer-input")).to_be_focused(timeout=WAIT)


def test_letters_typed_on_the_command_highlight_an_option(page: Page) -> None:  # noqa: F811
    """ "diff" typed once the command is picked highlights `difficulty`, and Enter adds it; its
    value typed and taken with Enter, then Enter: a game at that level."""
    type_command(page, "tictactoe")
    page.keyboard.press("Enter")
    options_listed(page)
    page.keyboard.type("diff")
    active = page.locator(".command-popup .command-suggestion.is-active")
    expect(active.locator(".command-suggestion-label")).to_have_text("difficulty")
    page.keyboard.press("Enter")
    field = page.locator(".command-option-input[data-option='difficulty']")
    expect(field).to_be_focused()

    page.keyboard.type("eas")
    page.keyboard.press("Enter")
    expect(field).to_have_value("easy")
    page.keyboard.press("Enter")
    expect(last_message(page)).to_contain_text("(bot, easy)", timeout=WAIT)
