"""What the Activity's tests lean on in the local Discord, as Discord does it: the app's global
commands read and overwritten whole, ids kept for the commands named again, an overwrite that
leaves out the Entry Point command refused whole (400, 50240), the Entry Point command run from
the App Launcher, and the callback that launches the Activity (type 12)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from devkit.localdiscord import FakeDiscord
from devkit.localdiscord.commands import APP_HANDLER, DISCORD_LAUNCH_ACTIVITY

HEADERS = {"Authorization": "Bot load.test.token"}
LAUNCH = {"type": 12}  # the callback that launches the Activity
PLAY = {"name": "tictactoe", "description": "Play", "type": 1}


async def put(http: aiohttp.ClientSession, url: str, body: Any) -> tuple[int, Any]:
    async with http.put(url, json=body, headers=HEADERS) as answer:
        return answer.status, await answer.json()


async def get(http: aiohttp.ClientSession, url: str) -> list[dict[str, Any]]:
    async with http.get(url, headers=HEADERS) as answer:
        assert answer.status == 200
        return list(await answer.json())


async def test_an_overwrite_without_the_entry_point_command_is_refused_whole() -> None:
    """With Activities enabled, a bulk overwrite of the global commands that leaves out the Entry
    Point command answers 400 (50240) and changes nothing; one that names it keeps its id, and a
    command named again keeps its id too."""
    fake = FakeDiscord()
    entry = fake.enable_activities(name_localizations={"fr": "lancer"})
    await fake.start()
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    try:
        async with aiohttp.ClientSession() as http:
            status, refusal = await put(http, url, [PLAY])
            assert status == 400 and refusal["code"] == 50240
            assert "Entry Point command" in refusal["message"]
            assert [c["id"] for c in await get(http, url)] == [entry["id"]]
            assert not fake.synced.is_set()
            status, first = await put(http, url, [PLAY, {**entry, "description": "Open"}])
            assert status == 200 and fake.synced.is_set()
            assert first[1]["id"] == entry["id"] and first[1]["description"] == "Open"
            listed = {c["name"]: c for c in await get(http, url)}
            assert listed.keys() == {"tictactoe", "launch"}
            assert "name_localizations" not in listed["launch"]
            localized = {c["name"]: c for c in await get(http, f"{url}?with_localizations=true")}
            assert localized["launch"]["name_localizations"] == {"fr": "lancer"}
            status, second = await put(http, url, [PLAY, {"name": "launch", "type": 4}])
            assert status == 200  # named again by its name and type: the same command
            assert [c["id"] for c in first] == [c["id"] for c in second]
            status, _ = await put(http, url, [PLAY, {"name": "other", "type": 4}])
            assert status == 400  # a new Entry Point command leaves out the one there is
            guild = f"{fake.api_base}/applications/{fake.application_id}/guilds/1/commands"
            status, refusal = await put(http, guild, [{"name": "launch", "type": 4}])
            assert status == 400 and refusal["code"] == 50035  # global only
    finally:
        await fake.close()


async def test_an_app_without_activities_overwrites_as_before() -> None:
    """No Entry Point command: every overwrite goes through, the list is the one sent."""
    fake = FakeDiscord()
    await fake.start()
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    try:
        async with aiohttp.ClientSession() as http:
            status, synced = await put(http, url, [PLAY])
            assert status == 200 and [c["name"] for c in synced] == ["tictactoe"]
            assert fake.commands["tictactoe"]["id"] == synced[0]["id"]
            assert await put(http, url, []) == (200, [])
            assert await get(http, url) == [] and fake.entry_point is None
    finally:
        await fake.close()


async def test_the_entry_point_command_and_the_activity_launched() -> None:
    """An Entry Point command the app handles arrives as an application command of type 4;
    launching the Activity answers it (204 without ``with_response``, else the instance); one
    Discord handles itself launches with no interaction at all."""
    fake = FakeDiscord()
    guild = fake.create_guild("club")
    games = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    entry = fake.enable_activities(handler=APP_HANDLER)
    await fake.start()
    try:
        sent: list[Any] = []
        fake._links[0] = [_Sink(sent), 0]  # no bot: the frames are kept here
        iid = await fake.launch(alice, games)
        assert iid is not None
        data = sent[-1]["d"]["data"]
        assert data == {"id": entry["id"], "name": "launch", "type": 4}
        token = fake.interactions[iid].token
        callback = f"{fake.api_base}/interactions/{iid}/{token}/callback"
        async with aiohttp.ClientSession() as http, http.post(callback, json=LAUNCH) as answer:
            assert answer.status == 204
        (launched,) = fake.launches
        assert (launched.user_id, launched.channel_id, launched.interaction_id) == (
            alice.id,
            games.id,
            iid,
        )
        assert fake.timings[iid].ack_type == 12
        other = await fake.emit("slash", alice, games, 2, {"name": "x", "type": 1})
        token = fake.interactions[other].token
        callback = f"{fake.api_base}/interactions/{other}/{token}/callback?with_response=true"
        async with aiohttp.ClientSession() as http, http.post(callback, json=LAUNCH) as answer:
            body = await answer.json()
        instance = fake.launches[-1].instance_id
        assert body["resource"] == {"type": 12, "activity_instance": {"id": instance}}
        assert body["interaction"]["activity_instance_id"] == instance
        fake.global_commands[int(entry["id"])]["handler"] = DISCORD_LAUNCH_ACTIVITY
        before = len(sent)
        assert await fake.launch(alice, games) is None
        assert len(sent) == before and fake.launches[-1].interaction_id is None
    finally:
        await fake.close()


class _Sink:
    """A gateway link that keeps the frames it is sent."""

    def __init__(self, sent: list[Any]) -> None:
        self.sent = sent

    async def send_str(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self) -> None:
        return None
