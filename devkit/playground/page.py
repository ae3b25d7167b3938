"""Playing the playground's page the way a person does: the composer, the buttons, the viewer."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

EMPTY = "\u200b"  # an empty cell's label
WAIT = 15_000  # ms for the page to show the bot's answer
MARKS = {"❌": "X", "⭕": "O"}


def run_command(page: Page, command: str, **options: str) -> None:
    """Type a slash command in the composer, pick each option's value from its list, send."""
    composer = page.locator("#channel-composer-input")
    composer.fill(f"/{command}")
    page.locator(".command-popup").get_by_text(f"/{command}", exact=True).first.click()
    for name, value in options.items():
        page.locator(".command-popup").get_by_text(name, exact=True).first.click()
        page.locator(".command-popup").get_by_text(value, exact=True).first.click()
    page.locator("#send-message").click()


def view_as(page: Page, member: str) -> None:
    """Switch the page to another member ("Viewing as")."""
    page.locator("#viewer-picker").select_option(label=member)
    expect(page.locator("#action-status")).not_to_have_text("Switching viewer", timeout=10_000)


def last_message(page: Page) -> Locator:
    """The newest message in the channel as shown."""
    return page.locator("article.channel-message").last


def cells(message: Locator, size: int = 3) -> list[Locator]:
    """The board's cell buttons, row by row."""
    rows = message.locator(".component-row")
    return [rows.nth(r).locator("button").nth(c) for r in range(size) for c in range(size)]


def placed(message: Locator) -> Locator:
    """The marks on the board's buttons (❌ or ⭕; not the other buttons' emoji)."""
    return message.locator(".component-button .button-emoji").filter(has_text=re.compile("❌|⭕"))


def mark(cell: Locator) -> str | None:
    """ "X", "O" or None, as the cell shows it."""
    emoji = cell.locator(".button-emoji")
    return MARKS.get(emoji.inner_text().strip()) if emoji.count() else None


def button(message: Locator, label: str) -> Locator:
    """A control under the board or on a challenge, by its label."""
    return message.locator("button", has=message.page.locator(".button-label", has_text=label))


def type_command(page: Page, command: str) -> None:
    """Once the page is ready (nothing of its own in flight), click in the box and type the
    command, as a person does; its list opens."""
    page.wait_for_function("() => window.simcordPreview?.ready === true", timeout=WAIT)
    page.locator("#channel-composer-input").click()
    page.keyboard.type(f"/{command}")
    entry = page.locator(".command-popup .command-entry", has_text=f"/{command}")
    expect(entry.first).to_be_visible(timeout=WAIT)


def options_listed(page: Page) -> dict[str, str]:
    """The options the list under the command offers, each with the description it shows."""
    rows = page.locator(".command-popup .command-suggestion")
    expect(rows.first).to_be_visible(timeout=WAIT)
    return {
        row.locator(".command-suggestion-label").inner_text(): row.locator(
            ".command-suggestion-description"
        ).inner_text()
        for row in rows.all()
    }
