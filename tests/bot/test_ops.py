"""/healthz and /metrics on the local port: health that says what is wrong, and metrics that
move with what the bot does (live games, storage errors, interactions answered and timed)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from simcord import Env

from bot.config import Settings, load_settings, version
from bot.metrics import Metrics
from devkit.postgres import PgServer
from devkit.simcord_board import board_message, guild_with
from tests.bot.storage_support import locked


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings with the health and metrics port on (0: any free port)."""
    return Settings(
        token="simulated.bot.token",
        database_path=tmp_path / "data" / "tictactoe.db",
        engine_workers=1,
        metrics_port=0,
    )


async def get(env: Env, path: str) -> tuple[int, str]:
    """GET a path of the bot's ops server; status and body."""
    port = env.bot.get_cog("Ops").port
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def metric(text: str, name: str) -> float:
    """The value of one sample in the Prometheus text."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"{name} not in metrics")


def test_metrics_port_setting() -> None:
    """METRICS_PORT turns the server on (127.0.0.1 unless METRICS_HOST); empty: off."""
    env = {"DISCORD_TOKEN": "a.b.c", "METRICS_PORT": "9108"}
    s = load_settings(env)
    assert (s.metrics_port, s.metrics_host) == (9108, "127.0.0.1")
    assert load_settings({"DISCORD_TOKEN": "a.b.c"}).metrics_port is None


async def test_healthy_bot_and_its_metrics(simcord_env: Env, settings: Settings) -> None:
    """A connected bot with a working database is healthy; a game started shows as live, a move
    refused by a locked database counts as a storage error, and saves of that game after it as
    retries (failed or saved)."""
    assert await get(simcord_env, "/healthz") == (200, f'{{"ok": true, "version": "{version()}"}}')
    assert version() == "1.0.0"  # the installed package's, as pyproject.toml says
    _, channel, (alice, bob) = guild_with(simcord_env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    status, text = await get(simcord_env, "/metrics")
    assert status == 200 and metric(text, "tictactoe_live_games") == 1
    assert metric(text, "tictactoe_engine_queue") == 0
    assert 'tictactoe_storage_errors_total{operation="save_game"}' not in text
    with locked(settings.database_path):
        result = await alice.click(message, custom_id="ttt:1:4")
    assert result.ephemeral
    _, text = await get(simcord_env, "/metrics")
    assert metric(text, 'tictactoe_storage_errors_total{operation="save_game"}') == 1
    assert "tictactoe_shard_latency_seconds" in text and "tictactoe_ack_seconds_bucket" in text
    with locked(settings.database_path):  # the same move, tried again: a retry that fails
        assert (await alice.click(message, custom_id="ttt:1:4")).ephemeral
    assert not (await alice.click(message, custom_id="ttt:1:4")).ephemeral  # and one saved
    _, text = await get(simcord_env, "/metrics")
    assert metric(text, 'tictactoe_save_retries_total{outcome="failed"}') == 1
    assert metric(text, 'tictactoe_save_retries_total{outcome="saved"}') == 1
    assert metric(text, 'tictactoe_storage_errors_total{operation="save_game"}') == 2


async def test_database_down_is_unhealthy(postgres_server: PgServer, postgres_url: str) -> None:
    """With its PostgreSQL server stopped the bot answers 503 and says why; then 200 again."""
    import simcord

    from bot.assembly import create_bot

    bot = create_bot(
        Settings(token="simulated.bot.token", database_url=postgres_url, metrics_port=0)
    )
    try:
        async with simcord.run(bot, check_errors=False) as env:
            postgres_server.stop("immediate")
            try:
                status, body = await get(env, "/healthz")
            finally:
                postgres_server.start()
            assert status == 503 and '"ok": false' in body and "cannot be reached" in body
            assert (await get(env, "/healthz"))[0] == 200
    finally:
        await bot.release()


async def test_responses_to_interactions_are_counted_and_timed() -> None:
    """The trace on discord.py's HTTP session counts each interaction callback and times it from
    the interaction's creation (the time in its id); other requests are not counted."""
    metrics = Metrics()
    app = web.Application()

    async def ok(_: web.Request) -> web.Response:
        return web.json_response({})

    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", ok)
    app.router.add_patch("/api/v10/channels/{id}/messages/{m}", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server: Any = site._server
    base = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/api/v10"
    sent = int((time.time() - 1_420_070_400 - 0.2) * 1000) << 22  # created 200 ms ago
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace()]) as session:
            for path in (f"/interactions/{sent}/tok/callback", "/channels/1/messages/2"):
                method = session.post if "callback" in path else session.patch
                async with method(base + path, json={}) as response:
                    assert response.status == 200
    finally:
        await runner.cleanup()
    text = metrics.render().decode()
    assert metric(text, "tictactoe_interactions_answered_total") == 1
    assert metric(text, "tictactoe_ack_seconds_count") == 1
    assert 0.2 <= metric(text, "tictactoe_ack_seconds_sum") < 3
    assert metric(text, 'tictactoe_ack_seconds_bucket{le="0.1"}') == 0
