"""The soak's history checker: what the players did and were answered, against the games stored
in PostgreSQL, the boards the players see, and the bots' logs.

- lost: a move whose click (or reaction) was answered as played and is not in the stored game,
  by that side, in the order the answers came;
- duplicated: a cell twice in a stored game;
- phantom: a stored move that no player's click or reaction asked for (the bot's own moves, on
  its side, excepted);
- boards: a board message whose marks or state differ from its stored game;
- unseen: a stored live game no player has a board of (it would hold its channel for nothing);
- behind: a stored move missing from its board `CATCH_UP` seconds after the last fault, though
  nobody clicked to show it (``behind_boards``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.chaos.faults import Fault
from benchmarks.chaos.tables import Action, Table, marks_of
from devkit.measure.boards import read_board

LINE = re.compile(r"^(\d{9,}\.\d{3}) ([A-Z]+) ([\w.]+): (.*)$")
GRACE = 10.0  # seconds after a fault in which the logs may still speak of it
# N: seconds after the last fault by which every move stored then is on its board. A shard
# killed last takes about 4 s to start again and read its boards back, and a board behind is
# tried again at least every 3.6 s; a player's patience is longer.
CATCH_UP = 10.0
SHOW = 1.0  # seconds a move stored at the check is given to reach its board (a move in flight)


@dataclass
class Stored:
    id: int
    moves: tuple[int, ...]
    ai_side: str | None
    status: str

    def side(self, ply: int) -> str:
        return "X" if ply % 2 == 0 else "O"


async def stored_games(url: str) -> dict[int, Stored]:
    """Every game in the database."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT id, moves, ai_side, status FROM games")
    finally:
        await conn.close()
    return {
        r["id"]: Stored(
            r["id"],
            tuple(int(c) for c in r["moves"].split(",") if c != ""),
            r["ai_side"],
            r["status"],
        )
        for r in rows
    }


@dataclass
class Verdict:
    counts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def fail(self, what: str, text: str) -> None:
        self.counts[what] += 1
        if len(self.problems) < 40:
            self.problems.append(f"{what}: {text}")


def check_history(
    history: list[Action], tables: list[Table], stored: dict[int, Stored], messages: Any
) -> Verdict:
    """Every check against the store and the boards (see the module's docstring)."""
    verdict = Verdict()
    played: dict[int, list[Action]] = defaultdict(list)
    asked: set[tuple[int | None, int | None, str | None]] = set()
    for action in history:
        if action.cell is not None:
            asked.add((action.game_id, action.cell, action.mark))
            if action.played and action.game_id is not None:
                played[action.game_id].append(action)
    for game_id, actions in played.items():
        game = stored.get(game_id)
        if game is None:
            verdict.fail("lost", f"game {game_id} is not stored at all")
            continue
        places = []
        for action in sorted(actions, key=lambda a: a.answered or a.sent):
            if action.cell not in game.moves:
                verdict.fail("lost", f"game {game_id}: cell {action.cell} not stored")
                continue
            ply = game.moves.index(action.cell)
            if game.side(ply) != action.mark:
                verdict.fail(
                    "lost", f"game {game_id}: cell {action.cell} stored for the other side"
                )
            places.append(ply)
        if places != sorted(places):
            verdict.fail("out of order", f"game {game_id}: answered {places}, stored {game.moves}")
    seen = {game_id for table in tables for game_id in table.boards}
    for game in stored.values():
        if len(set(game.moves)) != len(game.moves):
            verdict.fail("duplicated", f"game {game.id}: {game.moves}")
        for ply, cell in enumerate(game.moves):
            side = game.side(ply)
            if side != game.ai_side and (game.id, cell, side) not in asked:
                verdict.fail("phantom", f"game {game.id}: move {ply} ({cell}) asked by nobody")
        if game.id not in seen and game.status in ("active", "challenge"):
            verdict.fail("unseen", f"game {game.id} is live and no player has its board")
    for table in tables:
        for game_id, message_id in table.boards.items():
            game = stored.get(game_id)
            components = messages[message_id]["components"]
            shows = marks_of(components)
            if game is None:
                continue
            want = {cell: game.side(ply) for ply, cell in enumerate(game.moves)}
            over = read_board(components).over
            if shows != want or over != (game.status == "finished"):
                verdict.fail(
                    "boards",
                    f"game {game_id}: board {sorted(shows.items())} over={over}, stored "
                    f"{game.moves} {game.status}",
                )
    return verdict


@dataclass
class LogEntry:
    wall: float
    level: str
    text: str  # the message, with the traceback's last line when there is one
    traceback: bool = False


def read_log(path: Path) -> list[LogEntry]:
    """A bot's log (``--log-times``) as entries: warnings, errors and their tracebacks."""
    entries: list[LogEntry] = []
    for line in path.read_text(errors="replace").splitlines():
        match = LINE.match(line)
        if match:
            if match[2] in ("WARNING", "ERROR", "CRITICAL"):
                entries.append(LogEntry(float(match[1]), match[2], f"{match[3]}: {match[4]}"))
            else:
                entries.append(LogEntry(float(match[1]), match[2], ""))
        elif line.startswith("Traceback") and entries:
            entries[-1].traceback = True
        elif entries and entries[-1].traceback and line and not line.startswith(" "):
            entries[-1].text += f" | {line}"  # the exception raised, last of the traceback
    return [e for e in entries if e.level != "INFO" and e.text]


def in_fault(wall: float, faults: list[Fault]) -> Fault | None:
    """The latest fault whose time (with `GRACE` after it) holds `wall`, if any."""
    holding = [f for f in faults if f.wall[0] - 1.0 <= wall <= f.wall[1] + GRACE]
    return holding[-1] if holding else None


def check_logs(folder: Path, faults: list[Fault]) -> dict[str, Counter[str]]:
    """The logs' warnings, errors and tracebacks by text: during a fault (by its kind) or not."""
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for path in sorted(folder.glob("bot*.log")):
        for entry in read_log(path):
            fault = in_fault(entry.wall, faults)
            where = fault.kind if fault is not None else "no fault"
            kind = "traceback" if entry.traceback else entry.level.lower()
            text = re.sub(r"\d{4,}", "N", entry.text)[:240]
            found[f"{kind} ({where})"][text] += 1
    return found


def behind_boards(tables: list[Table], stored: dict[int, Stored], messages: Any) -> list[str]:
    """The boards missing a move of their stored game (`stored`, read just before): each board
    must show at least the moves stored then, each with its side."""
    behind = []
    for table in tables:
        for game_id, message_id in table.boards.items():
            game = stored.get(game_id)
            if game is None:
                continue
            shows = marks_of(messages[message_id]["components"])
            missing = [
                cell for ply, cell in enumerate(game.moves) if shows.get(cell) != game.side(ply)
            ]
            if missing:
                behind.append(f"game {game_id}: stored {game.moves}, board lacks {missing}")
    return behind
