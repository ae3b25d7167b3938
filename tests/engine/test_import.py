"""The engine package imports without Discord or asyncio."""

import subprocess
import sys


def test_import_engine_loads_no_discord_or_asyncio() -> None:
    """`import engine` loads neither discord nor asyncio nor sqlite3."""
    code = (
        "import sys, engine; "
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} "
        "& {'discord', 'asyncio', 'aiohttp', 'sqlite3'})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
