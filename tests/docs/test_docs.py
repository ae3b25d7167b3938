"""The README: short, with the two commands first, every relative link there; the changelog has
the version. (The site built from docs/: test_site.py.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)#]+)(#[^)]*)?\)")


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 200
    commands = [line for line in lines[:20] if line.startswith("python3 -m venv .venv")]
    assert commands[0].endswith("tictactoe-bot playground")
    assert commands[1].endswith(".venv/bin/python -m pytest -q -n 3")


def test_every_relative_link_of_the_readme_and_the_changelog_exists() -> None:
    for page in (README, ROOT / "CHANGELOG.md"):
        for target, _anchor in LINK.findall(page.read_text(encoding="utf-8")):
            if not target.startswith(("http://", "https://")):
                assert (page.parent / target).exists(), f"{page.name}: {target}"


def test_the_version_has_a_changelog_entry() -> None:
    version = re.search(r'^version = "(.+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version is not None
    assert f"## [{version[1]}] - " in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
