"""Engine speed and memory, measured (not asserted); prints one report.

- 3x3: best_move on the empty board and over every reachable position (warm median and p99), the
  first call in a fresh process (tables included), and a naive minimax of the classic tutorial
  kind (full tree, no pruning, no memo, 10 minus depth) on the same positions, with the ratio.
- 4x4 and 5x5, every k: time per move (best_move at "unbeatable", no deadline: median, p99,
  worst) in games from the empty board and from random positions against a random player, and in
  games of the engine against itself from the empty board; how many took over 1 s, and
  how many were cut at the engine's move budget (the best move found so far, not proven).
- The first 5x5 k=4 move in a fresh process (import, opening book and move).
- Review cost: evaluate and classify on every position of one played 5x5 game (k=4 and k=5),
  and analyse where the opponent was to move; evaluate on every position of 5x5 k=4 games
  between random players (off the engine's lines, as in a game between people).
- Memory the engine keeps warm (tracemalloc, in a fresh process).

    python benchmarks/engine/engine_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.naive_engine import naive_move
from engine import Board, analyse, best_move, classify, evaluate
from engine import play as engine_play


def reachable() -> list[Board]:
    """Every running reachable 3x3 position."""
    seen: set[Board] = set()
    stack = [Board.empty()]
    while stack:
        board = stack.pop()
        if board in seen or board.outcome() is not None:
            continue
        seen.add(board)
        stack.extend(board.play(c) for c in board.legal_moves())
    return sorted(seen, key=lambda b: (b.ply, b.x, b.o))


def timed(fn: object, board: Board, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(board)  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:,.1f} ms"


def bench_3x3(quick: bool) -> None:
    positions = reachable()
    empty = Board.empty()
    rng = random.Random(1)
    best_move(empty)  # warm the table
    empty_times = timed(lambda b: best_move(b, rng=rng), empty, 20_000 if not quick else 2_000)
    all_times = [t for b in positions for t in timed(lambda b: best_move(b, rng=rng), b, 5)]
    print(
        f"3x3 warm best_move, empty board: median {us(statistics.median(empty_times))}, "
        f"p99 {us(pct(empty_times, 0.99))}"
    )
    print(
        f"3x3 warm best_move, all {len(positions)} positions x5: median "
        f"{us(statistics.median(all_times))}, p99 {us(pct(all_times, 0.99))}, "
        f"worst {us(max(all_times))}"
    )
    naive_empty = timed(naive_move, empty, 1 if quick else 3)
    sample = positions[::25] if quick else positions
    start = time.perf_counter()
    for b in sample:
        naive_move(b)
    naive_total = time.perf_counter() - start
    start = time.perf_counter()
    for b in sample:
        best_move(b, rng=rng)
    engine_total = time.perf_counter() - start
    ne, ee = statistics.median(naive_empty), statistics.median(empty_times)
    print(f"naive minimax, empty board: {us(ne)}; engine {us(ee)}: ratio {ne / ee:,.0f}x")
    print(
        f"naive minimax over {len(sample)} positions: {naive_total:.2f} s; engine "
        f"{us(engine_total)}: ratio {naive_total / engine_total:,.0f}x"
    )
    code = (
        "import time; t = time.perf_counter(); import engine; "
        "engine.best_move(engine.Board.empty()); print(time.perf_counter() - t)"
    )
    firsts = []
    walls = []
    for _ in range(3 if quick else 7):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        firsts.append(float(out.stdout))
    print(
        f"3x3 first call in a fresh process (import + table + move): median "
        f"{us(statistics.median(firsts))}, worst {us(max(firsts))}; whole process incl. "
        f"interpreter start: median {us(statistics.median(walls))}"
    )


CUTS = [0]  # moves where the search ran out of time and the engine played its fallback


def _count_cuts() -> None:
    original = engine_play._fallback

    def counting(board: Board) -> int:
        CUTS[0] += 1
        return original(board)

    engine_play._fallback = counting


def bench_big(size: int, k: int, games: int, randoms: int, selfplay: int) -> None:
    """Exact engine moves against a random player, from the empty board and from random starts.

    From the empty board the engine plays its own lines (as X or as O), which the opening book
    and the solver cover exactly. A random start can be any position: where neither the book nor
    the solver settles it within the 0.9 s move budget, the engine plays the best move found so
    far; those moves are counted as "cut". Games of the engine against itself (both sides
    unbeatable, with random tie-breaks) keep the position balanced to the end, the hardest case on
    the engine's own lines.
    """
    rng = random.Random(size * 10 + k)
    starts: list[tuple[str, Board]] = [("empty board", Board.empty(size, k))] * games
    for _ in range(randoms):
        board = Board.empty(size, k)
        for _ in range(rng.randrange(2, size * size // 2)):
            if board.outcome() is not None:
                break
            board = board.play(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            starts.append(("random positions", board))
    starts += [("empty board, self-play", Board.empty(size, k))] * selfplay
    for label in ("empty board", "random positions", "empty board, self-play"):
        times: list[float] = []
        CUTS[0] = 0
        for _, board in (s for s in starts if s[0] == label):
            engine_side = board.turn if rng.random() < 0.5 else ("O" if board.turn == "X" else "X")
            while board.outcome() is None:
                if board.turn == engine_side or label.endswith("self-play"):
                    t = time.perf_counter()
                    cell = best_move(board, rng=rng)
                    times.append(time.perf_counter() - t)
                else:
                    cell = rng.choice(board.legal_moves())
                board = board.play(cell)
        slow = sum(t > 1.0 for t in times)
        cut = CUTS[0]
        print(
            f"| {size}x{size} k={k} | {label} | {len(times)} | {us(statistics.median(times))} | "
            f"{us(pct(times, 0.99))} | {us(max(times))} | {slow} | {cut} |"
        )


def first_big_move(size: int, k: int) -> None:
    """The first move on an empty big board in a fresh process (import, book and move)."""
    code = (
        "import time; t = time.perf_counter(); import engine; "
        f"engine.best_move(engine.Board.empty({size}, {k})); print(time.perf_counter() - t)"
    )
    firsts = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        firsts.append(float(out.stdout))
    print(
        f"{size}x{size} k={k} first move in a fresh process (import + book + move): median "
        f"{us(statistics.median(firsts))}, worst {us(max(firsts))}"
    )


def review(size: int, k: int) -> None:
    """A post-game review and hints: engine (X) against a random player, one game.

    evaluate and classify on every position of the game (what a review reads), and analyse on
    the positions where the random player was to move (what a hint, or a review naming a better
    move, reads).
    """
    rng = random.Random(7)
    board = Board.empty(size, k)
    positions = []
    while board.outcome() is None:
        positions.append(board)
        move = best_move(board, rng=rng) if board.turn == "X" else rng.choice(board.legal_moves())
        board = board.play(move)
    times = []
    ctimes = []
    for b in positions:
        t = time.perf_counter()
        evaluate(b)
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        classify(b)
        ctimes.append(time.perf_counter() - t)
    atimes = []
    for b in positions:
        if b.turn == "O":
            t = time.perf_counter()
            analyse(b)
            atimes.append(time.perf_counter() - t)
    print(
        f"review {size}x{size} k={k}: evaluate on {len(positions)} positions {sum(times):.2f} s "
        f"(worst {us(max(times))}); classify {sum(ctimes):.2f} s (worst {us(max(ctimes))}); "
        f"analyse where the opponent moves: {', '.join(us(t) for t in atimes)}"
    )


def review_any_game(size: int, k: int, games: int) -> None:
    """evaluate and classify on every position of games between two random players.

    Such games leave the engine's lines at once: this is the review of a game between people.
    """
    rng = random.Random(9)
    times: list[float] = []
    ctimes: list[float] = []
    for _ in range(games):
        board = Board.empty(size, k)
        while board.outcome() is None:
            # classify first: it pays the win/draw/loss search that evaluate would then reuse.
            t = time.perf_counter()
            classify(board)
            ctimes.append(time.perf_counter() - t)
            t = time.perf_counter()
            evaluate(board)
            times.append(time.perf_counter() - t)
            board = board.play(rng.choice(board.legal_moves()))
    print(
        f"review of {games} games between random players, {size}x{size} k={k}, "
        f"{len(times)} positions: classify median {us(statistics.median(ctimes))}, p99 "
        f"{us(pct(ctimes, 0.99))}, worst {us(max(ctimes))}; then evaluate median "
        f"{us(statistics.median(times))}, p99 {us(pct(times, 0.99))}, worst {us(max(times))}; "
        f"both: worst {us(max(a + b for a, b in zip(times, ctimes, strict=True)))}"
    )


def memory() -> None:
    code = """
