"""``replies.launch``: an interaction answered by launching the app's Activity (callback type 12),
through discord.py's own client and the local Discord; an answer Discord refuses as too late, or
never gives while the interaction can still be answered (a 5xx), is one log line."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.discord_ui import replies
from devkit.local_client import club, local_client
from devkit.localdiscord.commands import APP_HANDLER


@pytest.mark.parametrize("trouble", [None, "expired", "503"])
async def test_launching_the_activity_answers_with_type_12(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, trouble: str | None
) -> None:
    """The Entry Point command answered with LAUNCH_ACTIVITY: the Activity is launched for whoever
    ran it and its instance id comes back; when Discord refuses the answer as too late, or fails
    with a 5xx until the interaction's window closes, None comes back and one line is logged."""
    async with club() as c, local_client(c.fake, monkeypatch, discord.Intents.default()) as client:
        fake = c.fake
        fake.enable_activities(handler=APP_HANDLER)
        if trouble == "expired":
            fake.callback_deadline = 0.0
        elif trouble == "503":
            fake.fail_route("answer", 10.0, 503)
        iid = await fake.launch(c.alice, c.games)
        (interaction,) = await client.next("interaction")
        assert interaction.id == iid
        caplog.set_level(logging.INFO, logger="bot")
        launched = await replies.launch(interaction)
        said = [r for r in caplog.records if r.name.startswith("bot")]
        if trouble is None:
            (made,) = fake.launches
            assert launched == made.instance_id
            assert (made.user_id, made.channel_id, made.interaction_id) == (
                c.alice.id,
                c.games.id,
                iid,
            )
            assert fake.timings[iid].ack_type == 12 and said == []
        else:
            assert launched is None and fake.launches == []
            assert len(said) == 1 and said[0].levelno == logging.WARNING, said
            assert not fake.interactions[iid].answered
