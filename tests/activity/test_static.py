"""The built page as the installed package carries it, and its index naming the application."""

from __future__ import annotations

import pytest

from bot.activity.page import CLIENT_ID_PLACEHOLDER, index_html, static


def test_the_package_carries_the_built_page() -> None:
    """index.html, app.js, app.css and the licences are package resources (importlib)."""
    names = {entry.name for entry in static().iterdir()}
    assert {"index.html", "app.js", "app.css", "licenses.txt"} <= names
    assert "embedded-app-sdk" in static().joinpath("licenses.txt").read_text(encoding="utf-8")


def test_the_index_names_the_application_in_its_meta() -> None:
    """The application's id takes the placeholder's place in the page's <meta>."""
    html = index_html("1000000000000000001")
    assert '<meta name="discord-client-id" content="1000000000000000001">' in html
    assert CLIENT_ID_PLACEHOLDER not in html


@pytest.mark.parametrize("wrong", ["", "12a", '1" onload="x', "１２"])
def test_an_id_that_is_not_digits_is_refused(wrong: str) -> None:
    """Only ASCII digits go into the page."""
    with pytest.raises(ValueError, match="digits"):
        index_html(wrong)
