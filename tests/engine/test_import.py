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


def test_a_3x3_move_loads_neither_solver_nor_book() -> None:
    """A 3x3 game needs only the board and the solved table: the big-board code stays unloaded."""
    code = (
        "import sys, engine; engine.best_move(engine.Board.empty()); "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('engine'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "engine.small" in loaded
    assert not loaded & {"engine.search", "engine.book", "engine.api", "engine.pairing"}
