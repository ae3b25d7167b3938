"""The Activity's built page as the package carries it, and its index with the application's id.

The files in ``static/`` are built from ``activity/src/`` (``npm run build`` in ``activity/``;
``scripts/check_activity.sh`` checks that they match their sources). The index names the
application in a ``<meta>``, where the page reads it to start Discord's SDK.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

CLIENT_ID_PLACEHOLDER = "{{DISCORD_CLIENT_ID}}"


def static() -> Traversable:
    """The folder of the built page inside the installed package."""
    return resources.files("bot.activity") / "static"


def index_html(client_id: str) -> str:
    """The page's index naming the application whose Activity it is (its id, digits only)."""
    if not client_id.isdecimal() or not client_id.isascii():
        raise ValueError(f"an application id is digits, not {client_id!r}")
    text = static().joinpath("index.html").read_text(encoding="utf-8")
    if CLIENT_ID_PLACEHOLDER not in text:
        raise ValueError("the built index.html has no place for the application id")
    return text.replace(CLIENT_ID_PLACEHOLDER, client_id)
