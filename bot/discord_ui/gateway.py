"""What the bot reads of what Discord sends: only the message events it acts on, and no message
that an interaction response brings back.

The bot answers a message that mentions it (one line pointing to /tictactoe) and notices a
deleted board; it reads no edit and keeps no message cache. Left as they are, discord.py's
parsers build a whole message, every component of a board included, for each MESSAGE_UPDATE,
which the bot's own board edits bring back after every click, and for every message posted
where the bot can see it. Measured: `benchmarks/load.py --modes pays` (docs/figures.md,
"Under load"). Each interaction response, too, comes back with the message it made or edited
(discord.py asks for it), and discord.py builds it whole into ``callback.resource``, which the
bot never reads (a new board's id is the response's ``message_id``): about 25 µs a click on
3x3, more on bigger boards. And a click arrives with the message it was made on, whose
components discord.py builds into objects (about 15 µs on 3x3) where the bot reads only each
button's id and emoji (``grid``): a click's message keeps them as Discord sent them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from discord.interactions import InteractionCallbackResponse
from discord.message import Message

Parser = Callable[[Any], None]
# Takes an event's data and does nothing with it, in C: an event dropped this way costs no Python
# call at all (the edit every click brings back).
_DROP = cast(Parser, bool)
COMPONENT = 3  # a component interaction: a click


class Raw(list[Any]):
    """A message's components as Discord sent them (dicts), kept so by discord.py's ``Message``."""


def read_only_what_matters(parsers: dict[str, Parser], me: Callable[[], int | None]) -> None:
    """Make discord.py's gateway `parsers` skip the message events the bot never acts on.

    MESSAGE_UPDATE is dropped whole; MESSAGE_CREATE is parsed only when the message mentions
    the bot (`me()`, its user id once logged in), the only message ``on_message`` answers.
    Deletions are left alone: a deleted board ends its game. A click's message keeps its
    components raw (`clicks_keep_their_message_raw`).
    """
    create = parsers["MESSAGE_CREATE"]

    def message_create(data: Any) -> None:
        user_id = me()
        if user_id is None or _mentions(data, str(user_id)):
            create(data)

    parsers["MESSAGE_CREATE"] = message_create
    parsers["MESSAGE_UPDATE"] = _DROP
    clicks_keep_their_message_raw(parsers)


def clicks_keep_their_message_raw(parsers: dict[str, Parser]) -> None:
    """Make a click's ``interaction.message.components`` the dicts Discord sent (`Raw`), unbuilt:
    ``grid`` reads a button's id and emoji from either form."""
    create = parsers["INTERACTION_CREATE"]

    def interaction_create(data: Any) -> None:
        message = data.get("message")
        if data.get("type") == COMPONENT and message is not None and message.get("components"):
            message["components"] = Raw(message["components"])
        create(data)

    parsers["INTERACTION_CREATE"] = interaction_create
    handle: Any = Message._handle_components
    if getattr(handle, "keeps_raw", False):
        return

    def handle_components(self: Message, data: Any) -> None:
        if type(data) is Raw:
            self.components = data
        else:
            handle(self, data)

    handle_components.keeps_raw = True  # type: ignore[attr-defined]
    Message._handle_components = handle_components  # type: ignore[method-assign]


def _mentions(data: Any, user_id: str) -> bool:
    return any(user.get("id") == user_id for user in data.get("mentions") or ())


def answers_without_their_message() -> None:
    """Make discord.py keep no message an interaction response brings back: its id stays
    (``message_id``), its ``resource`` is None. Once per process; an activity's stays."""
    update: Any = InteractionCallbackResponse._update
    if getattr(update, "skips_message", False):
        return

    def without_message(self: InteractionCallbackResponse, data: Any) -> None:
        resource = data.get("resource")
        if resource is not None and "message" in resource:
            data = {**data, "resource": {k: v for k, v in resource.items() if k != "message"}}
        update(self, data)

    without_message.skips_message = True  # type: ignore[attr-defined]
    InteractionCallbackResponse._update = without_message  # type: ignore[method-assign]
