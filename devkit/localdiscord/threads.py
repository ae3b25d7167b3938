"""Threads in the local Discord, as Discord has them: public threads started from a message (the
thread takes the message's id, so a message has one thread at most: 160004) and public or private
threads without one; a thread is a channel (its messages and buttons go through the channel
routes, interactions in it carry it as their channel); archive and lock; THREAD_CREATE, _UPDATE
and _DELETE on the gateway, and the active threads in GUILD_CREATE. Members: ``thread_members``.

The bot's permissions in a thread are its parent's (``Channel.denied``): Create Public Threads and
Create Private Threads to start one, Send Messages in Threads to post in one or add a member,
Manage Threads to lock one, to archive or rename another's, to remove another's member or to
delete one; a missing one is 403 Missing Permissions (50013), a channel it cannot see 403 Missing
Access (50001). A message in an archived thread unarchives it, unless it is locked: then 50083
(Thread is archived), and 160005 (Thread is locked) while it is active; editing a message in an
archived thread is 50083. A server has ``max_active_threads`` active threads at most (160006).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from devkit.localdiscord.model import Channel, Guild, User, _timestamp, snowflake
from devkit.localdiscord.rest import _error, _json
from devkit.localdiscord.thread_model import (
    ALREADY_STARTED,
    ARCHIVED,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    HAS_THREAD,
    INVALID_FORM,
    LOCKED,
    MANAGE_THREADS,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    TOO_MANY,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    VIEW_CHANNEL,
    WRONG_TYPE,
    Thread,
    invalid,
)


class Threads:
    """The thread half of ``FakeDiscord``."""

    bot_user: User
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    messages: dict[int, dict[str, Any]]
    _links: dict[int, list[Any]]
    _intents: dict[int, int]

    max_active_threads = 1000  # a server's active threads at most (160006 beyond)

    def shard_of(self, guild_id: int) -> int: ...
    def _note(self, request: web.Request) -> None: ...
    async def _send_event(self, name: str, data: Any, shard: int = 0) -> None: ...
    async def _echo(self, name: str, message: dict[str, Any] | None) -> None: ...
    async def _unknown(self, request: web.Request) -> web.Response: ...

    def thread_routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("POST", "/channels/{channel}/messages/{message}/threads", self._from_message),
            ("POST", "/channels/{channel}/threads", self._without_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("PATCH", "/channels/{channel}", self._edit_thread),
            ("DELETE", "/channels/{channel}", self._delete_thread),
        ]

    # ------------------------------------------------------------------ the world

    async def open_thread(
        self, user: User, parent: Channel, name: str, *, private: bool = False
    ) -> Thread:
        """A thread a member starts without a message; THREAD_CREATE where the bot sees it."""
        thread = self._new(parent, {"name": name}, user, PRIVATE_THREAD if private else 11)
        if not private or thread.bot_permissions & MANAGE_THREADS:
            await self._event("THREAD_CREATE", thread, newly_created=True)
        return thread

    def _new(
        self, parent: Channel, body: dict[str, Any], owner: User, kind: int, tid: int = 0
    ) -> Thread:
        assert parent.guild_id is not None
        thread = Thread(
            tid or snowflake(),
            parent.guild_id,
            body["name"],
            0,
            kind,
            reachable=parent.reachable,
            parent=parent,
            owner_id=owner.id,
            viewer=self.bot_user.id,
            auto_archive=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
        )
        thread.members[owner.id] = thread.created
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].threads[thread.id] = thread
        return thread

    async def _event(self, name: str, thread: Thread, **extra: Any) -> None:
        assert thread.guild_id is not None
        shard = self.shard_of(thread.guild_id)
        if shard in self._links:
            await self._send_event(name, dict(thread.payload(), **extra), shard)

    async def _set_archived(self, thread: Thread, archived: bool) -> None:
        assert thread.guild_id is not None
        thread.archived, thread.archive_timestamp = archived, _timestamp()
        active = self.guilds[thread.guild_id].threads
        if archived:
            active.pop(thread.id, None)
        else:
            active[thread.id] = thread

    # ------------------------------------------------------------ refusals

    def _seen(self, request: web.Request) -> Channel | web.Response:
        """The channel of a route, or Discord's answer where the bot cannot see it."""
        self._note(request)
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return _error(*UNKNOWN_CHANNEL)
        if not channel.reachable or self._hidden(channel):
            return _error(*MISSING_ACCESS)
        return channel

    def _hidden(self, channel: Channel) -> bool:
        """Whether the bot cannot see a channel: no View Channel there, or a private thread it
        is neither in nor a moderator of."""
        allowed = channel.bot_permissions
        outside = isinstance(channel, Thread) and channel.kind == PRIVATE_THREAD
        outside = outside and self.bot_user.id not in channel.members  # type: ignore[attr-defined]
        return not allowed & VIEW_CHANNEL or (outside and not allowed & MANAGE_THREADS)

    def _thread(self, request: web.Request) -> Thread | web.Response:
        channel = self._seen(request)
        if isinstance(channel, Channel) and not isinstance(channel, Thread):
            return _error(*WRONG_TYPE)
        return channel  # type: ignore[return-value]

    def _parent(self, request: web.Request) -> Channel | web.Response:
        channel = self._seen(request)
        if isinstance(channel, Channel) and (isinstance(channel, Thread) or channel.kind != 0):
            return _error(*WRONG_TYPE)
        return channel

    async def in_thread(self, method: str, channel: Channel) -> web.Response | None:
        """What a thread answers to a message posted (POST) or edited (PATCH) in it; a message
        in an archived thread that is not locked unarchives it."""
        if not isinstance(channel, Thread) or method == "GET":
            return None
        allowed = channel.bot_permissions
        if self._hidden(channel):
            return _error(*MISSING_ACCESS)
        if not allowed & SEND_MESSAGES_IN_THREADS:
            return _error(*MISSING_PERMISSIONS)
        if channel.archived and (method == "PATCH" or channel.locked):
            return _error(*ARCHIVED)
        if channel.locked and not allowed & MANAGE_THREADS:
            return _error(*LOCKED)
        if method == "POST":
            channel.sent += 1
            if channel.archived:
                await self._set_archived(channel, False)
                await self._event("THREAD_UPDATE", channel)
        return None

    def _may_start(self, parent: Channel, need: int) -> web.Response | None:
        """Discord's answer to a thread the bot may not start under `parent`: the permission
        `need`, and room among the server's active threads."""
        if not parent.bot_permissions & need:
            return _error(*MISSING_PERMISSIONS)
        assert parent.guild_id is not None
        if len(self.guilds[parent.guild_id].threads) >= self.max_active_threads:
            return _error(*TOO_MANY)
        return None

    # ------------------------------------------------------------------ routes

    async def _from_message(self, request: web.Request) -> web.Response:
        parent = self._parent(request)
        if isinstance(parent, web.Response):
            return parent
        refused = self._may_start(parent, CREATE_PUBLIC_THREADS)
        if refused is not None:
            return refused
        message_id = int(request.match_info["message"])
        message = self.messages.get(message_id)
        if message is None or message["channel_id"] != str(parent.id) or message["flags"] & 64:
            return _error(*UNKNOWN_MESSAGE)  # an ephemeral message (flag 64) has no thread
        if message_id in self.channels or "thread" in message:
            return _error(*ALREADY_STARTED)
        body = await request.json()
        if invalid(body, creating=True):
            return _error(*INVALID_FORM)
        thread = self._new(parent, body, self.bot_user, PUBLIC_THREAD, message_id)
        message["thread"] = thread.payload()
        message["flags"] = int(message["flags"]) | HAS_THREAD
        await self._event("THREAD_CREATE", thread, newly_created=True)
        await self._echo("MESSAGE_UPDATE", message)
        return _json(thread.payload(), status=201)

    async def _without_message(self, request: web.Request) -> web.Response:
        parent = self._parent(request)
        if isinstance(parent, web.Response):
            return parent
        body = await request.json()
        kind = int(body.get("type") or PRIVATE_THREAD)  # Discord's default: private
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD) or invalid(body, creating=True):
            return _error(*INVALID_FORM)
        need = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        refused = self._may_start(parent, need)
        if refused is not None:
            return refused
        thread = self._new(parent, body, self.bot_user, kind)
        await self._event("THREAD_CREATE", thread, newly_created=True)
        return _json(thread.payload(), status=201)

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._seen(request)
        if isinstance(channel, web.Response):
            return channel
        return _json(channel.payload())

    async def _edit_thread(self, request: web.Request) -> web.Response:
        """PATCH of a thread: the creator may rename, archive and unarchive it; locking, and
        anything on another's thread, needs Manage Threads; an archived thread is only
        unarchived (50083 otherwise)."""
        thread = self._seen(request)
        if isinstance(thread, web.Response):
            return thread
        if not isinstance(thread, Thread):
            return await self._unknown(request)  # only threads are edited here
        body = await request.json()
        moderator = bool(thread.bot_permissions & MANAGE_THREADS)
        mine = thread.owner_id == self.bot_user.id
        needs_moderator = {"locked", "rate_limit_per_user", "invitable"} & set(body)
        # Unarchiving an unlocked thread only needs to be in it; the rest, its creator.
        member = body == {"archived": False} and self.bot_user.id in thread.members
        if (needs_moderator and not moderator) or not (moderator or mine or member):
            return _error(*MISSING_PERMISSIONS)
        if thread.locked and not (moderator or mine):
            return _error(*MISSING_PERMISSIONS)
        if thread.archived and body.get("archived") is not False and not moderator:
            return _error(*ARCHIVED)
        if invalid(body, creating=False):
            return _error(*INVALID_FORM)
        thread.name = body.get("name") or thread.name
        thread.auto_archive = int(body.get("auto_archive_duration") or thread.auto_archive)
        thread.locked = bool(body.get("locked", thread.locked))
        thread.invitable = bool(body.get("invitable", thread.invitable))
        if "archived" in body and bool(body["archived"]) != thread.archived:
            await self._set_archived(thread, bool(body["archived"]))
        await self._event("THREAD_UPDATE", thread)
        return _json(thread.payload())

    async def _delete_thread(self, request: web.Request) -> web.Response:
        thread = self._seen(request)
        if isinstance(thread, web.Response):
            return thread
        if not isinstance(thread, Thread):
            return await self._unknown(request)
        if not thread.bot_permissions & MANAGE_THREADS:
            return _error(*MISSING_PERMISSIONS)
        assert thread.guild_id is not None and thread.parent is not None
        del self.channels[thread.id]
        self.guilds[thread.guild_id].threads.pop(thread.id, None)
        shard = self.shard_of(thread.guild_id)
        if shard in self._links:
            gone: dict[str, Any] = {"id": str(thread.id), "guild_id": str(thread.guild_id)}
            gone["type"] = thread.kind
            gone["parent_id"] = str(thread.parent.id)
            await self._send_event("THREAD_DELETE", gone, shard)
        return _json(thread.payload())
