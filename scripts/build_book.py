"""Build the opening book (engine/data/book.txt) for the engine's own lines on a big board.

The book covers every position the unbeatable engine can face early in a game, up to symmetry:
as X, the empty board and, ply by ply, every reply of the opponent to the engine's book move; as O,
every first move of the opponent and so on. For each position where the engine is to move it
records the exact value and the engine's move (the first optimal move in the solver's order), and
for the position after that move its exact value, so that `evaluate` and `analyse` are lookups
there too (a post-game review or a hint reads them).

Each line reads ``size k board-text value cells``: the board in canonical form (the least of its
eight symmetric images), its exact value, and the engine's moves in that frame (one, or the chosen
first moves on the empty board); or ``size k board-text value -`` where the book keeps only the
value (the opponent is to move, or the position is off the engine's lines). Lines are appended
as they are solved, so a build that runs out of its time budget, or is stopped, keeps its work,
and a later run resumes where it ended. A comment line is written when a ply is complete; those
lines state the book's coverage exactly.

With --values-to-ply it then adds the exact value (no move) of every position up to that ply,
whoever is to move, for reviews and hints of any game.

    nice -n 19 python scripts/build_book.py --board 5:4 --max-ply 6 --values-to-ply 3 \
        --first-moves 12,6,7 --budget 3600
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from engine.api import _exact, _move_value, _relative, _sides, ranked_moves
from engine.board import Board
from engine.book import canonical, replies
from engine.search import solver, trim_tables

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "book.txt"

Known = dict[tuple[int, int, int, int], tuple[int, tuple[int, ...]]]


def solve(board: Board) -> tuple[int, int]:
    """The exact value of a running `board` (engine.evaluate's scale) and its first optimal move.

    The solver keeps its table between calls (warm), which is what makes a whole ply affordable.
    """
    s = solver(board.size, board.k)
    trim_tables()
    me, opp = _sides(board)
    best = _exact(s, me, opp)
    for cell in ranked_moves(s, me, opp):
        if _move_value(s, me, opp, cell, best - 1, best) >= best:
            return _relative(best, board.ply), cell
    raise AssertionError("no move reaches the position's value")


def is_optimal(board: Board, cell: int) -> bool:
    """Whether `cell` is an optimal move of the running `board`."""
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    best = _exact(s, me, opp)
    return _move_value(s, me, opp, cell, best - 1, best) >= best


def after_value(value: int) -> int:
    """The value, for the opponent, of the position after an optimal move from one of `value`."""
    return -value - (value > 0) + (value < 0)


def read_known(path: Path) -> Known:
    """The entries already in the book file: (size, k, x, o) -> (value, moves)."""
    known: Known = {}
    if not path.exists():
        return known
    for raw in path.read_text(encoding="ascii").splitlines():
        if not raw or raw.startswith("#"):
            continue
        size, k, text, value, move = raw.split()
        b = Board.from_string(text, int(k))
        moves = () if move == "-" else tuple(int(m) for m in move.split(","))
        known[(int(size), int(k), b.x, b.o)] = (int(value), moves)
    return known


def _noted(out: Path, pattern: str) -> set[int]:
    """The plies that the file's comment lines matching `pattern` (one group) say are complete."""
    if not out.exists():
        return set()
    return {int(p) for p in re.findall(pattern, out.read_text(encoding="ascii"), re.M)}


def tree_level(size: int, k: int, known: Known, ply: int) -> set[Board]:
    """The canonical positions where the engine is to move at `ply`, following the book's moves.

    Needs the book's move for every such position at the earlier plies of the same parity.
    """
    empty = Board.empty(size, k)
    level = {canonical(empty)[0]} if ply % 2 == 0 else replies(empty)
    for _ in range(ply // 2):
        following: set[Board] = set()
        for board in level:
            entry = known.get((size, k, board.x, board.o))
            if entry is None or not entry[1]:
                raise SystemExit(f"the book lacks {board.to_string()}: build it first")
            for move in entry[1]:
                after = canonical(board.play(move))[0]
                if after.outcome() is None:
                    following |= replies(after)
        level = following
    return level


def check(size: int, k: int, ply: int, out: Path) -> None:
    """Time a cold solve (empty tables) of every position the engine can face at `ply`."""
    known = read_known(out)
    level = sorted(tree_level(size, k, known, ply), key=lambda b: (b.x, b.o))
    s = solver(size, k)
    times = []
    for board in level:
        s.table.clear()
        s.pairing.cache.clear()
        start = time.perf_counter()
        solve(board)
        times.append((time.perf_counter() - start, board.to_string()))
    times.sort()
    median = times[len(times) // 2][0]
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))][0]
    print(
        f"{size}x{size} k={k} ply {ply}: {len(times)} positions solved cold: median "
        f"{median * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms, slowest {times[-1][0] * 1e3:.1f} ms "
        f"({times[-1][1]})",
        flush=True,
    )


def set_first_moves(size: int, k: int, first: tuple[int, ...], out: Path) -> None:
    """Make `first` the engine's first moves on the empty board, each checked to be optimal.

    The book's line for the empty board is rewritten in place; the build then covers the
    engine's lines after each of these moves.
    """
    empty = canonical(Board.empty(size, k))[0]
    for cell in first:
        if not is_optimal(empty, cell):
            raise SystemExit(f"{cell} is not an optimal first move")
    value = solve(empty)[0]
    line = f"{size} {k} {empty.to_string()} {value} {','.join(map(str, first))}"
    prefix = f"{size} {k} {empty.to_string()} "
    notes = f"# {size}x{size} k={k}: ply "  # the coverage of the engine's lines changes
    lines = out.read_text(encoding="ascii").splitlines() if out.exists() else []
    kept = [raw for raw in lines if not raw.startswith((prefix, notes))]
    out.write_text("\n".join([line, *kept]) + "\n", encoding="ascii")


