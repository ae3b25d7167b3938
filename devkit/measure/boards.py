"""What a board message shows, read from its components: the cells, the free ones, the controls
(the load benchmarks' players and the chaos soak's checker read boards this way)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from devkit.localdiscord.model import BUTTON

CELL = re.compile(r"ttt:(\d+):(\d+)(?:@(\d+))?$")
CONTROL = re.compile(r"ttt:(\d+):([a-z]+)(\d?)(?:@(\d+))?$")
CONFIRM = re.compile(r"ttt:(\d+):(confirm[xo]\d+)$")  # Resign asking for its second click


@dataclass
class Board:
    """What a board message shows, read from its components."""

    game_id: int | None
    cells: int  # cell buttons on the message
    taken: int  # cells holding a mark (ultimate: the ply its buttons were drawn at)
    free: list[int]  # clickable cells
    controls: set[str]
    picks: list[int] = field(default_factory=list)  # ultimate: small boards open to pick

    @property
    def challenge(self) -> bool:
        return "accept" in self.controls

    @property
    def over(self) -> bool:
        # Ultimate draws no cell buttons once over: its controls (Rematch, Review) say so.
        shown = self.cells > 0 or (bool(self.controls) and not self.challenge)
        return shown and not self.free and not self.picks and not self.resigns

    @property
    def resigns(self) -> str | None:
        """The control that resigns now: Resign, or its Confirm resign once asked."""
        asked = [c for c in self.controls if c.startswith("confirm")]
        return asked[0] if asked else "resign" if "resign" in self.controls else None


def walk_components(components: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Every component of a message payload, nested ones (rows, containers, sections) included."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or ())
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


EMPTY = "⬜"  # the empty mark the bot's empty cells show (the floors' show no emoji)


def read_board(components: Iterable[Any]) -> Board:
    """Parse a stored message's components, walking Components V2 layouts."""
    game_id = ply = None
    cells = taken = 0
    free: list[int] = []
    picks: list[int] = []
    controls: set[str] = set()
    for component in walk_components(components):
        if component.get("type") != BUTTON:
            continue
        custom_id = component.get("custom_id") or ""
        if match := CELL.match(custom_id):
            game_id, ply = int(match[1]), match[3] or ply
            cells += 1
            if (component.get("emoji") or {}).get("name") not in (None, EMPTY):
                taken += 1
            elif not component.get("disabled"):
                free.append(int(match[2]))
        elif match := CONFIRM.match(custom_id):
            game_id = int(match[1])
            controls.add(match[2])
        elif match := CONTROL.match(custom_id):
            game_id, ply = int(match[1]), match[4] or ply
            if component.get("disabled"):
                continue
            if match[2] == "pick":
                picks.append(int(match[3]))
            elif not match[3]:
                controls.add(match[2])
    return Board(game_id, cells, taken if ply is None else int(ply), free, controls, picks)
