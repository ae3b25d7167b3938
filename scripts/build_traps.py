"""Build the trap book (engine/data/traps.txt): `unbeatable`'s moves early in big-board games.

For each board, every position `unbeatable` can face up to a ply, as it stands (not up to
symmetry: the weighing models the gentler levels' natural move, whose ties fall by cell): as X,
the empty board and, ply by ply, every reply of the opponent to each of the book's moves; as O,
every first move of the opponent and so on. Each position gets its exact value and the moves
engine.trapsearch plays there given the time: the complete weighing at its full depth
(`trap_choices`), where a move's own weighing is cut by a node budget. The engine then plays
those moves by lookup (engine.book.trap_moves), `rng` choosing among them. The lines read as
engine/data/book.txt's: ``size k board-text value moves``; comment lines state the coverage and
the build's time.

    nice -n 5 python scripts/build_traps.py --board 4:3:5 --board 4:4:5 --board 5:3:3 \
        --board 5:5:2

A board given again replaces that board's entries; the others are kept.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.board import Board
from engine.book import TRAPS, parse
from engine.trapsearch import trap_choices

Key = tuple[int, int, int, int]
Entry = tuple[int, tuple[int, ...]]


def replies(board: Board) -> set[Board]:
    """The positions after every legal move of `board` that does not end the game."""
    return {child for c in board.legal_moves() if (child := board.play(c)).outcome() is None}


def build(size: int, k: int, max_ply: int) -> tuple[dict[Key, Entry], list[str]]:
    """The entries for one board up to `max_ply`, and comment lines on each ply built."""
    entries: dict[Key, Entry] = {}
    notes = []
    empty = Board.empty(size, k)
    levels = {0: {empty}, 1: replies(empty)}
    for ply in range(max_ply + 1):
        start = time.process_time()
        level = sorted(levels.pop(ply), key=lambda b: (b.x, b.o))
        following: set[Board] = set()
        for board in level:
            value, moves = trap_choices(board)
            canon = tuple(sorted(moves))
            entries[size, k, board.x, board.o] = (value, canon)
            if ply + 2 <= max_ply:
                for move in canon:
                    after = board.play(move)
                    if after.outcome() is None:
                        following |= replies(after)
        levels[ply + 2] = following
        spent = time.process_time() - start
        notes.append(
            f"# {size}x{size} k={k} ply {ply}: every position unbeatable can face, "
            f"{len(level)}, built in {spent:.1f} s of CPU"
        )
        print(notes[-1][2:], flush=True)
    return entries, notes


def write(path: Path, entries: dict[Key, Entry], notes: list[str]) -> None:
    lines = [
        "# The trap book: unbeatable's moves, weighed for traps without a time budget, written",
        "# by scripts/build_traps.py. size k board value moves (the positions as they stand).",
        *notes,
    ]
    for (size, k, x, o), (value, moves) in sorted(entries.items()):
        text = Board(size, k, x, o).to_string()
        lines.append(f"{size} {k} {text} {value} {','.join(str(m) for m in moves)}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def main() -> None:
    """Build the boards asked for and write the file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", default=[], help="size:k:max-ply")
    parser.add_argument("--out", type=Path, default=Path(TRAPS))
    args = parser.parse_args()
    entries: dict[Key, Entry] = {}
    notes: list[str] = []
    if args.out.exists():
        text = args.out.read_text(encoding="ascii")
        entries = parse(text)
        notes = [line for line in text.splitlines() if line.startswith("# ") and " ply " in line]
    for spec in args.board:
        size, k, max_ply = (int(v) for v in spec.split(":"))
        entries = {key: e for key, e in entries.items() if key[:2] != (size, k)}
        notes = [n for n in notes if not n.startswith(f"# {size}x{size} k={k} ")]
        built, built_notes = build(size, k, max_ply)
        entries.update(built)
        notes += built_notes
        write(args.out, entries, notes)
    print(f"{len(entries)} positions, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
