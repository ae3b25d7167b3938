"""The puzzle floor: the least a discord.py bot can do for the puzzle benchmark's traffic.

    python benchmarks/floors/puzzle_bot.py PORT FOLDER [--durable]

The same `/tictactoe-puzzle` command, a puzzle of the shipped set near a newcomer's rating,
the same board
shape (a Components V2 layout as plain data: a text display, one action row per board row, a
Hint button, custom ids ``pz:<attempt>:<cell>@<ply>``), one ``edit_message`` per click, and
nothing else: attempts live in a dict, no storage, no engine (the defence plays the first free
cell in the same edit; the attempt ends after the puzzle's number of moves), no check beyond
whose attempt it is. ``--durable`` adds one durable save of each change before its response
(`floors.store`, as the game floor's). Run by `puzzle_load.py` exactly as the project's bot
(`wire.bot_process`: same address changes, same stdin commands).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.game_bot import FloorBot, PlainLayout
from devkit.wire import bot_process as _wire_bot
from engine.puzzles import Puzzle, daily, near

MARKS = {"X": "❌", "O": "⭕"}


@dataclass
class FloorAttempt:
    id: int
    user: int
    channel: int
    puzzle: Puzzle
    cells: list[str] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return len(self.moves) >= 2 * self.puzzle.moves - 1


def components(a: FloorAttempt) -> list[dict[str, Any]]:
    """The attempt's message as the component dicts Discord receives."""
    n = a.puzzle.board.size
    grid = "\n".join(
        "".join(MARKS.get(c, "⬜") for c in a.cells[r * n : r * n + n]) for r in range(n)
    )
    text = f"### Puzzle {a.puzzle.id}\n<@{a.user}> to play and win in {a.puzzle.moves}\n\n{grid}"
    out: list[dict[str, Any]] = [{"type": 10, "content": text}]
    for r in range(n):
        row = []
        for cell in range(r * n, r * n + n):
            mark = a.cells[cell]
            button: dict[str, Any] = {
                "type": 2,
                "style": 2,
                "custom_id": f"pz:{a.id}:{cell}@{len(a.moves)}",
                "disabled": mark in MARKS or a.over,
                "emoji": {"id": None, "name": MARKS.get(mark, "⬜")},
            }
            row.append(button)
        out.append({"type": 1, "components": row})
    if not a.over:
        hint = {
            "type": 2,
            "style": 2,
            "custom_id": f"pz:{a.id}:hint@{len(a.moves)}",
            "label": "Hint",
        }
        out.append({"type": 1, "components": [hint]})
    return out


class PuzzleFloor(FloorBot):
    """The game floor (its start, collector settings and durable store) with the puzzle command
    and the puzzle clicks in place of the game's."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.attempts: dict[int, FloorAttempt] = {}
        self.rng = random.Random(1)
        self.tree.command(name="tictactoe-puzzle")(self.puzzle)

    async def save_attempt(self, a: FloorAttempt) -> None:
        if self.durable is not None:
            n = a.puzzle.board.size
            row = (
                a.id,
                a.channel,
                a.user,
                a.user,
                a.user,
                n,
                a.puzzle.board.k,
                ",".join(map(str, a.moves)),
            )
            await self.durable.save(row, "finished" if a.over else "active")

    async def puzzle(self, interaction: discord.Interaction[Any], puzzle: str = "near") -> None:
        """Solve a puzzle."""
        if puzzle == "daily":  # the same for everyone in the server today
            chosen = daily(date.today().toordinal(), interaction.guild_id or interaction.user.id)
        else:
            chosen = near(1500.0, self.rng)  # as the bot picks for a new player (no search)
        cells = list(chosen.board.to_string().replace("/", ""))
        a = FloorAttempt(
            next(self.ids), interaction.user.id, interaction.channel_id or 0, chosen, cells
        )
        self.attempts[a.id] = a
        await self.save_attempt(a)
        await interaction.response.send_message(view=PlainLayout(components(a)))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        _, attempt_id, what = str((interaction.data or {}).get("custom_id", "")).split(":")
        what, _, ply = what.partition("@")
        a = self.attempts.get(int(attempt_id))
        if a is None or a.user != interaction.user.id or a.over or int(ply) != len(a.moves):
            await interaction.response.send_message("Not yours.", ephemeral=True)
            return
        if what.isdigit() and a.cells[int(what)] == ".":
            side = a.puzzle.board.turn
            a.cells[int(what)] = side
            a.moves.append(int(what))
            if not a.over:  # the defence: the first free cell
                reply = a.cells.index(".")
                a.cells[reply] = "O" if side == "X" else "X"
                a.moves.append(reply)
        await self.save_attempt(a)
        await interaction.response.edit_message(view=PlainLayout(components(a)))


if __name__ == "__main__":
    _wire_bot.main(PuzzleFloor)
