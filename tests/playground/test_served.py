"""The page the playground serves: SimCord's installed page takes every change of the
playground's, and a SimCord whose page no longer would stops the start with one line."""

from __future__ import annotations

import pytest
from simcord.backend.errors import SetupError

from bot.playground.served import CHANGES, OWN_FILES, Change, changed, page_files


def test_the_installed_simcord_takes_every_change() -> None:
    """Each change's text is in SimCord's file exactly once, and the page served carries the new
    text: the descriptions, the keys, the playground's stylesheet and script."""
    files = page_files()
    for name, changes in CHANGES.items():
        served = files["/" if name == "index.html" else f"/{name}"][1]
        for change in changes:
            assert change.new in served and change.old not in served.replace(change.new, "")
    assert "command-suggestion-ellipsis" not in files["/commands.js"][1]
    for path in OWN_FILES:
        assert f'"{path}"' in files["/"][1]
        assert files[path][1].strip()


def test_a_change_that_no_longer_fits_is_one_line_naming_it() -> None:
    """A text not there, or there twice: SetupError naming the file and what the page would
    lack (the playground prints it as its one line)."""
    change = Change("the options' descriptions", "old", "new")
    for text in ("nothing of it", "old and old"):
        with pytest.raises(SetupError) as raised:
            changed("commands.js", text, (change,))
        message = str(raised.value)
        assert "\n" not in message
        assert "commands.js" in message and "the options' descriptions" in message
