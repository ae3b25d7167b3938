"""Build the puzzle set (engine/data/puzzles.txt) from self-play and from random positions.

Candidates come from two sources on each board: every position of games between the gentler
levels (each side a random level, so games stray and mistakes leave forced wins), and positions
reached by random moves (where the solver often finds a single winning move). A candidate is kept
when the side to move wins with its N-th move (2 <= N <= 4) and no sooner, exactly one first move
wins that fast, and it is new up to symmetry; at most half of a board's puzzles are wins in 2.
Each kept puzzle is proven again before it is written, and carries its answers (its defence
tree, engine.puzzles.answers: every position an attempt can reach, each move's outcome there and
the hint), so that an attempt needs no search. The figures (time to prove, share kept, counts by
board and N, the difficulty histogram, the answers' time and size) are printed at the end, and
stated in the file's comment lines. With --answers-only the puzzles already in the file are kept
as they are and given their answers. With --check nothing is written: every puzzle's stored
answers are searched again and compared (the tests do every fourth), and any that differ named.

    python scripts/build_puzzles.py --per-board 300 --seed 1
    python scripts/build_puzzles.py --answers-only
    python scripts/build_puzzles.py --check
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from engine import LEVELS, Board, best_move
from engine.book import canonical
from engine.puzzles import answers, tree
from engine.puzzles.answers import with_answers
from engine.puzzles.collection import parse
from engine.puzzles.proof import Puzzle, difficulty, fastest, prove
from engine.search import SearchTimeout, solver

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "puzzles.txt"
BOARDS = ((4, 3), (4, 4), (5, 3), (5, 4))
GIVE_UP = 2.0  # seconds for one candidate; a slower one is skipped (none was, see the notes)


def self_play(size: int, k: int, rng: random.Random) -> Iterator[Board]:
    """Every running position of endless games between randomly chosen gentler levels."""
    while True:
        levels = {side: rng.choice(LEVELS[:3]) for side in "XO"}
        board = Board.empty(size, k)
        while board.outcome() is None:
            if board.ply >= 3:
                yield board
            board = board.play(best_move(board, level=levels[board.turn], rng=rng))


def random_play(size: int, k: int, rng: random.Random) -> Iterator[Board]:
    """Endless positions reached by 3 to 14 uniformly random moves."""
    while True:
        board = Board.empty(size, k)
        for _ in range(rng.randrange(3, 15)):
            if board.outcome() is not None:
                break
            board = board.play(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            yield board


def judge(board: Board) -> tuple[int, int] | None:
    """(N, the only fastest first move) if `board` is a puzzle, else None (also if too slow)."""
    s = solver(board.size, board.k)
    s.deadline = time.monotonic() + GIVE_UP
    try:
        found = fastest(board)
    except SearchTimeout:
        return None
    finally:
        s.deadline = None
    if found is None or found[0] < 2 or len(found[1]) != 1:
        return None
    return found[0], found[1][0]


def build(per_board: int, seed: int) -> tuple[list[Puzzle], list[str]]:
    """The puzzles and the figures, as comment lines."""
    rng = random.Random(seed)
    puzzles: list[Puzzle] = []
    notes = []
    for size, k in BOARDS:
        seen: set[Board] = set()
        candidates = 0
        start = time.perf_counter()
        sources = (self_play(size, k, rng), random_play(size, k, rng))
        kept = 0
        by_moves: Counter[int] = Counter()
        while kept < per_board:
            board = next(sources[candidates % 2])
            candidates += 1
            image = canonical(board)[0]
            if image in seen:
                continue
            seen.add(image)
            found = judge(board)
            if found is None:
                continue
            n, move = found
            if n == 2 and by_moves[2] >= per_board // 2:
                continue  # at most half the board's puzzles are wins in 2, the easiest kind
            by_moves[n] += 1
            pid = f"{size}{k}-{kept + 1:04d}"
            puzzles.append(Puzzle(pid, board, n, move, difficulty(board, move, n)))
            kept += 1
        took = time.perf_counter() - start
        notes.append(
            f"# {size}x{size} k={k}: {kept} kept of {candidates} candidates "
            f"({100 * kept / candidates:.1f}%, {len(seen)} distinct), {took:.1f} s"
        )
    return puzzles, notes


def figures(puzzles: list[Puzzle]) -> list[str]:
    """Proof times, counts by board and N, and the difficulty histogram, as comment lines."""
    times = []
    for puzzle in puzzles:
        for s in {(p.board.size, p.board.k) for p in puzzles}:
            solver(*s).table.clear()
        start = time.perf_counter()
        assert prove(puzzle), puzzle.id
        times.append(time.perf_counter() - start)
    times.sort()
    out = [
        f"# proof of one puzzle, tables cold: median {statistics.median(times) * 1e3:.1f} ms, "
        f"p99 {times[int(0.99 * (len(times) - 1))] * 1e3:.1f} ms, "
        f"worst {times[-1] * 1e3:.1f} ms; all {len(times)}: {sum(times):.1f} s"
    ]
    by = Counter((p.board.size, p.board.k, p.moves) for p in puzzles)
    for (size, k, n), count in sorted(by.items()):
        out.append(f"# {size}x{size} k={k} win in {n}: {count}")
    hist = Counter(p.difficulty // 100 * 100 for p in puzzles)
    for low, count in sorted(hist.items()):
        out.append(f"# difficulty {low}-{low + 99}: {count}")
    return out


def answered(puzzles: list[Puzzle]) -> tuple[list[Puzzle], str]:
    """The puzzles with their answers, and a comment line on the time and size they took."""
    start = time.process_time()
    out = [with_answers(p) for p in puzzles]
    size = sum(len(p.answers) for p in out)
    note = (
        f"# answers of all {len(out)} puzzles: {time.process_time() - start:.1f} s of CPU, "
        f"{size:,} bytes"
    )
    return out, note


def _same(puzzle: Puzzle) -> bool:
    """Whether the puzzle's stored answers are what the search gives it now."""
    try:
        return bool(puzzle.answers) and tree.parse(puzzle.answers) == tree.parse(answers(puzzle))
    except tree.TreeError:
        return False