def build(size: int, k: int, max_ply: int, stop: float, out: Path) -> None:
    """Extend the book for (size, k) ply by ply until `max_ply` or the `stop` time."""
    known = read_known(out)
    noted = _noted(out, rf"^# {size}x{size} k={k}: ply (\d+) complete")
    empty = Board.empty(size, k)
    levels: dict[int, set[Board]] = {0: {canonical(empty)[0]}, 1: replies(empty)}
    with out.open("a", encoding="ascii") as f:

        def write(board: Board, value: int, moves: tuple[int, ...]) -> None:
            known[(size, k, board.x, board.o)] = (value, moves)
            mark = ",".join(map(str, moves)) or "-"
            f.write(f"{size} {k} {board.to_string()} {value} {mark}\n")
            f.flush()

        for ply in range(max_ply + 1):
            level = sorted(levels.pop(ply, set()), key=lambda b: (b.x, b.o))
            slowest = 0.0
            start = time.monotonic()
            following: set[Board] = set()
            solved = 0
            for n, board in enumerate(level):
                entry = known.get((size, k, board.x, board.o))
                if entry is None or not entry[1]:
                    if time.monotonic() > stop:
                        note = f"# {size}x{size} k={k}: ply {ply} incomplete: {n} of {len(level)}"
                        f.write(note + "\n")
                        print(note, flush=True)
                        return
                    t = time.perf_counter()
                    value, move = solve(board)
                    slowest = max(slowest, time.perf_counter() - t)
                    moves: tuple[int, ...] = (move,)
                    write(board, value, moves)
                    solved += 1
                else:
                    value, moves = entry
                for move in moves:
                    after = canonical(board.play(move))[0]
                    if after.outcome() is not None:
                        continue
                    if (size, k, after.x, after.o) not in known:
                        write(after, after_value(value), ())
                    following |= replies(after)
            levels[ply + 2] = following
            if not solved and ply in noted:
                continue
            note = (
                f"# {size}x{size} k={k}: ply {ply} complete: {len(level)} positions to move, "
                f"slowest solve {slowest:.2f} s, {time.monotonic() - start:.0f} s"
            )
            f.write(note + "\n")
            print(note, flush=True)


def build_values(size: int, k: int, max_ply: int, stop: float, out: Path) -> None:
    """Add the exact value of every position (up to symmetry) up to `max_ply`, whoever moves.

    With these, `evaluate` and `classify` are lookups on those plies in any game (a review of a
    game between people, or against a level that strays from the book), and `analyse` and
    `best_move` read every move's value from the next ply.
    """
    known = read_known(out)
    noted = _noted(out, rf"^# {size}x{size} k={k}: values at ply (\d+) complete")
    level = {canonical(Board.empty(size, k))[0]}
    with out.open("a", encoding="ascii") as f:
        for ply in range(max_ply + 1):
            ordered = sorted(level, key=lambda b: (b.x, b.o))
            solved = 0
            slowest = 0.0
            start = time.monotonic()
            for n, board in enumerate(ordered):
                if (size, k, board.x, board.o) in known:
                    continue
                if time.monotonic() > stop:
                    where = f"values at ply {ply} incomplete: {n} of {len(ordered)}"
                    note = f"# {size}x{size} k={k}: {where}"
                    f.write(note + "\n")
                    print(note, flush=True)
                    return
                s = solver(size, k)
                trim_tables()
                me, opp = _sides(board)
                t = time.perf_counter()
                value = _relative(_exact(s, me, opp), board.ply)
                slowest = max(slowest, time.perf_counter() - t)
                known[(size, k, board.x, board.o)] = (value, ())
                f.write(f"{size} {k} {board.to_string()} {value} -\n")
                f.flush()
                solved += 1
            if solved or ply not in noted:
                note = (
                    f"# {size}x{size} k={k}: values at ply {ply} complete: every one of "
                    f"{len(level)} positions, slowest solve {slowest:.2f} s, "
                    f"{time.monotonic() - start:.0f} s"
                )
                f.write(note + "\n")
                print(note, flush=True)
            level = {c for b in level for c in replies(b)}


def main() -> None:
    """Build or extend the book within the time budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", default=[], help="size:k, repeatable")
    parser.add_argument("--max-ply", type=int, default=5)
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds for the whole build")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--first-moves",
        default="",
        help="the engine's first moves on the empty "
        "board, comma-separated cells (default: the solver's first optimal move); "
        "rewrites the empty board's line",
    )
    parser.add_argument(
        "--values-to-ply",
        type=int,
        default=-1,
        help="after the engine's lines, add the value of every position up to this ply",
    )
    parser.add_argument(
        "--check-ply",
        type=int,
        action="append",
        default=[],
        help="instead of "
        "building, time a cold solve of every position the engine can face at "
        "this ply (repeatable)",
    )
    args = parser.parse_args()
    if args.check_ply:
        for spec in args.board or ["5:4"]:
            size, k = (int(n) for n in spec.split(":"))
            for ply in args.check_ply:
                check(size, k, ply, args.out)
        return
    stop = time.monotonic() + args.budget
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for spec in args.board or ["5:4"]:
        size, k = (int(n) for n in spec.split(":"))
        if args.first_moves:
            first = tuple(int(c) for c in args.first_moves.split(","))
            set_first_moves(size, k, first, args.out)
        build(size, k, args.max_ply, stop, args.out)
        if args.values_to_ply >= 0:
            build_values(size, k, args.values_to_ply, stop, args.out)


if __name__ == "__main__":
    main()
