"""A small Discord of our own on 127.0.0.1, for the tests that run the bot in a process of its own
and for the load benchmark: a gateway websocket and the REST routes the bot uses (``server``), and
the world it holds (``model``), including the places a user install reaches, and threads as
Discord has them (``threads``, ``thread_members``)."""

from devkit.localdiscord.model import TOKEN, Channel, Guild, Timing, User, snowflake
from devkit.localdiscord.server import FakeDiscord

__all__ = ["TOKEN", "Channel", "FakeDiscord", "Guild", "Timing", "User", "snowflake"]
