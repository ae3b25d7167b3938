"""The playground's browser pages: a page that opens is never refused for pages that went away,
and it opens on the channel's newest message.

SimCord's preview holds each open page, at most ``Preview._MAX_PAGES`` (16), until the page says
it is leaving, or for 10 minutes after its last request. A page that could not say so (its
browser was killed, its tab crashed or closed before the word went out) keeps its hold, so after
16 of those every new page would be refused for 10 minutes ("Unavailable channel"). A live page asks
for news twice a second (a tab in the background at least once a minute), so when the holds are
full, the pages silent the longest give theirs up to the new one; a page heard from in the last
`IDLE` seconds is never released.

Left to the preview, a new page opens where the preview's own presentation points, which the
playground never moves: the top of the channel, where new answers fall below the fold, and a
page keeps its place as they come. So each page is shown the channel's newest message (the
newest its member may see) when it opens, when it switches member, and whenever a new message
has come since it was last shown: the page scrolls it into sight. A page on a thread is shown
the thread's newest message (``channels.showing``).

Both go through the preview's own steps (``Preview._open_page``, which a page's first request
calls, and ``Preview._publish``, which shows a page its news), as the playground's clock does
for the page's actions.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bot.playground.channels import home, showing

if TYPE_CHECKING:
    from simcord.preview import Preview

IDLE = 3.0  # seconds without a request after which a page may give its hold up to a new one


def open_pages_freely(preview: Preview) -> None:
    """Make room for every new page, and keep each page on the newest message."""
    open_page, publish = preview._open_page, preview._publish
    # (page, viewer, channel) -> the newest message it was shown there
    seen: dict[tuple[str, int, int], int] = {}

    def opening(viewer_id: Any = None, target_id: Any = None) -> Any:
        make_room(preview)
        with showing(preview, home(preview).id):  # on #games, even while a thread's page acts
            return open_page(viewer_id, target_id)

    def publishing(page: Any, **how: Any) -> None:
        with showing(preview, page.channel_id):
            newest = newest_message(preview, page.channel_id)
            key = (page.id, page.viewer.id, page.channel_id)
            if page is not preview._python and newest is not None and seen.get(key) != newest:
                # Something new since this page (as this member) was last shown: show it.
                if len(seen) > 4 * preview._MAX_PAGES:
                    for gone in [k for k in seen if k[0] not in preview._pages]:
                        del seen[gone]
                seen[key] = newest
                page.target_id = preview._target_id(newest, page.viewer, denied_fallback=True)
                page.window_end_id = None  # the newest messages
            publish(page, **how)

    preview._open_page = opening  # type: ignore[method-assign]
    preview._publish = publishing  # type: ignore[method-assign]


def make_room(preview: Preview, *, now: float | None = None) -> list[str]:
    """Release the holds of pages silent the longest (over `IDLE` seconds) until a new page
    fits; returns the ids of the pages released."""
    now = time.monotonic() if now is None else now
    held = [
        page
        for page in preview._pages.values()
        if page is not preview._python and page is not preview._action_page
    ]
    over = len(held) - preview._MAX_PAGES + 1
    if over <= 0:
        return []
    silent = sorted(
        (page for page in held if now - page.last_activity > IDLE),
        key=lambda page: page.last_activity,
    )
    released = [page.id for page in silent[:over]]
    for page_id in released:
        preview._close_page(page_id)
    return released


def newest_message(preview: Preview, channel_id: int) -> int | None:
    """The id of the newest message of a channel or thread (None while it has none); a member
    who may not see it is shown the newest they may (``Preview._target_id`` checks)."""
    messages = preview.env.backend.messages.get(channel_id, {})
    return max((message.id for message in messages.values()), default=None)
