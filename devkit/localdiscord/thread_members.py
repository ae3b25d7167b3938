"""Thread members in the local Discord: the bot joins and leaves (``@me``), adds and removes
others, lists them; THREAD_MEMBERS_UPDATE about the bot's own membership always, about others'
only to a bot that identified with the privileged members intent, as Discord sends it. Adding or
removing a member of an archived thread is 50083; adding someone needs Send Messages in Threads
(in a private thread also Manage Threads, or being in it and either its creator or the thread
invitable), removing someone else Manage Threads (or having started the private thread)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from devkit.localdiscord.model import _timestamp, member_payload
from devkit.localdiscord.rest import _error, _json
from devkit.localdiscord.thread_model import (
    ARCHIVED,
    MANAGE_THREADS,
    MISSING_PERMISSIONS,
    PRIVATE_THREAD,
    SEND_MESSAGES_IN_THREADS,
    UNKNOWN_MEMBER,
    Thread,
)
from devkit.localdiscord.threads import Threads

GUILD_MEMBERS = 1 << 1  # privileged gateway intent: other people's thread memberships


class ThreadMembers(Threads):
    """Threads and their members: the thread half of ``FakeDiscord``."""

    def thread_routes(self) -> list[tuple[str, str, Any]]:
        one = "/channels/{channel}/thread-members/{user}"  # {user}: an id or @me
        return [
            *super().thread_routes(),
            ("PUT", one, self._add_member),
            ("DELETE", one, self._remove_member),
            ("GET", one, self._get_member),
            ("GET", "/channels/{channel}/thread-members", self._list_members),
        ]

    async def _members_update(self, thread: Thread, added: int = 0, removed: int = 0) -> None:
        """THREAD_MEMBERS_UPDATE: about the bot always, about others with the members intent."""
        assert thread.guild_id is not None
        shard = self.shard_of(thread.guild_id)
        mine = self.bot_user.id in (added, removed)
        if shard not in self._links or not (mine or self._intents.get(shard, 0) & GUILD_MEMBERS):
            return
        data: dict[str, Any] = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(thread.members), 50),
        }
        if added:
            user = self.guilds[thread.guild_id].members.get(added, self.bot_user)
            data["added_members"] = [dict(thread.member(added), member=member_payload(user))]
        if removed:
            data["removed_member_ids"] = [str(removed)]
        await self._send_event("THREAD_MEMBERS_UPDATE", data, shard)

    def _user(self, request: web.Request) -> int:
        user = request.match_info["user"]
        return self.bot_user.id if user == "@me" else int(user)

    async def _add_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        if isinstance(thread, web.Response):
            return thread
        user_id, allowed = self._user(request), thread.bot_permissions
        others = user_id != self.bot_user.id
        if others and not allowed & SEND_MESSAGES_IN_THREADS:
            return _error(*MISSING_PERMISSIONS)
        if thread.archived:
            return _error(*ARCHIVED)
        invites = self.bot_user.id in thread.members
        invites = invites and (thread.invitable or thread.owner_id == self.bot_user.id)
        if others and thread.kind == PRIVATE_THREAD and not (invites or allowed & MANAGE_THREADS):
            return _error(*MISSING_PERMISSIONS)
        assert thread.guild_id is not None
        if others and user_id not in self.guilds[thread.guild_id].members:
            return _error(*UNKNOWN_MEMBER)
        if user_id not in thread.members:
            thread.members[user_id] = _timestamp()
            await self._members_update(thread, added=user_id)
        return web.Response(status=204)

    async def _remove_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        if isinstance(thread, web.Response):
            return thread
        user_id, allowed = self._user(request), thread.bot_permissions
        mine = thread.owner_id == self.bot_user.id and thread.kind == PRIVATE_THREAD
        if user_id != self.bot_user.id and not (mine or allowed & MANAGE_THREADS):
            return _error(*MISSING_PERMISSIONS)
        if thread.archived:
            return _error(*ARCHIVED)
        if thread.members.pop(user_id, None) is not None:
            await self._members_update(thread, removed=user_id)
        return web.Response(status=204)

    async def _get_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        if isinstance(thread, web.Response):
            return thread
        user_id = self._user(request)
        if user_id not in thread.members:
            return _error(*UNKNOWN_MEMBER)
        return _json(thread.member(user_id))

    async def _list_members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        if isinstance(thread, web.Response):
            return thread
        assert thread.guild_id is not None
        people = self.guilds[thread.guild_id].members
        listed = []
        for user_id in thread.members:
            entry = thread.member(user_id)
            if request.query.get("with_member") == "true":
                entry["member"] = member_payload(people.get(user_id, self.bot_user))
            listed.append(entry)
        return _json(listed)
