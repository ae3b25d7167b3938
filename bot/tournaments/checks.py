"""What /tictactoe-tournament create checks before anything is stored: the bot's permissions in
the tournament's channel (its messages, and a public thread for each game, posted in), and the
start time (a Discord timestamp, to come)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.i18n import N_, NP_, Text
from bot.tournaments import texts

# What a tournament needs in its channel: its messages, and a public thread for each game.
NEEDS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "read_message_history": "Read Message History",
}
TIMESTAMP = re.compile(r"<t:(?P<at>-?[0-9]{1,12})(?::[tTdDfFR])?>|(?P<bare>[0-9]{1,12})")


def no_threads(names: list[str], channel: str) -> Text:
    """The refusal of a channel where the bot lacks `names`."""
    listed = ", ".join(f"**{name}**" for name in names)
    return NP_(
        "I can't run a tournament in {channel}: I'm missing the {permissions} permission there "
        "(each game is played in a thread). Give it to me there, or pick another channel.",
        "I can't run a tournament in {channel}: I'm missing the {permissions} permissions there "
        "(each game is played in a thread). Give them to me there, or pick another channel.",
        len(names),
        channel=channel,
        permissions=listed,
    )


def start_time(text: str | None, now: datetime) -> datetime | Text | None:
    """When a tournament starts (None: by hand), or why the text is not a time to come."""
    if text is None:
        return None
    match = TIMESTAMP.fullmatch(text.strip())
    if match is None:
        return N_(texts.BAD_START.msgid, text=f"`{text[:40]}`")
    try:
        at = datetime.fromtimestamp(int(match["at"] or match["bare"]), UTC)
    except (OverflowError, OSError, ValueError):  # past the year 9999
        return N_(texts.BAD_START.msgid, text=f"`{text[:40]}`")
    return texts.PAST_START if at <= now else at
