"""Build the opening book (engine/data/book.txt): exact values and optimal moves of early positions.

Each entry keeps the exact value and every optimal move.

For each (size, k) it walks every position up to the symmetry of the square, ply by ply, solves
each with a cold table (so the recorded time is what a fresh process would pay) on every core, and
keeps the positions whose solve took at least --min-seconds. It stops at --max-ply or when the time
budget runs out, and writes only whole plies, so the book's coverage is exact: the summary lines
at the top of the file say which plies are complete and the slowest solve left outside the book.

    python scripts/build_book.py --board 5:4 --board 5:5 --max-ply 3 --budget 1800
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

from engine.api import _exact, _move_value, _relative, _sides
from engine.board import Board
from engine.book import canonical
from engine.search import solver

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "book.txt"


def _children(board: Board) -> set[Board]:
    out = set()
    for cell in board.legal_moves():
        child = board.play(cell)
        if child.outcome() is None:
            out.add(canonical(child)[0])
    return out


def _solve(board: Board) -> tuple[str, int, list[int], float]:
    s = solver(board.size, board.k)
    s.table.clear()
    start = time.perf_counter()
    me, opp = _sides(board)
    best = _exact(s, me, opp)
    found = [c for c in board.legal_moves() if _move_value(s, me, opp, c, best - 1, best) >= best]
    return board.to_string(), _relative(best, board.ply), sorted(found), time.perf_counter() - start


def main() -> None:
    """Build the book within the time budget and print what it covers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", default=[], help="size:k, repeatable")
    parser.add_argument("--max-ply", type=int, default=3)
    parser.add_argument("--min-seconds", type=float, default=0.0)
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds for the whole build")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    stop = time.monotonic() + args.budget
    header: list[str] = []
    body: list[str] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for spec in args.board or ["5:4", "5:5"]:
            size, k = (int(n) for n in spec.split(":"))
            level = {canonical(Board.empty(size, k))[0]}
            for ply in range(args.max_ply + 1):
                rows: list[str] = []
                worst_out = 0.0
                results = pool.imap_unordered(_solve, sorted(level, key=lambda b: (b.x, b.o)))
                timed_out = False
                for text, value, moves, seconds in results:
                    if time.monotonic() > stop:
                        timed_out = True
                        pool.terminate()
                        break
                    if seconds >= args.min_seconds:
                        rows.append(f"{size} {k} {text} {value} {','.join(map(str, moves))}")
                    else:
                        worst_out = max(worst_out, seconds)
                if timed_out:
                    header.append(f"# {size}x{size} k={k}: ply {ply} incomplete, not included")
                    break
                body.extend(sorted(rows))
                header.append(
                    f"# {size}x{size} k={k}: ply {ply} complete: {len(level)} positions, "
                    f"{len(rows)} kept, slowest left out {worst_out:.2f} s"
                )
                print(header[-1], flush=True)
                level = {c for b in level for c in _children(b)}
            if timed_out:
                break
    # Keep the other boards' entries already in the file; replace this run's boards.
    done = {tuple(spec.split(":")) for spec in args.board or ["5:4", "5:5"]}
    kept_header: list[str] = []
    kept_body: list[str] = []
    if OUT.exists():
        for line in OUT.read_text(encoding="ascii").splitlines():
            if line.startswith("#"):
                size_k = line.split()[1].split("x")[0], line.split()[2].rstrip(":")[2:]
                if size_k not in done:
                    kept_header.append(line)
            elif tuple(line.split()[:2]) not in done:
                kept_body.append(line)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = [*kept_header, *header, *kept_body, *body]
    OUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(body)} positions to {OUT.name}")


if __name__ == "__main__":
    main()
