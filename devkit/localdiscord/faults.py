"""Faults the local Discord can inject, as Discord itself shows them to a bot: bursts of 5xx
and 429 answers on the REST routes (or connections cut with no answer at all: `CUT`), a gateway
connection dropped (resumable, or with the session invalidated), interaction callbacks
refused once Discord's 3 seconds have passed, and a crash of the bot at a chosen request
(`Trap`: before Discord does what it asks, while Discord does it, so that its answer never
reaches the bot, or a little after the answer).

Each is off until asked for: the tests and benchmarks that do not ask see the Discord they
always saw.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from devkit.localdiscord.model import now

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
RETRY_AFTER = 0.5  # seconds a fault's 429 asks the bot to wait
CUT = 0  # a fault's "status" that closes the connection instead of answering (a network cut)
# The routes a fault may hit alone, by name: (method, what the path looks like under /api/v10):
# those a click uses, and a thread's creation.
ROUTES = {
    "answer": ("POST", re.compile(r"/interactions/\d+/[^/]+/callback$")),
    "follow-up": ("POST", re.compile(r"/webhooks/\d+/[^/]+$")),
    "webhook edit": ("PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/[^/]+$")),
    "channel edit": ("PATCH", re.compile(r"/channels/\d+/messages/\d+$")),
    "thread create": ("POST", re.compile(r"/channels/\d+/(messages/\d+/)?threads$")),
    "channel post": ("POST", re.compile(r"/channels/\d+/messages$")),
    "thread edit": ("PATCH", re.compile(r"/channels/\d+$")),
}


CHANNEL_PATH = re.compile(r"/channels/(?P<channel>\d+)")
BEFORE, DURING, AFTER = "before", "during", "after"


@dataclass
class Trap:
    """A crash at the `nth` request of a route (a name of ``ROUTES``) whose channel `where`
    accepts (0 for a route of no channel's: an interaction's): `spring` (the bot's SIGKILL) is
    called `when`: ``before`` Discord does anything (the request is cut unanswered), ``during``
    (Discord does it; the answer never leaves), or ``after`` the answer, `delay` seconds later.
    Sprung once; `sprung` is set then."""

    route: str
    when: Literal["before", "during", "after"]
    spring: Callable[[], None]
    nth: int = 1
    where: Callable[[int], bool] = lambda channel: True
    delay: float = 0.0
    seen: int = 0
    sprung: asyncio.Event = field(default_factory=asyncio.Event)

    def matches(self, request: web.Request) -> bool:
        """Whether `request` is the one to spring at (counting those of its route)."""
        method, pattern = ROUTES[self.route]
        path = request.path.removeprefix("/api/v10")
        if self.sprung.is_set() or request.method != method or not pattern.match(path):
            return False
        channel = CHANNEL_PATH.match(path)  # none in an interaction's routes: 0
        if not self.where(0 if channel is None else int(channel["channel"])):
            return False
        self.seen += 1
        return self.seen == self.nth


INTERACTION_PATH = re.compile(r"/interactions/(?P<iid>\d+)/|/webhooks/\d+/(?P<token>[^/]+)")


class Faults:
    """The faults half of ``FakeDiscord``."""

    _links: dict[int, list[Any]]
    # (until, status): REST requests are answered `status` until then (perf_counter seconds).
    rest_fault: tuple[float, int] | None
    # route name (``ROUTES``) -> (until, status): that route's requests alone, likewise.
    route_faults: dict[str, tuple[float, int]]
    # Seconds after which an interaction's first response is refused (10062), as Discord
    # refuses one after 3 s; None: never.
    callback_deadline: float | None
    injected: collections.Counter[str]  # what was injected, by kind
    traps: list[Trap]  # crashes to come, at chosen requests
    rest_share: float  # the share of requests `rest_fault` fails
    faulted: set[int]  # interactions a request about failed (its answer, follow-up or edit)
    interactions: dict[int, Any]

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None: ...

    def fail_rest(self, seconds: float, status: int, *, share: float = 1.0) -> None:
        """Answer REST requests `status` (a 5xx or 429) for `seconds`: every one, or a `share`
        of them picked at random (Discord in an incident fails some calls, not all)."""
        self.rest_fault = (now() + seconds, status)
        self.rest_share = share

    def fail_route(self, route: str, seconds: float, status: int) -> None:
        """Answer `status` (a 5xx or 429, or `CUT`) to the requests of one route (a name of
        ``ROUTES``: the answer, the follow-up, the webhook edit, the channel edit, a thread's
        creation, a message posted in a channel, a thread's edit) for `seconds`; the other routes
        answer as usual."""
        assert route in ROUTES, route
        self.route_faults[route] = (now() + seconds, status)

    def _fault_for(self, request: web.Request) -> tuple[float, int] | None:
        """The fault in force for this request, if any."""
        if not request.path.startswith("/api/"):
            return None
        if self.rest_fault is not None and now() < self.rest_fault[0]:
            return self.rest_fault if random.random() < self.rest_share else None
        path = request.path.removeprefix("/api/v10")
        for name, (until, status) in self.route_faults.items():
            method, pattern = ROUTES[name]
            if now() < until and request.method == method and pattern.match(path):
                return until, status
        return None

    def trap(self, trap: Trap) -> Trap:
        """Set `trap` (sprung once, at its request)."""
        self.traps.append(trap)
        return trap

    async def _sprung(self, request: web.Request, handler: Handler) -> web.StreamResponse | None:
        """The request's answer where a trap springs at it (None: no trap does)."""
        trap = next((t for t in self.traps if t.matches(request)), None)
        if trap is None:
            return None
        self.traps.remove(trap)
        self.injected[f"kill {trap.when}"] += 1
        if trap.when == AFTER:
            answer = await handler(request)
            asyncio.get_running_loop().call_later(trap.delay, self._spring, trap)
            return answer
        if trap.when == DURING:
            await handler(request)  # done on Discord's side: the bot never hears of it
        else:
            await request.read()
        self._spring(trap)
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=500)  # never sent: the connection is gone

    @staticmethod
    def _spring(trap: Trap) -> None:
        trap.spring()
        trap.sprung.set()

    @web.middleware
    async def faulty(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The REST fault in force, if any, instead of the route's answer; a trap's crash."""
        if self.traps:
            sprung = await self._sprung(request, handler)
            if sprung is not None:
                return sprung
        fault = self._fault_for(request)
        if fault is None:
            return await handler(request)
        status = fault[1]
        self.injected["cut" if status == CUT else f"http {status}"] += 1
        self._note_fault(request)
        if status == CUT:
            await request.read()  # all of it, so the close is a clean one (no reset)
            assert request.transport is not None
            request.transport.abort()  # the bot's aiohttp: ServerDisconnectedError
            return web.Response(status=500)  # never sent: the connection is gone
        if status != 429:
            return web.Response(status=status, text="upstream connect error")
        body = {"message": "You are being rate limited.", "retry_after": RETRY_AFTER}
        headers = {
            "Retry-After": f"{RETRY_AFTER:.3f}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{RETRY_AFTER:.3f}",
            "X-RateLimit-Bucket": "fault",
            "X-RateLimit-Scope": "shared",
            "Via": "1.1 google",  # Discord's API answers through it; a 429 without is a ban
        }
        body["global"] = False
        return web.Response(
            status=429,
            body=json.dumps(body).encode(),
            content_type="application/json",
            headers=headers,
        )

    def _note_fault(self, request: web.Request) -> None:
        """Remember the interaction a failed request was about (its answer, follow-up or edit)."""
        match = INTERACTION_PATH.search(request.path)
        if match is None:
            return
        if match["iid"]:
            self.faulted.add(int(match["iid"]))
        else:
            found = [i.id for i in self.interactions.values() if i.token == match["token"]]
            self.faulted.update(found)

    def too_late(self, emitted: float) -> bool:
        """Whether a first response to an interaction emitted at `emitted` comes too late."""
        late = self.callback_deadline is not None and now() - emitted > self.callback_deadline
        if late:
            self.injected["callback too late"] += 1
        return late

    async def drop(self, shard: int, *, resume: bool) -> bool:
        """Drop a shard's gateway connection: closed with 4000 (the bot resumes), or its session
        invalidated (op 9, the bot identifies anew). False if the shard was not connected."""
        link = self._links.get(shard)
        if link is None:
            return False
        ws = link[0]
        if resume:
            await ws.close(code=4000, message=b"dropped")
        else:
            await self._send(ws, json.dumps({"op": 9, "d": False}))
        return True
