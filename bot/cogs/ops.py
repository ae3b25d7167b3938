"""/healthz and Prometheus /metrics on a local port (METRICS_PORT), for whoever runs the bot.

``/healthz`` answers 200 when the bot is connected to Discord and its database answers, else 503;
the body says which part is missing, in one JSON line. ``/metrics`` is the Prometheus text:
live games, interactions answered and their acknowledgement latency, engine queue, storage
errors, and each shard's gateway latency (read when scraped).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web
from discord.ext import commands

from bot.config import version
from bot.storage.base import StorageError

if TYPE_CHECKING:
    from bot.client import TicTacToeBot
    from bot.metrics import Metrics

log = logging.getLogger(__name__)
PROBE = 1.0  # seconds the database has to answer a health check


class Ops(commands.Cog):
    """Serves /healthz and /metrics while the extension is loaded."""

    def __init__(self, bot: TicTacToeBot, metrics: Metrics) -> None:
        self.bot = bot
        self.metrics = metrics
        self._runner: web.AppRunner | None = None
        self.port = 0  # the port bound (METRICS_PORT 0 picks a free one)

    async def cog_load(self) -> None:
        """Start the HTTP server on the configured address."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.serve_metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        settings = self.bot.settings
        site = web.TCPSite(self._runner, settings.metrics_host, settings.metrics_port)
        await site.start()
        server: Any = (
            site._server
        )  # aiohttp keeps the asyncio server here; its socket tells the port
        sockets = server.sockets if server is not None else ()
        self.port = int(sockets[0].getsockname()[1]) if sockets else int(settings.metrics_port or 0)
        log.info("health and metrics on http://%s:%d/", settings.metrics_host, self.port)

    async def cog_unload(self) -> None:
        """Stop the HTTP server."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, _: web.Request) -> web.Response:
        """200 when connected and the database answers; 503 saying what is wrong otherwise."""
        problems: dict[str, str] = {}
        if not self.bot.is_ready() or self.bot.is_closed():
            problems["discord"] = "not connected"
        try:
            await asyncio.wait_for(self.bot.store.load_game(0), timeout=PROBE)
        except (StorageError, TimeoutError) as exc:
            problems["storage"] = str(exc) or f"no answer within {PROBE:g} s"
        body: dict[str, Any] = {"ok": not problems, "version": version(), **problems}
        return web.Response(
            status=503 if problems else 200, text=json.dumps(body), content_type="application/json"
        )

    async def serve_metrics(self, _: web.Request) -> web.Response:
        """The Prometheus text, with the gauges read now."""
        m = self.metrics
        watch: Any = self.bot.get_cog("BoardWatch")
        m.live_games.set(len(watch.live.games.live()) if watch is not None else 0)
        m.engine_queue.set(self.bot.engine.pending)
        latencies = getattr(self.bot, "latencies", None) or [(0, self.bot.latency)]
        for shard, latency in latencies:
            if latency == latency and latency != float("inf"):  # skip NaN/inf before the first beat
                m.shard_latency.labels(str(shard)).set(latency)
        return web.Response(body=m.render(), content_type="text/plain", charset="utf-8")


async def setup(bot: TicTacToeBot) -> None:
    """Add the ops cog (``load_extension("bot.cogs.ops")``) when the bot has metrics."""
    if bot.metrics is not None:
        await bot.add_cog(Ops(bot, bot.metrics))
