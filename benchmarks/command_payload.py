"""The slash-command sync with every localisation: how big it is, against Discord's limits.

Builds the command tree as the bot does (extensions loaded, the catalog translator set), then
asks discord.py for exactly the payload ``tree.sync()`` sends, without connecting anywhere.
Measured, not asserted (the limits themselves are asserted in tests/bot/test_catalogs.py).

    python benchmarks/command_payload.py
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from bot.client import EXTENSIONS, create_bot
from bot.config import Settings
from bot.discord_ui.translator import CatalogTranslator

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


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if not k.endswith("_localizations")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


if __name__ == "__main__":
    main()
