"""Discord's rules for threads that SimCord leaves out, kept in the playground's simulated Discord.

SimCord has threads (started from a message or without, archived and locked through the
channel's PATCH, thread members, THREAD_CREATE, THREAD_UPDATE and THREAD_MEMBERS_UPDATE, an
interaction in a thread carrying the thread as its channel). What it lets through and Discord
does not, the playground refuses or does as Discord, on the bot's own requests:

- a message posted in an archived thread unarchives it (THREAD_UPDATE), unless the thread is
  locked: then 400 Thread is archived (50083);
- in a locked thread that is not archived, a message needs Manage Threads: 403 Thread is locked
  (160005) without it;
- a message edited in an archived thread, or a member added to or removed from one: 50083;
- a second thread from the same message: 400 A thread has already been created for this
  message (160004);
- a thread's PATCH without Manage Threads: its creator may rename, archive and unarchive it (a
  member of it unarchive it), but locking it, or changing another's, is 403 Missing Permissions
  (50013); an archived thread is only unarchived (50083 otherwise), as the tests' local Discord
  has them (``devkit/localdiscord/threads.py``);
- THREAD_MEMBERS_UPDATE about someone else reaches only a bot with the members intent (the bot
  asks for none): about the bot's own membership, always.

SimCord's routes are one table for every simulated Discord in the process, so each rule applies
only to the backends `follow_discord` was given (the playground's), never to another's tests.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from simcord.backend.errors import BackendError
from simcord.http import router

ARCHIVED = (400, 50083, "Thread is archived")
LOCKED = (403, 160005, "Thread is locked")
ALREADY_STARTED = (400, 160004, "A thread has already been created for this message")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
MODERATING = {"locked", "invitable", "rate_limit_per_user"}  # a thread's fields only moderators set

_followed: weakref.WeakSet[Any] = weakref.WeakSet()
Guard = Callable[[Any], None]


def _thread(ctx: Any) -> Any:
    """The thread a request is about, or None when it is about another channel."""
    channel = ctx.backend.channels.get(int(ctx.args.get("channel_id", 0)))
    return channel if channel is not None and channel.is_thread else None


def _may_manage(ctx: Any, thread: Any) -> bool:
    backend = ctx.backend
    try:
        backend.require_permissions(
            thread.guild_id, backend.bot_user.id, thread.id, "manage_threads"
        )
    except BackendError:
        return False
    return True


def _posting(ctx: Any) -> None:
    thread = _thread(ctx)
    if thread is None:
        return
    metadata = thread.thread_metadata
    if metadata.archived:
        if metadata.locked:
            raise BackendError(*ARCHIVED)
        ctx.backend.edit_channel(thread.id, {}, thread_metadata={"archived": False})
    elif metadata.locked and not _may_manage(ctx, thread):
        raise BackendError(*LOCKED)


def _changing(ctx: Any) -> None:
    thread = _thread(ctx)
    if thread is not None and thread.thread_metadata.archived:
        raise BackendError(*ARCHIVED)


def _editing(ctx: Any) -> None:
    """A thread's PATCH: its creator may rename, archive and unarchive it, a member unarchive it
    when it is not locked; locking it, and anything on another's thread, needs Manage Threads;
    an archived thread is only unarchived."""
    thread = _thread(ctx)
    if thread is None:
        return
    body = ctx.json if isinstance(ctx.json, dict) else {}
    bot_id = ctx.backend.bot_user.id
    moderator, mine = _may_manage(ctx, thread), thread.owner_id == bot_id
    member = body == {"archived": False} and bot_id in thread.thread_members
    if (MODERATING & set(body) and not moderator) or not (moderator or mine or member):
        raise BackendError(*MISSING_PERMISSIONS)
    if thread.thread_metadata.locked and not (moderator or mine):
        raise BackendError(*MISSING_PERMISSIONS)
    if thread.thread_metadata.archived and body.get("archived") is not False and not moderator:
        raise BackendError(*ARCHIVED)


def _starting(ctx: Any) -> None:
    started = ctx.backend.channels.get(int(ctx.args["message_id"]))
    if started is not None and started.is_thread:
        raise BackendError(*ALREADY_STARTED)


GUARDS: dict[tuple[str, str], Guard] = {
    ("PATCH", "channels/{channel_id}"): _editing,
    ("POST", "channels/{channel_id}/messages"): _posting,
    ("PATCH", "channels/{channel_id}/messages/{message_id}"): _changing,
    ("POST", "channels/{channel_id}/messages/{message_id}/threads"): _starting,
    ("PUT", "channels/{channel_id}/thread-members/@me"): _changing,
    ("PUT", "channels/{channel_id}/thread-members/{user_id}"): _changing,
    ("DELETE", "channels/{channel_id}/thread-members/@me"): _changing,
    ("DELETE", "channels/{channel_id}/thread-members/{user_id}"): _changing,
}


def _guarded(guard: Guard, handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def handle(ctx: Any) -> Any:
        if ctx.backend in _followed:
            guard(ctx)
        return handler(ctx)

    handle.playground_guard = guard  # type: ignore[attr-defined]
    return handle


def _members_update_to_bot(env: Any, payload: Any) -> bool:
    """Whether Discord sends a THREAD_MEMBERS_UPDATE to the bot: about it, or with the intent."""
    bot_id = str(env.backend.bot_user.id)
    added = [str(member.get("user_id")) for member in payload.get("added_members") or ()]
    removed = [str(member) for member in payload.get("removed_member_ids") or ()]
    return bot_id in added + removed or bool(env.bot.intents.members)


def follow_discord(env: Any) -> None:
    """Keep Discord's rules for threads (above) in this simulated Discord (a SimCord ``Env``)."""
    backend = env.backend
    if backend in _followed:
        return
    _followed.add(backend)
    emit = backend.emit

    def emitting(event: str, payload: Any) -> None:
        if event != "THREAD_MEMBERS_UPDATE" or _members_update_to_bot(env, payload):
            emit(event, payload)

    backend.emit = emitting
    for method, routes in router._ROUTES.items():
        for number, (template, handler) in enumerate(routes):
            guard = GUARDS.get((method, "/".join(template)))
            if guard is not None and getattr(handler, "playground_guard", None) is None:
                routes[number] = (template, _guarded(guard, handler))
