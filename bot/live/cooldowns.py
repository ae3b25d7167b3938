"""How soon each user may challenge someone again (``Settings.challenge_cooldown``)."""

from __future__ import annotations

from datetime import datetime, timedelta


class Cooldowns:
    """The time of each user's last challenge, in this process."""

    def __init__(self) -> None:
        self._last: dict[int, datetime] = {}

    def left(self, user_id: int, now: datetime, cooldown: float) -> float:
        """Seconds until `user_id` may challenge someone again (0 if they may now)."""
        last = self._last.get(user_id)
        if last is None:
            return 0.0
        return max(0.0, (last + timedelta(seconds=cooldown) - now).total_seconds())

    def challenged(self, user_id: int, now: datetime) -> None:
        """Start the user's challenge cooldown."""
        self._last[user_id] = now