def main() -> None:
    """Build, prove and write the set, printing the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-board", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--answers-only", action="store_true", help="answer the file's puzzles")
    parser.add_argument("--check", action="store_true", help="search every stored answer again")
    args = parser.parse_args()
    if args.check:
        shipped = parse(args.out.read_text("ascii"))
        wrong = [p.id for p in shipped if not _same(p)]
        print(
            f"{len(shipped) - len(wrong)} of {len(shipped)} puzzles: answers searched again, same"
        )
        if wrong:
            raise SystemExit(f"answers differ from the search's: {', '.join(wrong)}")
        return
    if args.answers_only:
        text = args.out.read_text("ascii")
        header = [line for line in text.splitlines() if line.startswith("#")]
        header = [
            "# id size k board moves solution difficulty answers"
            if line.startswith("# id ")
            else line
            for line in header
            if not line.startswith("# answers of all")
        ]
        puzzles, note = answered([replace(p, answers="") for p in parse(text)])
        lines = [*header, note, *(p.to_line() for p in puzzles)]
        args.out.write_text("\n".join(lines) + "\n", "ascii")
        print(note)
        return
    start = time.perf_counter()
    puzzles, notes = build(args.per_board, args.seed)
    notes.append(f"# built in {time.perf_counter() - start:.1f} s")
    notes += figures(puzzles)
    puzzles, note = answered(puzzles)
    notes.append(note)
    header = [
        f"# Puzzles: written by scripts/build_puzzles.py --per-board {args.per_board} "
        f"--seed {args.seed}",
        "# id size k board moves solution difficulty answers",
        *notes,
    ]
    args.out.write_text("\n".join(header + [p.to_line() for p in puzzles]) + "\n", "ascii")
    print("\n".join(notes))


if __name__ == "__main__":
    main()
