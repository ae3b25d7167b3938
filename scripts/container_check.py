"""The compose topology run for real: PostgreSQL and two shard containers, a local Discord.

    python scripts/container_check.py --engine podman --image IMAGE --postgres-image IMAGE

Run by scripts/check_container.sh once the images exist. It starts the local Discord of the
tests (devkit/localdiscord) on 127.0.0.1 with two shards, writes the project's
compose.yaml with the check's override applied (its images, host networking so the containers
reach the local Discord, the bots pointed at it through devkit/local_bot.py, a test token,
free ports), starts it, plays a game in a server of each shard, kills shard 1's container with
SIGKILL and starts it again, reads /healthz and /metrics of both shards, and takes everything
down. One line per step; exit 1 at the first step that fails, with the reason.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from devkit.localdiscord import TOKEN, FakeDiscord  # noqa: E402
from devkit.measure.boards import Board  # noqa: E402
from devkit.measure.scenario import Game  # noqa: E402
from devkit.wire.client import WireDriver  # noqa: E402

PROJECT = "tictactoe-check"
PATIENCE = 120.0  # seconds for a container to start and its bot to connect
SHARDS = ("shard0", "shard1")


class CheckFailed(RuntimeError):
    """A step of the check did not do what it should; the message says what."""


def step(text: str) -> None:
    print(f"check: {text}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_override(
    base: dict[str, Any],
    *,
    discord_port: int,
    pg_port: int,
    metrics: list[int],
    image: str,
    pg_image: str,
) -> dict[str, Any]:
    """compose.yaml as users run it, with what only the check needs changed."""
    services = base["services"]
    pg = services["postgres"]
    pg.update(image=pg_image, network_mode="host", restart="no")
    pg["environment"]["PGPORT"] = str(pg_port)
    pg["healthcheck"]["test"] = [
        "CMD",
        "pg_isready",
        "-h",
        "127.0.0.1",
        "-p",
        str(pg_port),
        "-U",
        "tictactoe",
        "-d",
        "tictactoe",
    ]
    for name, port in zip(SHARDS, metrics, strict=True):
        bot = services[name]
        for key in ("build", "ports", "env_file"):
            bot.pop(key, None)
        bot.update(image=image, network_mode="host", restart="no")
        env = bot["environment"]
        env["DATABASE_URL"] = env["DATABASE_URL"].replace("@postgres:5432", f"@127.0.0.1:{pg_port}")
        env.update(METRICS_PORT=str(port), METRICS_HOST="127.0.0.1", DISCORD_TOKEN=TOKEN)
        bot["volumes"] = [f"{ROOT / 'devkit/local_bot.py'}:/check/local_bot.py:ro"]
        bot["command"] = ["python", "/check/local_bot.py", str(discord_port)]
    return base


class Topology:
    """The compose project: up, a service killed and started, down."""

    def __init__(self, engine: str, compose_file: Path) -> None:
        self.engine = engine
        self.file = compose_file

    def compose(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = (
            [
                str(Path(sys.executable).with_name("podman-compose")),
                "-p",
                PROJECT,
                "-f",
                str(self.file),
                *args,
            ]
            if self.engine == "podman"
            else ["docker", "compose", "-p", PROJECT, "-f", str(self.file), *args]
        )
        return subprocess.run(command, capture_output=True, text=True, timeout=600)

    def container(self, service: str) -> str:
        return f"{PROJECT}_{service}_1" if self.engine == "podman" else f"{PROJECT}-{service}-1"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.engine, *args], capture_output=True, text=True, timeout=120)


def http(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


async def eventually(what: str, ok: Any, patience: float = PATIENCE) -> None:
    give_up = time.monotonic() + patience
    while not ok():
        if time.monotonic() > give_up:
            raise CheckFailed(f"{what} not within {patience:g} s")
        await asyncio.sleep(0.2)


async def play(driver: WireDriver, game: Game, board: Board, rng: random.Random) -> Board:
    """The game's next click, answered; the board after it."""
    ready = await driver.click(game, board, rng)
    if ready is None:
        raise CheckFailed(f"no click to make in game {game.game_id}")
    after = await driver.answered(game, ready, timeout=30)
    if after is None or game.stuck:
        raise CheckFailed(f"no answer in game {game.game_id}")
    return after


