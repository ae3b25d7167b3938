"""Settings, read once from the environment (and `.env`), typed, failing fast with one line."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from dotenv import dotenv_values


def version() -> str:
    """The installed package's version (pyproject.toml), "unknown" when run from a bare tree."""
    try:
        return metadata.version("tictactoe")
    except metadata.PackageNotFoundError:
        return "unknown"


_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says which and what to do."""


# DATABASE_SYNC: SQLite's ``synchronous`` pragma for each value (`bot.storage.sqlite`).
SYNC_MODES = {"normal": "NORMAL", "full": "FULL"}
DEFAULT_SYNC = "normal"


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards this process runs, of how many. A guild lives on shard
    ``(guild_id >> 22) % count``; direct messages arrive on shard 0."""

    count: int = 1
    ids: tuple[int, ...] = (0,)
    auto: bool = False  # SHARD_COUNT was set: run them with AutoShardedBot

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process holds the shard of a server (None: direct messages)."""
        shard = 0 if guild_id is None else (guild_id >> 22) % self.count
        return shard in self.ids

    @property
    def partial(self) -> bool:
        """Whether other processes hold some of the shards."""
        return len(self.ids) < self.count


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment. The token never appears in repr."""

    token: str = field(repr=False)
    guild_id: int | None = None
    log_level: str = "INFO"
    challenge_timeout: float = 60.0
    turn_timeout: float = 300.0
    challenge_cooldown: float = 30.0
    database_path: Path = Path("data/tictactoe.db")
    database_sync: str = DEFAULT_SYNC  # SQLite's synchronous: "full" also survives a power loss
    engine_workers: int = 1
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL; may hold a password
    shards: Shards = Shards()
    metrics_port: int | None = None  # /healthz and /metrics; None: not served
    metrics_host: str = "127.0.0.1"
    # Refusals link to a game's message on discord.com; the playground (a simulated Discord,
    # whose messages have no such page) turns the links off.
    message_links: bool = True


