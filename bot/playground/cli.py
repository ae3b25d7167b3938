"""``tictactoe-bot playground`` (or ``python -m bot.playground``): try the bot with no token.

Starts the real bot against a simulated Discord on this machine and prints the address of a
page to play it in. Needs the ``playground`` extra: ``pip install -e ".[playground]"``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing.forkserver
import signal
import sys
import tempfile
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Settings, default_engine_workers

if TYPE_CHECKING:
    from bot.playground.world import Opened

PROG = "tictactoe-bot playground"
DESCRIPTION = (
    "Play the bot in a browser, with no Discord account and no token: the real bot against a "
    "simulated Discord on this machine (127.0.0.1 only)."
)
# The bot's clocks: option, lowest and highest seconds, default, what it is (as in .env.example).
CLOCKS = (
    ("--challenge-timeout", 5, 3600, 60, "seconds a challenge waits for an answer"),
    ("--turn-timeout", 10, 86400, 300, "seconds the player to move may take"),
    ("--challenge-cooldown", 0, 3600, 30, "seconds between two challenges from one member"),
)
# The bot never sends it anywhere: the simulated Discord accepts any token.
NO_TOKEN = "playground.needs.no-token"


def _seconds(low: float, high: float) -> type[float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give {low:g} to {high:g} seconds, not {text}")
        return value

    return parse  # type: ignore[return-value]


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The playground's options, for its own parser or as ``tictactoe-bot playground``."""
    parser.add_argument(
        "--database",
        type=Path,
        metavar="FILE",
        help="SQLite file to keep the games in (default: a temporary one, deleted at the end)",
    )
    parser.add_argument(
        "--port", type=_port, default=0, help="port on 127.0.0.1 (default: any free port)"
    )
    for flag, low, high, default, what in CLOCKS:
        parser.add_argument(
            flag,
            type=_seconds(low, high),
            default=float(default),
            metavar="S",
            help=f"{what} (default {default})",
        )


def _say(line: str = "") -> None:
    print(line, flush=True)


def _announce(database: Path | None, opened: Opened) -> None:
    members = ", ".join(opened.members[:-1]) + " and " + opened.members[-1]
    _say(f"Playground ready: open {opened.url}")
    _say("  Listening on 127.0.0.1 only (loopback): nothing outside this machine can reach it.")
    _say(
        f"  Server {opened.server!r}, channel #{opened.channel}, members {members}: "
        "'Viewing as' at the top of the page switches member."
    )
    regulars = ", ".join(opened.regulars[:-1]) + " and " + opened.regulars[-1]
    _say(
        f"  {regulars} play by themselves: challenge one, and they accept and answer each move. "
        f"Threads are listed under #{opened.channel}: click one to open it, or start one."
    )
    _say(
        "  A tournament: /tictactoe-tournament create (format Swiss), then Join; the regulars "
        "join up to five players; Start, and each game is played in its own thread."
    )
    _say(
        "  Pick each command and option from the list that opens as you type / in the page: "
        "/tictactoe-settings, then set, then an option (input, mark_x, ...) and its value; "
        "Enter sends the command. name:value typed as text is sent as a plain message."
    )
    if database is None:
        _say("  Games are kept in a temporary database, deleted when the playground stops.")
    else:
        _say(f"  Games are kept in {database}.")
    _say("  Ctrl-C stops it.")


def _start_engine_server() -> None:
    """Start the server the engine processes are forked from, deaf to Ctrl-C.

    Ctrl-C reaches every process in the terminal's group: the playground stops the engine
    processes itself, so they leave it to the playground (they inherit the ignored signal).
    """
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def run(args: argparse.Namespace) -> int:
    """Start the playground with parsed options; returns the exit code."""
    try:
        from simcord.backend.errors import SetupError

        from bot.playground.world import serve
        from bot.storage.base import StorageError
    except ImportError:
        return _fail('the playground needs its extra: pip install -e ".[playground]"')
    logging.basicConfig(format="%(levelname)-7s %(name)s: %(message)s", level=logging.WARNING)
    _say("Starting the bot against a simulated Discord (no token, no network)...")
    _start_engine_server()

    def announce(opened: Opened) -> None:
        _announce(args.database, opened)

    with tempfile.TemporaryDirectory(prefix="tictactoe-playground-") as scratch:
        settings = Settings(
            token=NO_TOKEN,
            challenge_timeout=args.challenge_timeout,
            turn_timeout=args.turn_timeout,
            challenge_cooldown=args.challenge_cooldown,
            database_path=args.database or Path(scratch) / "tictactoe.db",
            engine_workers=default_engine_workers(),
            message_links=False,
        )
        try:
            asyncio.run(_until_stopped(serve(settings, port=args.port, opened=announce)))
        except (KeyboardInterrupt, asyncio.CancelledError):
            _say("\nPlayground stopped.")
            return 0
        except StorageError as error:
            return _fail(f"cannot use the database: {error}")
        except SetupError as error:
            if args.port and "bind port" in str(error):
                return _fail(f"port {args.port} on 127.0.0.1 is in use: pick another --port")
            return _fail(str(error))
    _say("The page ended the session; playground stopped.")
    return 0


async def _until_stopped(serving: Coroutine[Any, Any, None]) -> None:
    """Serve; SIGTERM (kill, a service manager) stops it as Ctrl-C does."""
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    await serving


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.playground [options]``."""
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))
