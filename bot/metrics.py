"""What an operator watches in one bot process: Prometheus metrics, kept in a registry of the
process's own and served with ``/healthz`` by the ops extension on a local port (METRICS_PORT).

Acknowledgement latency is timed on discord.py's own HTTP session (an aiohttp trace): from the
interaction's creation, read from its id as Discord stamps it, to the end of the bot's first
response to it, the span Discord's 3 s limit counts.
"""

from __future__ import annotations

import re
import time
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
DISCORD_EPOCH = 1_420_070_400  # seconds: the time 0 of Discord's ids
ACK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
STORAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)


def created(interaction_id: int) -> float:
    """When Discord created the interaction (UNIX seconds), from its id."""
    return DISCORD_EPOCH + (interaction_id >> 22) / 1000


class Metrics:
    """The metrics of one bot process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.answered = Counter(
            "tictactoe_interactions_answered", "Interactions given their first response", registry=r
        )
        self.ack = Histogram(
            "tictactoe_ack_seconds",
            "From an interaction's creation to the end of its first response",
            buckets=ACK_BUCKETS,
            registry=r,
        )
        self.storage_errors = Counter(
            "tictactoe_storage_errors", "Storage calls that failed", ["operation"], registry=r
        )
        self.storage_seconds = Histogram(
            "tictactoe_storage_seconds",
            "Storage calls' time, from the call to its answer",
            ["operation"],
            buckets=STORAGE_BUCKETS,
            registry=r,
        )
        self.save_retries = Counter(
            "tictactoe_save_retries",
            "Saves of a game whose last save failed (the bot trying its own change again, or a "
            "player clicking again)",
            ["outcome"],
            registry=r,
        )
        self.live_games = Gauge("tictactoe_live_games", "Live games in this process", registry=r)
        self.engine_queue = Gauge(
            "tictactoe_engine_queue", "Engine calls queued or running", registry=r
        )
        self.shard_latency = Gauge(
            "tictactoe_shard_latency_seconds",
            "Gateway heartbeat latency per shard",
            ["shard"],
            registry=r,
        )

    def trace(self) -> aiohttp.TraceConfig:
        """A trace for discord.py's HTTP session that times every interaction's response."""
        config = aiohttp.TraceConfig()

        async def ended(_: Any, __: Any, params: aiohttp.TraceRequestEndParams) -> None:
            found = CALLBACK.search(params.url.path)
            if found is None or params.response.status >= 400:
                return
            self.answered.inc()
            self.ack.observe(max(0.0, time.time() - created(int(found.group(1)))))

        config.on_request_end.append(ended)
        return config

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class StoreWatch:
    """What the metrics learn of the store's calls (``bot.storage.base.Watch``): each call's
    time and failures by name, and the saves of a game whose last save failed, as retries."""

    def __init__(self, metrics: Metrics) -> None:
        self._errors = metrics.storage_errors
        self._seconds = metrics.storage_seconds
        self._retries = metrics.save_retries
        self._failed: set[int] = set()  # games whose last save failed

    def called(self, name: str, seconds: float, failed: bool) -> None:
        self._seconds.labels(name).observe(seconds)
        if failed:
            self._errors.labels(name).inc()

    def saved(self, game_id: int, failed: bool) -> None:
        """A retry is labelled with how it ended, saved or failed."""
        retried = game_id in self._failed
        if failed:
            self._failed.add(game_id)
        else:
            self._failed.discard(game_id)
        if retried:
            self._retries.labels("failed" if failed else "saved").inc()