async def check(args: argparse.Namespace) -> dict[str, float]:
    rng = random.Random(7)
    fake = FakeDiscord()
    fake.shard_count = len(SHARDS)
    await fake.start()
    games = []
    for i, _ in enumerate(SHARDS):
        guild = fake.create_guild(f"server-{i}")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(fake.create_user(f"alice{i}"))
        bob = guild.add_member(fake.create_user(f"bob{i}"))
        games.append(Game(channel, alice, bob, 3, 3))
    metrics = [free_port(), free_port()]
    base = yaml.safe_load((ROOT / "compose.yaml").read_text())
    merged = with_override(
        base,
        discord_port=fake.port,
        pg_port=free_port(),
        metrics=metrics,
        image=args.image,
        pg_image=args.postgres_image,
    )
    folder = Path(tempfile.mkdtemp(prefix="tictactoe-check-"))
    compose_file = folder / "compose.yaml"
    compose_file.write_text(yaml.safe_dump(merged, sort_keys=False))
    topology = Topology(args.engine, compose_file)
    figures: dict[str, float] = {}
    try:
        # PostgreSQL first, until it answers: compose waits for its health check itself, but
        # podman-compose on podman before 4.6 cannot (it starts the bots at once).
        step("starting PostgreSQL (compose up postgres)")
        up = topology.compose("up", "-d", "postgres")
        if up.returncode != 0:
            raise CheckFailed(f"compose up failed: {(up.stderr or up.stdout)[-1500:]}")
        ready = [
            "exec",
            topology.container("postgres"),
            *merged["services"]["postgres"]["healthcheck"]["test"][1:],
        ]
        await eventually("PostgreSQL answering", lambda: topology.run(*ready).returncode == 0)
        step("starting both shards (compose up)")
        up = topology.compose("up", "-d")
        if up.returncode != 0:
            raise CheckFailed(f"compose up failed: {(up.stderr or up.stdout)[-1500:]}")
        await eventually("both shards connected", lambda: len(fake._links) == len(SHARDS))
        await eventually("the commands synced", fake.synced.is_set)
        step("both shards are connected to the local Discord")
        driver = WireDriver(fake, max_plies=9)
        boards = []
        for i, game in enumerate(games):
            board = await driver.opened(game, await driver.start(game))
            if board is None or not board.challenge:
                raise CheckFailed(f"no challenge on shard {i}'s board")
            board = await play(driver, game, board, rng)  # accepted
            board = await play(driver, game, board, rng)  # the first move
            boards.append(board)
            step(f"a game is played on shard {i} (challenge, accept, a move)")
        for i, port in enumerate(metrics):
            await eventually(f"shard {i}'s /healthz", lambda p=port: http(p, "/healthz")[0] == 200)
            status, text = http(port, "/metrics")
            if status != 200 or "tictactoe_live_games 1.0" not in text:
                raise CheckFailed(f"shard {i}'s /metrics: {status} {text[:300]}")
            step(f"shard {i}: /healthz 200, /metrics counts its live game")

        container = topology.container("shard1")
        killed_at = time.monotonic()
        kill = topology.run("kill", "--signal", "KILL", container)
        if kill.returncode != 0:
            raise CheckFailed(f"kill failed: {kill.stderr[-500:]}")
        step("shard 1's container killed (SIGKILL)")
        await eventually("shard 1 gone from the gateway", lambda: 1 not in fake._links, 30)
        boards[0] = await play(driver, games[0], boards[0], rng)
        step("shard 0 plays on meanwhile")
        start = topology.run("start", container)
        if start.returncode != 0:
            raise CheckFailed(f"start failed: {start.stderr[-500:]}")
        await eventually("shard 1 back on the gateway", lambda: 1 in fake._links)
        boards[1] = await play(driver, games[1], boards[1], rng)
        figures["kill_to_click_s"] = time.monotonic() - killed_at
        if boards[1].taken != 2:
            raise CheckFailed(f"shard 1's game shows {boards[1].taken} moves, not 2")
        step(
            f"shard 1 restarted; its game answered a click {figures['kill_to_click_s']:.1f} s "
            "after the kill, with the move made before it"
        )
        for i, port in enumerate(metrics):
            await eventually(f"shard {i}'s /healthz", lambda p=port: http(p, "/healthz")[0] == 200)
        step("both shards healthy again")
    finally:
        down = topology.compose("down", "--volumes")
        failed = f"compose down failed: {down.stderr[-300:]}"
        step("topology taken down" if down.returncode == 0 else failed)
        await fake.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("podman", "docker"), default="podman")
    parser.add_argument("--image", required=True)
    parser.add_argument("--postgres-image", required=True)
    args = parser.parse_args()
    try:
        figures = asyncio.run(check(args))
    except CheckFailed as failure:
        step(f"FAILED: {failure}")
        return 1
    print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
