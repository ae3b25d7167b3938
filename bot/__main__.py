"""Entry point: ``python -m bot`` or the ``tictactoe-bot`` console script."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.config import ConfigError, RedactToken, Settings, load_settings


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
    from bot.client import create_bot

    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.token)


def main() -> int:
    """Read the settings, start the bot, and turn start-up failures into one clear line."""
    # .env in the folder the bot is started from; real environment variables win.
    load_dotenv(Path.cwd() / ".env", override=False)
    if sys.argv[1:2] == ["migrate-db"]:  # SQLite -> PostgreSQL; needs no token
        from bot.storage.migrate import command

        return command(sys.argv[2:], os.environ)
    try:
        settings = load_settings(os.environ)
    except ConfigError as error:
        return _fail(str(error), 2)
    _configure_logging(settings)
    from bot.storage.base import StorageError

    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN: reset the token in the developer portal "
            "(your application -> Bot -> Reset Token) and put the new one in .env",
            1,
        )
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested intents; this bot needs none privileged", 1)
    except StorageError as error:
        return _fail(f"cannot use the database: {error}", 1)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
