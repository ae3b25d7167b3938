"""The pictures the playing page shows are the bot's own: scripts/docs_pictures.py draws them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.bot.picture_support import needs_font

ROOT = Path(__file__).resolve().parents[2]


def test_the_playing_page_shows_what_the_script_draws(tmp_path: Path) -> None:
    """Every picture the script writes is on the playing page and in docs/images; each decodes
    at the size the bot draws it, the replay one frame a move besides the empty board."""
    needs_font()
    done = subprocess.run(
        [sys.executable, "scripts/docs_pictures.py", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    page = (ROOT / "docs" / "playing.md").read_text()
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["board.png", "rating-chart.png", "replay.gif", "ultimate.png"]
    for name in written:
        assert f"(images/{name})" in page
        assert (ROOT / "docs" / "images" / name).is_file()
    assert Image.open(tmp_path / "board.png").size == (768, 768)
    assert Image.open(tmp_path / "ultimate.png").size == (768, 768)
    replay = Image.open(tmp_path / "replay.gif")
    moves = int(re.search(r"A replay of (\d+) moves", done.stdout).group(1))  # type: ignore[union-attr]
    assert replay.n_frames == moves + 1
