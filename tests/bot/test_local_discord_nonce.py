"""What the crash tests lean on in the local Discord, as Discord does it: a message posted with
a nonce and ``enforce_nonce`` a second time by the same author answers the first message and
makes none (after the nonce's life, or without ``enforce_nonce``, a second message is made); a
channel's history, newest first, with no nonce in it; a server's member, or 10007."""

from __future__ import annotations

from typing import Any

import aiohttp

from devkit.localdiscord import FakeDiscord
from devkit.localdiscord.rest import NONCE_LIFE

HEADERS = {"Authorization": "Bot load.test.token"}


async def post(http: aiohttp.ClientSession, url: str, **body: Any) -> dict[str, Any]:
    async with http.post(url, json={"content": "hi", **body}, headers=HEADERS) as answer:
        assert answer.status == 200
        return dict(await answer.json())


async def test_a_second_post_with_the_same_nonce_answers_the_first_message() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild("club")
    games = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    await fake.start()
    url = f"{fake.api_base}/channels/{games.id}/messages"
    try:
        async with aiohttp.ClientSession() as http:
            first = await post(http, url, nonce="ttt-board-1", enforce_nonce=True)
            again = await post(http, url, nonce="ttt-board-1", enforce_nonce=True)
            assert again["id"] == first["id"] and first["nonce"] == "ttt-board-1"
            other = await post(http, url, nonce="ttt-board-2", enforce_nonce=True)
            unenforced = await post(http, url, nonce="ttt-board-1")
            assert len({first["id"], other["id"], unenforced["id"]}) == 3
            fake.advance(NONCE_LIFE + 1)
            late = await post(http, url, nonce="ttt-board-2", enforce_nonce=True)
            assert late["id"] != other["id"]
            assert len(fake.messages) == 4
            async with http.get(f"{url}?limit=3", headers=HEADERS) as answer:
                history = await answer.json()
            assert [m["id"] for m in history] == [late["id"], unenforced["id"], other["id"]]
            assert all("nonce" not in m for m in history)
            async with http.get(f"{url}?after={first['id']}&limit=1", headers=HEADERS) as answer:
                assert [m["id"] for m in await answer.json()] == [other["id"]]
            member = f"{fake.api_base}/guilds/{guild.id}/members"
            async with http.get(f"{member}/{alice.id}", headers=HEADERS) as answer:
                assert (await answer.json())["user"]["username"] == "alice"
            async with http.get(f"{member}/1234", headers=HEADERS) as answer:
                assert answer.status == 404 and (await answer.json())["code"] == 10007
    finally:
        await fake.close()
