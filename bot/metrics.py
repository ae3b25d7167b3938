"""What an operator watches in one bot process: Prometheus metrics, kept in a registry of the
process's own and served with ``/healthz`` by the ops extension on a local port (METRICS_PORT).

Acknowledgement latency is timed on discord.py's own HTTP session (an aiohttp trace): from the
interaction's creation, read from its id as Discord stamps it, to the end of the bot's first
response to it, the span Discord's 3 s limit counts.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.games.record import GameRecord
from bot.games.settings import ServerSettings
from bot.games.stats import LeaderboardRow, PlayerStats
from bot.storage.base import StorageError, Store
from bot.storage.watched_history import WatchedHistory
from bot.storage.watched_puzzles import WatchedPuzzles
from bot.storage.watched_tournaments import WatchedTournaments

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
DISCORD_EPOCH = 1_420_070_400  # seconds: the time 0 of Discord's ids
ACK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)


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


class WatchedStore(WatchedPuzzles, WatchedTournaments, WatchedHistory):
    """A Store that counts its failures in the metrics, then raises them as they were."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        self.inner = store
        self._errors = metrics.storage_errors
        self._retries = metrics.save_retries
        self._failed: set[int] = set()  # games whose last save failed

    async def _watch(self, name: str, call: Callable[[], Any]) -> Any:
        try:
            return await call()
        except StorageError:
            self._errors.labels(name).inc()
            raise

    async def open(self) -> None:
        """Open the store (failures counted)."""
        await self._watch("open", self.inner.open)

    async def close(self) -> None:
        """Close the store."""
        await self.inner.close()

    async def next_game_id(self) -> int:
        """A fresh game id."""
        return int(await self._watch("next_game_id", self.inner.next_game_id))

    async def save_game(self, game: GameRecord) -> None:
        """Save the game; a save after a failed one counts as a retry, saved or failed."""
        retried = game.id in self._failed
        try:
            await self._watch("save_game", lambda: self.inner.save_game(game))
        except StorageError:
            self._failed.add(game.id)
            if retried:
                self._retries.labels("failed").inc()
            raise
        self._failed.discard(game.id)
        if retried:
            self._retries.labels("saved").inc()

    async def load_game(self, game_id: int) -> GameRecord | None:
        """The stored game, or None."""
        result: GameRecord | None = await self._watch(
            "load_game", lambda: self.inner.load_game(game_id)
        )
        return result

    async def live_games(self) -> list[GameRecord]:
        """Every live game."""
        result: list[GameRecord] = await self._watch("live_games", self.inner.live_games)
        return result

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "classic"
    ) -> PlayerStats:
        """A player's record."""
        result: PlayerStats = await self._watch(
            "player_stats", lambda: self.inner.player_stats(guild_id, user_id, kind)
        )
        return result

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 10, kind: str = "classic"
    ) -> list[LeaderboardRow]:
        """A server's leaderboard."""
        result: list[LeaderboardRow] = await self._watch(
            "leaderboard", lambda: self.inner.leaderboard(guild_id, limit=limit, kind=kind)
        )
        return result

    async def server_settings(self) -> dict[int, ServerSettings]:
        """Every server's own settings."""
        result: dict[int, ServerSettings] = await self._watch(
            "server_settings", self.inner.server_settings
        )
        return result

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        """Replace a server's settings."""
        await self._watch(
            "save_server_settings", lambda: self.inner.save_server_settings(guild_id, settings)
        )
