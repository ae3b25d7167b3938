"""What the languages cost: the slash-command sync with every localisation against Discord's
limits, and the time to render a board in each language (what every click pays).

The sync: the command tree built as the bot does (extensions loaded, the catalog translator
set), then exactly the payload ``tree.sync()`` sends, computed without connecting anywhere. The
render: ``board.view`` of a game in progress, best of several runs, in English and in each
catalog's language. Measured, not asserted (the limits are asserted in tests/bot/test_catalogs.py).

    python benchmarks/load/languages.py
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import timeit
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.assembly import create_bot
from bot.client import EXTENSIONS
from bot.config import Settings
from bot.discord_ui import board
from bot.discord_ui.translator import CatalogTranslator
from bot.games.record import GameRecord
from bot.i18n import shipped

# Discord: per command, the characters of every name, description and choice (value included)
# together, counted in each language on its own.
PER_COMMAND = 4000


def _chars(node: dict[str, Any], locale: str | None) -> int:
    """A command's characters in one language (None: the default, English)."""

    def pick(key: str) -> str:
        local = (node.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return str(local or node.get(key) or "")

    total = len(pick("name")) + len(pick("description"))
    total += len(str(node["value"])) if "value" in node else 0
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        total += _chars(child, locale)
    return total


async def payload() -> list[dict[str, Any]]:
    """The commands as the sync sends them, every localisation included."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="a.b.c", database_path=Path(folder) / "t.db", engine_workers=1)
        bot = create_bot(settings)
        await bot.store.open()
        try:
            translator = CatalogTranslator()
            await bot.tree.set_translator(translator)
            for name in EXTENSIONS:
                await bot.load_extension(name)
            return [
                await command.get_translated_payload(bot.tree, translator)
                for command in bot.tree.get_commands()
            ]
        finally:
            await bot.store.close()


def main() -> None:
    commands = asyncio.run(payload())
    body = json.dumps(commands, ensure_ascii=False).encode()
    plain = json.dumps([_strip(c) for c in commands], ensure_ascii=False).encode()
    locales = sorted({loc for c in commands for loc in (c.get("name_localizations") or {})})
    print(f"commands: {len(commands)}, languages besides English: {len(locales)}")
    print(f"sync body: {len(body):,} bytes with localisations, {len(plain):,} bytes without")
    print("| command | characters (English) | most in one language | Discord's limit |")
    print("|---|---|---|---|")
    for command in commands:
        counts = {loc: _chars(command, loc) for loc in locales}
        worst = max(counts, key=lambda loc: counts[loc])
        print(
            f"| /{command['name']} | {_chars(command, None)} | {counts[worst]} ({worst}) "
            f"| {PER_COMMAND} |"
        )
    times = render_times()
    others = [t for locale, t in times.items() if locale != "en-US"]
    print(
        f"board render: {times['en-US']:.0f} µs in English, {min(others):.0f} to "
        f"{max(others):.0f} µs in the other {len(others)} languages"
    )


def render_times(number: int = 2000, repeat: int = 7) -> dict[str, float]:
    """Microseconds to render a 3x3 board against the bot, two moves in, by language."""
    out = {}
    for locale in ["en-US", *(name.replace("_", "-") for name in shipped())]:
        game = GameRecord(
            id=1,
            guild_id=1,
            channel_id=1,
            x_id=11,
            o_id=22,
            challenger_id=11,
            ai_side="O",
            ai_level="hard",
            moves=(0, 4),
            deadline=datetime(2026, 1, 1, tzinfo=UTC),
            locale=locale,
        )
        board.view(game)  # the catalog is read once, then cached
        runs = timeit.repeat(lambda game=game: board.view(game), number=number, repeat=repeat)
        out[locale] = min(runs) / number * 1e6
    return out


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if not k.endswith("_localizations")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


if __name__ == "__main__":
    main()
