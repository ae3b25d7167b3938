"""Entry point: ``python -m bot`` or the ``tictactoe-bot`` console script."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.config import ConfigError, RedactToken, Settings, load_settings, version
from bot.playground.cli import DESCRIPTION as PLAYGROUND
from bot.playground.cli import add_arguments as add_playground_arguments
from bot.playground.cli import run as run_playground


def _fail(message: str, code: int) -> int:
    print(f"tictactoe-bot: {message}", file=sys.stderr)
    return code


def _configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactToken(settings.token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)


async def _run(settings: Settings) -> None:
    from bot.assembly import create_bot

    bot = create_bot(settings, freeze_heap=True)
    async with bot:
        bot.stop_on_signals()
        await bot.start(settings.token)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tictactoe-bot",
        description="A Discord tic-tac-toe bot. With no command it connects to Discord with the "
        "settings from the environment and from .env in the current folder (see .env.example).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.set_defaults(command=_run_bot)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    run = commands.add_parser("run", help="connect to Discord and serve (the default)")
    run.set_defaults(command=_run_bot)
    play = commands.add_parser(
        "playground", help="play the bot in a browser, no token needed", description=PLAYGROUND
    )
    add_playground_arguments(play)
    play.set_defaults(command=run_playground)
    # Listed here for --help; its own options are read by bot.storage.migrate (see main).
    commands.add_parser(
        "migrate-db", help="copy a SQLite file into PostgreSQL: migrate-db --to postgresql://..."
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run its command (by default: the bot)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["migrate-db"]:  # SQLite -> PostgreSQL; needs no token
        load_dotenv(Path.cwd() / ".env", override=False)
        from bot.assembly import STEPS
        from bot.storage.migrate import command as migrate

        return migrate(words[1:], os.environ, STEPS)
    args = _parser().parse_args(words)
    command: Callable[[argparse.Namespace], int] = args.command
    return command(args)


def _run_bot(args: argparse.Namespace) -> int:
    """Read the settings, start the bot, and turn start-up failures into one clear line."""
    # .env in the folder the bot is started from; real environment variables win.
    env_file = Path.cwd() / ".env"
    load_dotenv(env_file, override=False)
    try:
        settings = load_settings(os.environ, env_file=env_file if env_file.is_file() else None)
    except ConfigError as error:
        return _fail(str(error), 2)
    _configure_logging(settings)
    from bot.client import DiscordUnreachable
    from bot.storage.base import StorageError

    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN: reset the token in the developer portal "
            "(your application -> Bot -> Reset Token) and put the new one in .env",
            1,
        )
    except DiscordUnreachable as error:
        return _fail(
            f"could not reach Discord ({error}): check this machine's internet connection, "
            "DNS and any firewall or proxy, then start again",
            1,
        )
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested intents; this bot needs none privileged", 1)
    except StorageError as error:
        return _fail(f"cannot use the database: {error}", 1)
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped by a signal during start-up
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
