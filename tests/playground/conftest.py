"""The playground as a person starts it, for each test that needs it (``devkit.playground.process``
starts it), stopped at the end of the test; what a test needs and does not find."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from devkit.playground import process
from devkit.playground.process import Playground, start_playground


def missing(what: str) -> None:
    """A part the test needs is absent: under CI that is a failure, elsewhere a skip."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI must have it)")
    pytest.skip(what)


def chromium() -> str:
    """Debian's Chromium, the browser the page tests drive."""
    path = process.chromium()
    if path is None:
        missing(process.NO_CHROMIUM)
    assert path is not None
    return path


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Callable[..., Playground]]:
    """Start playgrounds with the given options in the test's folder; each one is stopped at the
    end of the test, whatever happened in it."""
    started: list[Playground] = []

    def start(*options: str) -> Playground:
        started.append(start_playground(*options, cwd=tmp_path))
        return started[-1]

    yield start
    for running in started:
        running.stop()


@pytest.fixture
def playground(launch: Callable[..., Playground], tmp_path: Path) -> Playground:
    """A playground with its database in the test's folder."""
    return launch("--database", str(tmp_path / "games.db"))


def headless_chromium() -> Iterator[Any]:
    """Chromium, headless, driven by Playwright (no browser of Playwright's own): a browser
    fixture's body, for the playground's page and the Activity's."""
    from playwright.sync_api import sync_playwright

    path = chromium()
    with sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=path, headless=True)
        except Exception as error:  # the browser is there but cannot start
            missing(f"Chromium would not start: {error}")
            raise
        yield launched
        launched.close()
