"""Settings: read once, typed, and every bad value named with what to do."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import ConfigError, RedactToken, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_defaults_with_only_a_token() -> None:
    """A token alone gives the documented defaults."""
    s = load_settings({"DISCORD_TOKEN": TOKEN})
    assert s.token == TOKEN
    assert s.guild_id is None
    assert s.log_level == "INFO"
    assert (s.challenge_timeout, s.turn_timeout, s.challenge_cooldown) == (60.0, 300.0, 30.0)
    assert s.database_path == Path("data/tictactoe.db")
    assert s.database_sync == "normal"
    assert s.engine_workers >= 1


def test_every_setting_is_read() -> None:
    """Each variable in .env.example reaches its typed field."""
    s = load_settings(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "CHALLENGE_TIMEOUT": "90",
            "TURN_TIMEOUT": "120.5",
            "CHALLENGE_COOLDOWN": "0",
            "DATABASE_PATH": "/tmp/x.db",
            "DATABASE_SYNC": "Full",
            "ENGINE_WORKERS": "2",
        }
    )
    assert s.database_sync == "full"
    assert s.guild_id == 123456789012345678
    assert s.log_level == "DEBUG"
    assert (s.challenge_timeout, s.turn_timeout, s.challenge_cooldown) == (90.0, 120.5, 0.0)
    assert s.database_path == Path("/tmp/x.db")
    assert s.engine_workers == 2


def test_every_example_setting_is_known() -> None:
    """.env.example lists exactly the settings the bot reads."""
    example = Path(__file__).resolve().parents[2] / ".env.example"
    names = {
        line.split("=", 1)[0].strip()
        for line in example.read_text().splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    }
    assert names == {
        "DISCORD_TOKEN",
        "DISCORD_GUILD_ID",
        "LOG_LEVEL",
        "CHALLENGE_TIMEOUT",
        "TURN_TIMEOUT",
        "CHALLENGE_COOLDOWN",
        "DATABASE_PATH",
        "DATABASE_SYNC",
        "ENGINE_WORKERS",
        "DATABASE_URL",
        "SHARD_COUNT",
        "SHARD_IDS",
        "METRICS_PORT",
        "METRICS_HOST",
    }


def test_database_url_selects_postgresql_and_is_not_shown() -> None:
    """DATABASE_URL is kept as given, never shown in repr (it may hold a password)."""
    url = "postgresql://bot:s3cret@db.example:5432/games"
    s = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert s.database_url == url and "s3cret" not in repr(s)
    assert load_settings({"DISCORD_TOKEN": TOKEN}).database_url is None


def test_database_url_of_another_kind_is_refused() -> None:
    """A URL that is not PostgreSQL's is refused with one line saying what to write."""
    with pytest.raises(ConfigError, match=r"postgresql://.*not 'mysql'") as info:
        load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://u:p@h/db"})
    assert "\n" not in str(info.value) and "u:p" not in str(info.value)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not a token"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": f'"{TOKEN}"'}, "does not look like a bot token"),
        ({"DISCORD_GUILD_ID": "my-server"}, "DISCORD_GUILD_ID must be a server id"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"CHALLENGE_TIMEOUT": "soon"}, "CHALLENGE_TIMEOUT must be a number"),
        ({"TURN_TIMEOUT": "1"}, "TURN_TIMEOUT must be between"),
        ({"CHALLENGE_COOLDOWN": "-5"}, "CHALLENGE_COOLDOWN must be between"),
        ({"ENGINE_WORKERS": "0"}, "ENGINE_WORKERS must be a whole number"),
        ({"ENGINE_WORKERS": "two"}, "ENGINE_WORKERS must be a whole number"),
        ({"DATABASE_SYNC": "off"}, "DATABASE_SYNC must be normal .* or full .*, not 'off'"),
    ],
)
def test_bad_values_say_what_to_fix(env: dict[str, str], says: str) -> None:
    """A bad setting raises ConfigError naming the variable, never echoing the token."""
    base = {"DISCORD_TOKEN": TOKEN} if "DISCORD_TOKEN" not in env else {}
    with pytest.raises(ConfigError, match=says) as caught:
        load_settings(base | env)
    assert TOKEN not in str(caught.value)
    assert "\n" not in str(caught.value)


def test_settings_repr_hides_the_token() -> None:
    """Printing the settings (e.g. in a traceback) does not show the token."""
    assert TOKEN not in repr(load_settings({"DISCORD_TOKEN": TOKEN}))


def test_log_filter_redacts_the_token(caplog: pytest.LogCaptureFixture) -> None:
    """Whatever logs the token, the record shows a placeholder instead."""
    logger = logging.getLogger("test.redact")
    logger.addFilter(RedactToken(TOKEN))
    with caplog.at_level(logging.INFO, logger="test.redact"):
        logger.info("connecting with %s", TOKEN)
    assert TOKEN not in caplog.text
    assert "[token]" in caplog.text
