"""What the chaos soak leans on in the local Discord: a resumed session gets the events its
shard missed (named by its session id, which is how a shard's resume is told from another's),
an unknown session is invalidated, a first response after 3 s is refused with 10062, and a REST
fault answers every route until it passes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from devkit.localdiscord import FakeDiscord


async def frames(ws: aiohttp.ClientWebSocketResponse, until: str) -> list[dict[str, Any]]:
    """The gateway's frames up to the event (or op, as "op N") named `until`."""
    seen = []
    while True:
        frame = json.loads((await asyncio.wait_for(ws.receive(), 5.0)).data)
        seen.append(frame)
        if frame.get("t") == until or f"op {frame['op']}" == until:
            return seen


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int:
    """The close code the server ends a connection with (frames before it skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 5.0)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return int(message.data)


async def events(ws: aiohttp.ClientWebSocketResponse) -> list[str]:
    """The events a connection receives in the next 0.2 s."""
    names = []
    while True:
        try:
            message = await asyncio.wait_for(ws.receive(), 0.2)
        except TimeoutError:
            return names
        names.append(json.loads(message.data).get("t"))


async def identify(http: aiohttp.ClientSession, fake: FakeDiscord, shard: int) -> Any:
    ws = await http.ws_connect(fake.gateway_url)
    await frames(ws, "op 10")  # HELLO
    await ws.send_json({"op": 2, "d": {"shard": [shard, 2], "intents": 0}})
    ready = (await frames(ws, "READY"))[-1]
    return ws, ready["d"]["session_id"]


async def test_a_resume_gets_what_its_shard_missed_and_nothing_else() -> None:
    """Shard 1 drops; an interaction for its server is kept; its RESUME (which names no shard,
    as discord.py sends it) gets it before RESUMED, and shard 0 never sees it. A session that
    is not known is invalidated (op 9)."""
    fake = FakeDiscord()
    fake.shard_count, fake.replay = 2, True
    zero, one = fake.create_guild("zero"), fake.create_guild("one")
    channel = one.create_text_channel("games")
    alice = one.add_member(fake.create_user("alice"))
    assert (fake.shard_of(zero.id), fake.shard_of(one.id)) == (0, 1)
    await fake.start()
    try:
        async with aiohttp.ClientSession() as http:
            ws0, _ = await identify(http, fake, 0)
            ws1, session = await identify(http, fake, 1)
            assert await fake.drop(1, resume=True)
            assert await closed_with(ws1) == 4000  # resumable

            await asyncio.sleep(0.05)
            iid = await fake.emit("slash", alice, channel, 2, {"name": "x", "type": 1})

            again = await http.ws_connect(fake.gateway_url)
            await frames(again, "op 10")
            await again.send_json({"op": 6, "d": {"session_id": session, "seq": 0}})
            replayed = await frames(again, "RESUMED")
            assert [f["t"] for f in replayed if f.get("t") != "GUILD_CREATE"][-2:] == [
                "INTERACTION_CREATE",
                "RESUMED",
            ]
            assert replayed[-2]["d"]["id"] == str(iid)
            assert "INTERACTION_CREATE" not in await events(ws0)

            stranger = await http.ws_connect(fake.gateway_url)
            await frames(stranger, "op 10")
            await stranger.send_json({"op": 6, "d": {"session_id": "nobody", "seq": 0}})
            assert (await frames(stranger, "op 9"))[-1]["d"] is False
            for ws in (ws0, again, stranger):
                await ws.close()
    finally:
        await fake.close()


async def test_late_callbacks_and_rest_faults_are_refused_as_discord_does() -> None:
    """With the 3 s rule on, a first response after it gets 404 10062; a REST fault answers its
    status to every route until it passes."""
    fake = FakeDiscord()
    fake.replay, fake.callback_deadline = True, 0.2
    guild = fake.create_guild("g")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    await fake.start()
    try:
        iid = await fake.emit("slash", alice, channel, 2, {"name": "x", "type": 1})
        token = fake.interactions[iid].token
        async with aiohttp.ClientSession() as http:
            fake.fail_rest(0.3, 503)
            async with http.get(f"{fake.api_base}/users/@me") as answer:
                assert answer.status == 503
            await asyncio.sleep(0.35)
            async with http.get(f"{fake.api_base}/users/@me") as answer:
                assert answer.status == 200
            callback = f"{fake.api_base}/interactions/{iid}/{token}/callback"
            async with http.post(callback, json={"type": 6}) as answer:
                assert answer.status == 404 and (await answer.json())["code"] == 10062
        assert fake.injected == {"http 503": 1, "callback too late": 1}
    finally:
        await fake.close()


async def test_a_route_fault_answers_that_route_alone_and_names_the_interaction() -> None:
    """A fault on the answer route fails callbacks only, and notes the interaction it was about;
    a fault on a share of the requests fails some and lets others through."""
    fake = FakeDiscord()
    await fake.start()
    try:
        iid, token = 1234, "tok1234"  # the fault answers before the route looks anything up
        async with aiohttp.ClientSession() as http:
            fake.fail_route("answer", 5.0, 502)
            async with http.get(f"{fake.api_base}/users/@me") as answer:
                assert answer.status == 200
            callback = f"{fake.api_base}/interactions/{iid}/{token}/callback"
            async with http.post(callback, json={"type": 6}) as answer:
                assert answer.status == 502
            assert fake.faulted == {iid}
            fake.route_faults.clear()
            fake.fail_rest(5.0, 503, share=0.5)
            statuses = []
            for _ in range(60):
                async with http.get(f"{fake.api_base}/users/@me") as answer:
                    statuses.append(answer.status)
            assert 0 < statuses.count(503) < 60 and statuses.count(200) == 60 - statuses.count(503)
    finally:
        await fake.close()
