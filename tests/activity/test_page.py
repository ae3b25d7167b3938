"""The Activity's page in a real browser (Debian's Chromium, headless) inside a simulated Discord
frame (devkit/activity_frame): the SDK's handshake, READY, AUTHORIZE, the code posted to the
bot's token route, AUTHENTICATE, and what the page shows at each end."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web

from devkit.activity_frame.server import FrameSetup, frame_app, serve
from tests.playground.conftest import headless_chromium

if os.environ.get("CI") != "true":
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

from playwright.sync_api import Browser, Frame, Page, expect

WAIT = 15_000  # ms for the page to reach a state
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from headless_chromium()


@dataclass
class TokenRoute:
    """The bot's token route as this test plays it: the codes posted to it, and the HTTP status
    of each answer in turn (200: the access token for the frame's code), the last one repeated."""

    setup: FrameSetup
    statuses: list[int] = field(default_factory=lambda: [200])
    posted: list[Any] = field(default_factory=list)

    async def __call__(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.posted.append(body)
        status = self.statuses[min(len(self.posted), len(self.statuses)) - 1]
        if status != 200:
            return web.json_response({"error": "unavailable"}, status=status)
        if body != {"code": self.setup.code}:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": self.setup.access_token})


@dataclass
class Opened:
    """The simulated Discord's page, the Activity's frame in it, and when it was opened."""

    page: Page
    activity: Frame
    started: float

    def said(self, sender: str) -> list[Any]:
        """The messages one side sent (``activity`` or ``discord``), as the frame saw them."""
        log = self.page.evaluate("() => window.discordFrame.log")
        return [entry["message"] for entry in log if entry["from"] == sender]

    def commands(self, name: str) -> list[dict[str, Any]]:
        """The Activity's commands of one name, as sent to Discord."""
        return [m[1] for m in self.said("activity") if m[0] == 1 and m[1].get("cmd") == name]


@contextmanager
def opened(browser: Browser, token: TokenRoute) -> Iterator[Opened]:
    """The frame with the Activity in it, at a phone's width, in a fresh browser context."""
    setup = token.setup
    with serve(frame_app(client_id=setup.client_id, token=token)) as url:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            started = time.perf_counter()
            page.goto(url + setup.path())
            activity = page.frame(name="activity")
            assert activity is not None
            yield Opened(page, activity, started)
        finally:
            context.close()


def test_the_page_signs_in_through_discord_and_shows_who_and_where(browser: Browser) -> None:
    """Handshake, READY, AUTHORIZE for identify, the code posted, AUTHENTICATE with the token the
    route gave: the page shows the user's name, the instance and channel, and the board's place,
    readable at a phone's width."""
    setup = FrameSetup()
    token = TokenRoute(setup)
    with opened(browser, token) as shown:
        name = shown.activity.locator("#user-name")
        expect(name).to_have_text(f"Signed in as {setup.global_name}", timeout=WAIT)
        elapsed = time.perf_counter() - shown.started

        handshake = shown.page.evaluate("() => window.discordFrame.handshake")
        assert handshake["client_id"] == setup.client_id
        assert handshake["frame_id"] == setup.frame_id
        [authorize] = shown.commands("AUTHORIZE")
        assert authorize["args"] == {
            "client_id": setup.client_id,
            "response_type": "code",
            "state": "",
            "prompt": "none",
            "scope": ["identify"],
        }
        assert token.posted == [{"code": setup.code}]
        [authenticate] = shown.commands("AUTHENTICATE")
        assert authenticate["args"] == {"access_token": setup.access_token}

        main = shown.activity.locator("#activity")
        expect(main).to_have_attribute("data-state", "signed-in")
        expect(shown.activity.locator("#place")).to_have_text(
            f"Activity {setup.instance_id} · channel {setup.channel_id}"
        )
        expect(shown.activity.locator("#board")).to_have_text("The board will appear here.")
        expect(shown.activity.locator("#error")).to_be_hidden()
        assert shown.activity.title() == "Tic-tac-toe"
        overflow = shown.activity.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page is {overflow}px wider than a phone"

        marks = shown.activity.evaluate(
            """() => ({
                paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
                signedIn: performance.getEntriesByName("activity-signed-in")[0]?.startTime,
            })"""
        )
        print(
            f"\nActivity page: first contentful paint {marks['paint']:.0f} ms, signed in "
            f"{marks['signedIn']:.0f} ms after its frame's navigation; the name shown "
            f"{elapsed * 1000:.0f} ms after the parent frame's goto"
        )


def test_a_failing_token_post_shows_the_error_and_try_again_signs_in(browser: Browser) -> None:
    """The bot's server answers 503: the page says so with the status, sends no AUTHENTICATE,
    and offers Try again; pressed once the server answers, the user is signed in."""
    setup = FrameSetup()
    token = TokenRoute(setup, statuses=[503, 200])
    with opened(browser, token) as shown:
        error = shown.activity.locator("#error")
        expect(error).to_be_visible(timeout=WAIT)
        expect(error).to_contain_text("The bot's server did not sign you in (HTTP 503).")
        expect(shown.activity.locator("#activity")).to_have_attribute("data-state", "error")
        expect(shown.activity.locator("#who")).to_be_hidden()
        assert shown.commands("AUTHENTICATE") == []
        assert token.posted == [{"code": setup.code}]

        shown.activity.get_by_role("button", name="Try again").click()

        expect(shown.activity.locator("#user-name")).to_have_text(
            "Signed in as Alice", timeout=WAIT
        )
        expect(error).to_be_hidden()
        assert len(shown.commands("AUTHORIZE")) == 2
        assert len(token.posted) == 2


def test_on_a_phone_a_user_without_a_display_name_is_shown_by_username(browser: Browser) -> None:
    """Discord's mobile client, a user with no display name: the page shows the username."""
    setup = FrameSetup(platform="mobile", global_name="")
    with opened(browser, TokenRoute(setup)) as shown:
        expect(shown.activity.locator("#user-name")).to_have_text(
            f"Signed in as {setup.username}", timeout=WAIT
        )
        assert f"platform={setup.platform}" in shown.activity.evaluate("() => location.search")


def test_a_declined_authorization_posts_nothing(browser: Browser) -> None:
    """The user declines Discord's authorization: the page says so and posts no code."""
    setup = FrameSetup(authorize="deny")
    token = TokenRoute(setup)
    with opened(browser, token) as shown:
        expect(shown.activity.locator("#error-text")).to_have_text(
            "Discord did not tell the Activity who you are. Try again, and accept if Discord asks.",
            timeout=WAIT,
        )
        assert token.posted == []


def test_the_page_opened_outside_discord_says_where_it_runs(browser: Browser) -> None:
    """The page's address opened as a tab of its own: no frame to talk to, and the page says
    that it runs inside Discord, with nothing to try again."""
    setup = FrameSetup()
    with serve(frame_app(client_id=setup.client_id, token=TokenRoute(setup))) as url:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            page.goto(url + "/")
            expect(page.locator("#error-text")).to_contain_text("runs inside Discord", timeout=WAIT)
            expect(page.locator("#retry")).to_be_hidden()
        finally:
            context.close()