import tracemalloc, random, time
tracemalloc.start()
import engine
rng = random.Random(0)
for size, k in [(3, 3), (4, 3), (4, 4), (5, 3), (5, 4), (5, 5)]:
    for _ in range(3):
        b = engine.Board.empty(size, k)
        while b.outcome() is None:
            b = b.play(engine.best_move(b, rng=rng, deadline=time.monotonic() + 1.0))
current, peak = tracemalloc.get_traced_memory()
print(current / 1e6, peak / 1e6)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    current, peak = (float(v) for v in out.stdout.split())
    print(
        f"memory kept warm after games on every board (tracemalloc): {current:.1f} MB "
        f"(peak {peak:.1f} MB)"
    )


def main() -> None:
    """Run every measurement and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and games")
    args = parser.parse_args()
    bench_3x3(args.quick)
    _count_cuts()
    print(
        "\n| board | games from | engine moves (no deadline) | median | p99 | worst | over 1 s "
        "| cut at the budget |"
    )
    print("|---|---|---|---|---|---|---|---|")
    games, randoms, selfplay = (2, 3, 1) if args.quick else (20, 60, 20)
    for size, k in [(4, 3), (4, 4), (5, 3), (5, 4), (5, 5)]:
        bench_big(size, k, games, randoms, selfplay)
    print()
    first_big_move(5, 4)
    review(5, 4)
    review(5, 5)
    review_any_game(5, 4, 2 if args.quick else 10)
    memory()


if __name__ == "__main__":
    main()
