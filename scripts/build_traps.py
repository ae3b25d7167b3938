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

A board given again replaces that board's entries; the others are kept. ``--extend size:k:ply``
keeps a board's plies built and adds the later ones up to `ply` (4x4 k=4's plies 6 and 7:
``--extend 4:4:7``).
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


def faced_at(entries: dict[Key, Entry], size: int, k: int, ply: int) -> set[Board]:
    """The positions unbeatable can face at `ply` after the book's moves two plies before."""
    out: set[Board] = set()
    for (s, kk, x, o), (_, moves) in entries.items():
        board = Board(s, kk, x, o)
        if (s, kk) == (size, k) and board.ply == ply - 2:
            for move in moves:
                if (after := board.play(move)).outcome() is None:
                    out |= replies(after)
    return out


def build(
    size: int, k: int, max_ply: int, kept: dict[Key, Entry] | None = None, first: int = 0
) -> tuple[dict[Key, Entry], list[str]]:
    """The entries for one board from ply `first` (the plies before it `kept`) up to
    `max_ply`, and comment lines on each ply built."""
    entries: dict[Key, Entry] = {}
    notes = []
    empty = Board.empty(size, k)
    levels = {0: {empty}, 1: replies(empty)}
    if first > 0:
        assert kept is not None
        levels = {ply: faced_at(kept, size, k, ply) for ply in (first, first + 1)}
    for ply in range(first, max_ply + 1):
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
    parser.add_argument(
        "--extend",
        action="append",
        default=[],
        help="size:k:max-ply: keep the board's plies built and build the later ones",
    )
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
    for spec in args.extend:
        size, k, max_ply = (int(v) for v in spec.split(":"))
        done = [
            int(n.split(" ply ")[1].split(":")[0])
            for n in notes
            if n.startswith(f"# {size}x{size} k={k} ply ")
        ]
        built, built_notes = build(size, k, max_ply, entries, max(done, default=-1) + 1)
        entries.update(built)
        notes += built_notes
        write(args.out, entries, notes)
    print(f"{len(entries)} positions, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
