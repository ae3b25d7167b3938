"""Playing against the real bot process (``python -m bot`` as a person runs it) through the
local Discord of ``devkit/localdiscord``: start it, stop or SIGKILL it, send commands and
clicks, wait for the answers, read the boards.

Every wait is on real time, bounded by ``WAIT``; the bot's log is kept in the test's folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from devkit.localdiscord import TOKEN, Channel, FakeDiscord, User
from devkit.localdiscord.model import EPHEMERAL, Interaction

ROOT = Path(__file__).resolve().parents[1]
WAIT = 30.0  # seconds (real time) for anything the bot does


async def until(check: Callable[[], Any], what: str, wait: float = WAIT) -> None:
    """Wait until `check()` is true; fail naming `what` after `wait` seconds."""
    give_up = time.monotonic() + wait
    while not check():
        assert time.monotonic() < give_up, f"gave up waiting: {what}"
        await asyncio.sleep(0.02)


def buttons(components: Any) -> Iterator[dict[str, Any]]:
    """Every button of a message's components, nested ones included."""
    for component in components or ():
        if component.get("type") == 2:
            yield component
        yield from buttons(component.get("components"))
        if component.get("accessory"):
            yield from buttons([component["accessory"]])


def texts(message: dict[str, Any]) -> str:
    """A message's words: its content and every text display of its layout."""
    found: list[str] = [message.get("content") or ""]

    def walk(components: Any) -> None:
        for component in components or ():
            if component.get("type") == 10:  # a text display
                found.append(component.get("content") or "")
            walk(component.get("components"))

    walk(message.get("components"))
    return "\n".join(found)


class LocalBot:
    """The bot in a process group of its own against `discord`, with a SQLite file in `folder`
    and the settings in `env`."""

    def __init__(self, discord: FakeDiscord, folder: Path, **env: str) -> None:
        self.discord = discord
        self.folder = folder
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def database(self) -> Path:
        return self.folder / "games.db"

    async def start(self) -> None:
        """Start the bot and wait until it has synced its commands and identified (failing at
        once if it stops instead)."""
        self.discord.synced.clear()
        self.discord.connected.clear()
        self.starts += 1
        env = dict(
            os.environ,
            DISCORD_TOKEN=TOKEN,
            DATABASE_PATH=str(self.database),
            LOG_LEVEL="INFO",
            **self.env,
        )
        with (self.folder / f"bot{self.starts}.log").open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "devkit.local_bot", str(self.discord.port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process = self.process
        await until(
            lambda: (
                (self.discord.synced.is_set() and self.discord.connected.is_set())
                or process.poll() is not None
            ),
            "the bot to start",
            wait=120.0,
        )
        assert process.poll() is None, f"the bot stopped as it started; its log:\n{self.log()}"

    def log(self) -> str:
        return "\n".join(
            (self.folder / f"bot{n}.log").read_text(errors="replace")
            for n in range(1, self.starts + 1)
        )

    def kill(self) -> None:
        """SIGKILL the bot and every process of it."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    async def stop(self) -> None:
        """Stop as Ctrl-C does; SIGKILL what is left after `WAIT` seconds. A traceback in the
        bot's log fails the test: expected conditions are one line, a traceback is a bug."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            give_up = time.monotonic() + WAIT
            while self.process.poll() is None and time.monotonic() < give_up:
                await asyncio.sleep(0.05)
            self.kill()
        assert "Traceback" not in self.log(), f"the bot logged a traceback:\n{self.log()}"


class Table:
    """People playing through the local Discord: commands, clicks, answers, boards."""

    def __init__(self, discord: FakeDiscord) -> None:
        self.discord = discord

    async def command(
        self, user: User, channel: Channel, name: str = "tictactoe", **options: Any
    ) -> Interaction:
        """Run a slash command; the interaction, once answered."""
        iid = await self.discord.slash(user, channel, name, **options)
        return await self.answered(iid)

    async def click(
        self, user: User, channel: Channel, message_id: int, what: int | str
    ) -> Interaction:
        """Click a button (a cell number or a control's name) of a board; once answered."""
        game_id = self.game_id(message_id)
        custom_id = f"ttt:{game_id}:{what}"
        iid = await self.discord.click(str(what), user, channel, message_id, custom_id)
        return await self.answered(iid)

    async def resign(
        self, user: User, channel: Channel, message_id: int
    ) -> tuple[Interaction, Interaction]:
        """Resign in the board's two clicks: Resign (the board asks), then its Confirm resign;
        both clicks, once answered."""
        asked = await self.click(user, channel, message_id, "resign")
        confirm = next(c for c in self.controls(message_id) if c.startswith("confirm"))
        return asked, await self.click(user, channel, message_id, confirm)

    async def answered(self, iid: int) -> Interaction:
        interaction = self.discord.interactions[iid]
        await until(lambda: interaction.answered, f"an answer to interaction {iid}")
        return interaction

    def message(self, message_id: int) -> dict[str, Any]:
        return self.discord.messages[message_id]

    def game_id(self, message_id: int) -> int:
        first = next(buttons(self.message(message_id)["components"]))
        return int(first["custom_id"].split(":")[1])

    def marks(self, message_id: int) -> int:
        """How many cells of a board show a mark (an empty cell shows the empty one, ⬜)."""
        cells = [
            b
            for b in buttons(self.message(message_id)["components"])
            if b["custom_id"].split(":")[-1].isdigit()
        ]
        return sum((b.get("emoji") or {}).get("name") in ("❌", "⭕") for b in cells)

    def free(self, message_id: int) -> list[int]:
        """The cells of a board that can be clicked."""
        return [
            int(b["custom_id"].split(":")[-1])
            for b in buttons(self.message(message_id)["components"])
            if b["custom_id"].split(":")[-1].isdigit() and not b.get("disabled")
        ]

    def controls(self, message_id: int) -> set[str]:
        return {
            b["custom_id"].split(":")[-1]
            for b in buttons(self.message(message_id)["components"])
            if not b["custom_id"].split(":")[-1].isdigit() and not b.get("disabled")
        }

    async def bot_replied(self, message_id: int, before: int) -> None:
        """Wait until a board that showed `before` marks shows the player's move and the bot's
        reply, or the game is over."""
        await until(
            lambda: (
                self.marks(message_id) >= before + 2 or "resign" not in self.controls(message_id)
            ),
            "the bot's reply",
        )

    def private(self, interaction: Interaction) -> str:
        """The words of the private answers to an interaction (response and follow-ups)."""
        found = [
            texts(m)
            for m in self.discord.messages.values()
            if int(m["flags"]) & EPHEMERAL and self.answers(interaction, m)
        ]
        return "\n".join(found)

    def answers(self, interaction: Interaction, message: dict[str, Any]) -> bool:
        """Whether `message` is an answer to `interaction` (its response or a follow-up)."""
        return int(message["id"]) in interaction.answers


@contextlib.asynccontextmanager
async def bot_running(discord: FakeDiscord, **env: str) -> AsyncIterator[tuple[LocalBot, Table]]:
    """The local Discord started and the bot started against it (SQLite in a temporary folder,
    settings `env`); both stopped after."""
    await discord.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = LocalBot(discord, Path(folder), **env)
        try:
            await bot.start()
            yield bot, Table(discord)
        finally:
            await bot.stop()
            await discord.close()


def run(main: Coroutine[Any, Any, None]) -> None:
    """Run a benchmark's main; Ctrl-C ends it with no traceback (exit code 130)."""
    try:
        asyncio.run(main)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
