"""Threads on the playground's page: each page shows one channel or one of its threads, lists the
channel with its threads under it, opens any of them, and starts a thread as a member does.

SimCord's preview shows one channel, ``Preview.channel``, which its own steps read (a page's
actions, and finding the message a page is shown); its pages each keep a ``channel_id`` that the
rest reads. So every step for one page runs with ``Preview.channel`` set to that page's channel
(`showing`), and set back after: a command typed in a thread runs in the thread, a click on a
board in a thread is the thread's interaction, as on Discord. A page opens on #games (`home`,
where the preview's own Python page stays).

The page reads the channels it may open at `CHANNELS_PATH` (``served``, with the capability and
context of its other reads), and acts through the preview's own action route (``POST
/api/action``, under the playground's clock), in kinds of its own that never reach SimCord
(`KINDS`): open one (``playground_open``), start a thread under the channel
(``playground_thread``); every page is shown again after either. The threads are SimCord's own
(created, archived and locked by the bot through Discord's routes, with their gateway events);
``threads`` adds the rules of Discord's that SimCord leaves out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from simcord.backend.access import can_access_channel
from simcord.backend.errors import BackendError
from simcord.builders import ChannelHandle

if TYPE_CHECKING:
    from simcord.preview import Preview

CHANNELS_PATH = "/playground/channels"
OPEN, THREAD = "playground_open", "playground_thread"
KINDS = (OPEN, THREAD)
NAME_LENGTH = 100  # a thread's name, at most (Discord's limit)


def home(preview: Preview) -> ChannelHandle:
    """The playground's channel (#games): where its Python page stays, whatever the others show."""
    assert preview._python is not None  # the preview is open
    if preview.channel.id == preview._python.channel_id:
        return preview.channel
    channel = preview.env.backend.channels[preview._python.channel_id]
    return ChannelHandle(preview.env, preview.channel.guild, channel)


@contextmanager
def showing(preview: Preview, channel_id: int) -> Iterator[None]:
    """Run the preview's steps for a page on `channel_id` (its channel or one of its threads)."""
    before = preview.channel
    channel = preview.env.backend.channels.get(channel_id)
    if channel_id == before.id or channel is None:  # (a deleted thread: the page says so)
        yield
        return
    preview.channel = ChannelHandle(preview.env, before.guild, channel)
    try:
        yield
    finally:
        preview.channel = before


def threads_under(backend: Any, channel_id: int) -> list[int]:
    """The threads of a channel (archived ones too), in the order they were made."""
    guild_id = backend.channels[channel_id].guild_id
    return [
        thread_id
        for thread_id in backend.guilds[guild_id].thread_ids
        if getattr(backend.channels.get(thread_id), "parent_id", None) == channel_id
    ]


def channels(preview: Preview, page: Any) -> list[dict[str, Any]]:
    """The channel of the playground and its threads the page's member may see, in the order
    they were made, each with what the page shows of it."""
    backend, parent = preview.env.backend, home(preview)
    listed = [parent.id, *threads_under(backend, parent.id)]
    shown = []
    for channel_id in listed:
        channel = backend.channels[channel_id]
        if not can_access_channel(preview.env, channel_id, page.viewer, history=True):
            continue
        metadata = channel.thread_metadata
        shown.append(
            {
                "id": str(channel_id),
                "name": channel.name or "",
                "thread": channel.is_thread,
                "archived": bool(metadata and metadata.archived),
                "locked": bool(metadata and metadata.locked),
                "open": channel_id == page.channel_id,
            }
        )
    return shown


def open_channel(preview: Preview, page: Any, channel_id: int) -> None:
    """Show the page `channel_id` (the channel or one of its threads) at its newest message."""
    page.channel_id = channel_id
    page.window_end_id = None
    page.modal = page.modal_handle = None
    page.navigation_query, page.navigation_cursor = "", None
    page.candidate_queries.clear()
    page.generation += 1  # a navigation: the page drops what it showed of the other channel
    with showing(preview, channel_id):
        page.target_id = preview._initial_target(page.viewer, channel_id)
        preview._publish(page, reason="navigation")


def start_thread(preview: Preview, page: Any, name: str) -> int:
    """A public thread started by the page's member under the channel, as Discord's "Create
    Thread" does (it needs Create Public Threads); returns its id. The bot hears THREAD_CREATE."""
    backend, parent = preview.env.backend, home(preview)
    assert parent.guild is not None
    backend.require_permissions(parent.guild.id, page.viewer.id, parent.id, "create_public_threads")
    return int(backend.create_thread(parent.id, name, page.viewer.id).id)


def _refused(what: str) -> dict[str, Any]:
    return {"playground": False, "error": what}


def _answer(preview: Preview, context_id: Any, body: dict[str, Any]) -> dict[str, Any]:
    """What the page asked in one of the playground's own kinds."""
    page = preview._get_page(context_id)
    kind = body["kind"]
    if kind == OPEN:
        wanted = str(body.get("channel_id", ""))
        shown = {item["id"] for item in channels(preview, page)}
        if wanted not in shown:
            return _refused("That channel is not one this member can open.")
        open_channel(preview, page, int(wanted))
    elif kind == THREAD:
        name = " ".join(str(body.get("name", "")).split())
        if not 1 <= len(name) <= NAME_LENGTH:
            return _refused(f"A thread's name has 1 to {NAME_LENGTH} characters.")
        try:
            open_channel(preview, page, start_thread(preview, page, name))
        except BackendError:
            return _refused("This member may not start a thread here.")
    return {"playground": True, "channels": channels(preview, page)}


def let_pages_open_threads(preview: Preview) -> None:
    """Give the preview's actions the playground's kinds, and run each on its page's channel."""
    serve: Callable[..., Awaitable[Any]] = preview._action

    async def acting(context_id: Any, body: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(body, dict) and body.get("kind") in KINDS:
            answer = _answer(preview, context_id, body)
            # The bot's work handled (THREAD_CREATE, and what the clock's catching up set going)
            # and every page shown it, as after any of the page's actions.
            await preview.refresh()
            return answer
        page = preview._pages.get(context_id) if isinstance(context_id, str) else None
        with showing(preview, page.channel_id if page is not None else home(preview).id):
            return await serve(context_id, body, *args, **kwargs)

    preview._action = acting  # type: ignore[method-assign]
