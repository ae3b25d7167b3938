"""Build the missed-win verdicts of opening positions (engine/data/missed.txt).

For each board, every running position up to a ply, up to symmetry (the least of its eight
images, as the opening book keeps them), gets its verdict by search (engine.puzzles.missed.verdict):
``-`` where no puzzle can be missed whatever is played (no forced win within MOST_MOVES moves,
a win in one, or two moves that win fastest), else ``N:cell``. Every game passes through these
positions, and proving that no win exists is dearest there; with the verdicts shipped, a fresh
engine process judges a game's opening by lookup. A comment line states each board's coverage
and the build's time.

    nice -n 5 python scripts/build_missed.py --board 5:3:3

A board given again replaces that board's lines; the others are kept.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.board import Board
from engine.book import openings
from engine.puzzles.missed import OPENINGS, Verdict, read_openings, verdict

Key = tuple[int, int, int, int]


def said(found: Verdict) -> str:
    return "-" if found is None else f"{found[0]}:{found[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", default=[], help="size:k:max-ply")
    parser.add_argument("--out", type=Path, default=Path(OPENINGS))
    args = parser.parse_args()
    text = args.out.read_text(encoding="ascii") if args.out.exists() else ""
    entries: dict[Key, Verdict] = read_openings(text)
    notes = [line for line in text.splitlines() if line.startswith("# ") and " k=" in line]
    for spec in args.board:
        size, k, max_ply = (int(v) for v in spec.split(":"))
        entries = {key: v for key, v in entries.items() if key[:2] != (size, k)}
        notes = [n for n in notes if not n.startswith(f"# {size}x{size} k={k}:")]
        began = time.process_time()
        boards = openings(size, k, max_ply)
        for board in boards:
            entries[size, k, board.x, board.o] = verdict(board)
        spent = time.process_time() - began
        notes.append(
            f"# {size}x{size} k={k}: every position to ply {max_ply} up to symmetry, "
            f"{len(boards)}, built in {spent:.1f} s of CPU"
        )
    lines = [
        "# Missed-win verdicts of opening positions (engine.puzzles.missed), written by "
        "scripts/build_missed.py",
        *notes,
    ]
    for (size, k, x, o), found in sorted(entries.items()):
        board = Board(size, k, x, o)
        lines.append(f"{size} {k} {board.to_string()} {said(found)}")
    args.out.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"{len(entries)} positions, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
