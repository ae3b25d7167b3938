"""The Activity's built page and the simulated Discord frame around it, served from one origin.

The Embedded App SDK takes messages only from Discord's origins and from the page's own origin,
so the frame (``/_discord/frame``) and the page (``/``, as Discord's proxy maps an Activity's
root) are served by the same server. ``FrameSetup`` is what the simulated Discord says; the
route that exchanges Discord's code for a token (``/api/activity/token``) is the caller's, as
the bot's server will own it. ``serve`` runs it all in a thread of its own, for tests that drive
a browser with Playwright's synchronous API.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlencode

from aiohttp import web

from bot.activity.page import index_html, static

HERE = Path(__file__).resolve().parent
TOKEN_PATH = "/api/activity/token"
FRAME_PATH = "/_discord/frame"
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "licenses.txt": "text/plain"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class FrameSetup:
    """What the simulated Discord says: the application, the user, where the Activity runs, the
    code AUTHORIZE gives and the access token AUTHENTICATE accepts (``authorize="deny"``: the
    user declines)."""

    client_id: str = "1000000000000000001"
    frame_id: str = "frame-1"
    instance_id: str = "i-1234-gc-1000000000000000002-1000000000000000003"
    platform: str = "desktop"
    guild_id: str = "1000000000000000002"
    channel_id: str = "1000000000000000003"
    user_id: str = "1000000000000000004"
    username: str = "alice"
    global_name: str = "Alice"
    code: str = "code-1"
    access_token: str = "token-1"
    authorize: str = "allow"
    activity: str = "/"

    def path(self) -> str:
        """The frame's address on the server (its setup in its query)."""
        return f"{FRAME_PATH}?{urlencode(asdict(self))}"


def frame_app(*, client_id: str, token: Handler) -> web.Application:
    """The Activity's page naming ``client_id``, its files, the frame, and ``token`` as the route
    the page posts Discord's code to."""
    page = index_html(client_id)
    built = static()

    async def index(_: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html")

    async def asset(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        body = built.joinpath(name).read_bytes()
        return web.Response(body=body, content_type=STATIC[name], charset="utf-8")

    async def exchange(request: web.Request) -> web.StreamResponse:
        return await token(request)

    async def frame(_: web.Request) -> web.FileResponse:
        return web.FileResponse(HERE / "frame.html")

    async def frame_js(_: web.Request) -> web.Response:
        text = (HERE / "frame.js").read_text(encoding="utf-8")
        return web.Response(text=text, content_type="text/javascript")

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/{name}", asset)
    app.router.add_get(FRAME_PATH, frame)
    app.router.add_get("/_discord/frame.js", frame_js)
    app.router.add_post(TOKEN_PATH, exchange)
    return app


@contextmanager
def serve(app: web.Application) -> Iterator[str]:
    """``app`` served on 127.0.0.1 (a free port) from a thread with its own event loop, for as
    long as the ``with`` block lasts; its address."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="activity-frame", daemon=True)
    runner = web.AppRunner(app, access_log=None)

    async def start() -> str:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        host, port = runner.addresses[0][:2]
        return f"http://{host}:{port}"

    thread.start()
    try:
        yield asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()