def default_engine_workers() -> int:
    """One engine process per spare core, leaving one core to the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


def _number(env: Mapping[str, str], name: str, default: float, *, low: float, high: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low:g} and {high:g} seconds, not {raw}")
    return value


def _whole(env: Mapping[str, str], name: str, default: int, *, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)


_PORTAL = "Discord developer portal -> your application -> Bot -> Reset Token"


def _no_token(env_file: Path | None) -> ConfigError:
    """Say what is missing: the .env file, the line in it, or the token after the = sign."""
    if env_file is None:
        return ConfigError(
            "DISCORD_TOKEN is not set and there is no .env in this folder: copy .env.example to "
            f".env and paste your bot's token after DISCORD_TOKEN= ({_PORTAL}); "
            "to try the bot without a token: tictactoe-bot playground"
        )
    if "DISCORD_TOKEN" in dotenv_values(env_file):
        return ConfigError(
            f"DISCORD_TOKEN is empty in {env_file.name}: paste your bot's token after "
            f"DISCORD_TOKEN= ({_PORTAL})"
        )
    return ConfigError(
        f"DISCORD_TOKEN is not set: {env_file.name} has no DISCORD_TOKEN line; add "
        f"DISCORD_TOKEN= followed by your bot's token ({_PORTAL})"
    )


def _token(env: Mapping[str, str], env_file: Path | None) -> str:
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise _no_token(env_file)
    # Never echo the value: say only what is wrong with its shape.
    if any(ch.isspace() for ch in token) or token[0] in "'\"" or token.count(".") != 2:
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (three dot-separated parts, no quotes "
            "or spaces): paste it again from the developer portal"
        )
    return token


def _guild(env: Mapping[str, str]) -> int | None:
    raw = env.get("DISCORD_GUILD_ID", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 15 <= len(raw) <= 21:
        raise ConfigError(
            f"DISCORD_GUILD_ID must be a server id (a long number: right-click the server -> "
            f"Copy Server ID), not {raw!r}"
        )
    return int(raw)


def _log_level(env: Mapping[str, str]) -> str:
    level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {level!r}")
    return level


def _database_url(env: Mapping[str, str]) -> str | None:
    raw = env.get("DATABASE_URL", "").strip()
    if not raw:
        return None
    if not raw.startswith(("postgresql://", "postgres://")):
        scheme = raw.split("://", 1)[0] if "://" in raw else "no scheme"
        raise ConfigError(
            f"DATABASE_URL must be a postgresql://user:password@host:port/database URL, not "
            f"{scheme!r}; leave it empty to use the SQLite file at DATABASE_PATH"
        )
    return raw


def _shard_ids(raw: str, count: int) -> tuple[int, ...]:
    """Shard ids from text such as ``0-3`` or ``0,2,4-5``; ValueError if malformed."""
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        low, _, high = part.partition("-")
        first, last = int(low), int(high or low)
        if not 0 <= first <= last < count:
            raise ValueError(part)
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def _shards(env: Mapping[str, str], database_url: str | None) -> Shards:
    raw_ids = env.get("SHARD_IDS", "").strip()
    if not env.get("SHARD_COUNT", "").strip():
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: set how many shards there are in all")
        return Shards()
    count = _whole(env, "SHARD_COUNT", 1, low=1, high=100_000)
    try:
        ids = _shard_ids(raw_ids, count) if raw_ids else tuple(range(count))
    except ValueError:
        raise ConfigError(
            f"SHARD_IDS must list shards from 0 to {count - 1} such as 0-3 or 0,2,5, "
            f"not {raw_ids!r}"
        ) from None
    shards = Shards(count=count, ids=ids, auto=True)
    if shards.partial and database_url is None:
        raise ConfigError(
            f"SHARD_IDS {raw_ids} runs part of the {count} shards: the other processes must "
            "share this one's games, so set DATABASE_URL to a PostgreSQL database (SQLite is "
            "one process's file)"
        )
    return shards


def _port(env: Mapping[str, str]) -> int | None:
    if not env.get("METRICS_PORT", "").strip():
        return None
    return _whole(env, "METRICS_PORT", 0, low=0, high=65535)


def _database_sync(env: Mapping[str, str]) -> str:
    sync = env.get("DATABASE_SYNC", "").strip().lower() or DEFAULT_SYNC
    if sync not in SYNC_MODES:
        raise ConfigError(
            f"DATABASE_SYNC must be normal (a save survives any crash of the bot) or full (a "
            f"power loss too, at an fsync a save), not {env['DATABASE_SYNC'].strip()!r}"
        )
    return sync


def database_path(env: Mapping[str, str]) -> Path:
    """The SQLite file named by DATABASE_PATH (default data/tictactoe.db)."""
    return Path(env.get("DATABASE_PATH", "").strip() or "data/tictactoe.db")


def load_settings(env: Mapping[str, str], *, env_file: Path | None = None) -> Settings:
    """Build the settings from an environment mapping, or raise ConfigError.

    `env_file` is the .env file that was read into `env`, if there was one: a missing token is
    then told apart from an empty one.
    """
    url = _database_url(env)
    return Settings(
        token=_token(env, env_file),
        guild_id=_guild(env),
        log_level=_log_level(env),
        challenge_timeout=_number(env, "CHALLENGE_TIMEOUT", 60.0, low=5, high=3600),
        turn_timeout=_number(env, "TURN_TIMEOUT", 300.0, low=10, high=86400),
        challenge_cooldown=_number(env, "CHALLENGE_COOLDOWN", 30.0, low=0, high=3600),
        database_path=database_path(env),
        database_sync=_database_sync(env),
        engine_workers=_whole(
            env, "ENGINE_WORKERS", default_engine_workers(), low=1, high=max(4, os.cpu_count() or 1)
        ),
        database_url=url,
        shards=_shards(env, url),
        metrics_port=_port(env),
        metrics_host=env.get("METRICS_HOST", "").strip() or "127.0.0.1",
    )


class RedactToken(logging.Filter):
    """Replace the token in any log record, whatever logged it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self._token and self._token in record.getMessage():
            record.msg = record.getMessage().replace(self._token, "[token]")
            record.args = None
        return True
