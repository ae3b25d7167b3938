"""What a thread is in the local Discord: a channel under a parent (``Thread``), Discord's
permission bits and channel types for threads, and the errors Discord answers about them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devkit.localdiscord.model import Channel, _timestamp

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12  # channel types
VIEW_CHANNEL = 1 << 10
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
HAS_THREAD = 1 << 5  # message flag: a thread was started from it
DURATIONS = (60, 1440, 4320, 10080)  # auto_archive_duration, minutes

UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_MEMBER = (404, 10007, "Unknown Member")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
WRONG_TYPE = (400, 50024, "Cannot execute action on this channel type")
INVALID_FORM = (400, 50035, "Invalid Form Body")
ARCHIVED = (400, 50083, "Thread is archived")
ALREADY_STARTED = (400, 160004, "A thread has already been created for this message")
LOCKED = (403, 160005, "Thread is locked")
TOO_MANY = (400, 160006, "Maximum number of active threads reached")


@dataclass
class Thread(Channel):
    """A thread under ``parent``, started by ``owner_id``; ``members``: user id -> joined at."""

    parent: Channel | None = None
    owner_id: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive: int = 1440
    members: dict[int, str] = field(default_factory=dict)
    created: str = field(default_factory=_timestamp)
    archive_timestamp: str = field(default_factory=_timestamp)
    sent: int = 0  # messages posted in it
    viewer: int = 0  # the bot: its own membership comes with the thread, as Discord sends it

    @property
    def bot_permissions(self) -> int:
        assert self.parent is not None
        return self.parent.bot_permissions

    def payload(self) -> dict[str, Any]:
        assert self.parent is not None
        metadata: dict[str, Any] = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive,
            "archive_timestamp": self.archive_timestamp,
            "locked": self.locked,
            "create_timestamp": self.created,
        }
        if self.kind == PRIVATE_THREAD:
            metadata["invitable"] = self.invitable
        mine = {"member": self.member(self.viewer)} if self.viewer in self.members else {}
        return mine | {
            "id": str(self.id),
            "type": self.kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "member_count": min(len(self.members), 50),
            "message_count": self.sent,
            "total_message_sent": self.sent,
            "thread_metadata": metadata,
        }

    def member(self, user_id: int) -> dict[str, Any]:
        """A thread member object."""
        return {
            "id": str(self.id),
            "user_id": str(user_id),
            "join_timestamp": self.members[user_id],
            "flags": 0,
        }


def invalid(body: dict[str, Any], *, creating: bool) -> bool:
    """Whether a thread's name or auto_archive_duration breaks Discord's rules (50035)."""
    name = body.get("name")
    if (creating or "name" in body) and not (isinstance(name, str) and 1 <= len(name) <= 100):
        return True
    duration = body.get("auto_archive_duration")
    return duration is not None and duration not in DURATIONS
