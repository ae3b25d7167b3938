"""Ultimate tic-tac-toe: the engine's strength and speed against an independent UCT baseline.

Measured, not asserted; Markdown tables on stdout, progress on stderr. The baseline is a plain UCT
search in C (devkit/ultimate_match/uct.c: random playouts, UCB1 with C = 2, a fresh tree each
move, the most visited move), compiled on first use into devkit/ultimate_match/.build/. Before
any games, both sides' rules are compared on random games at every ply (and again in every game
played); a mismatch stops the run.

- mcts: the engine at --level, with `deadline = time.monotonic() + --time` each move, against
  UCT at --sims simulations a move; sides alternate (the engine is X in even games). CPU a move
  is time.process_time() around best_move in the game's process (its threads included).
- ladder: each level against the next one up, sides alternating; the stronger level's score.
- speed: time a move (CPU and wall) of every level, and of UCT, on positions taken from games
  of UCT against itself; the strongest level's nodes a second and depth (engine's analyse).

    python benchmarks/ultimate/ultimate.py --mode mcts --sims 10000 --games 100 --time 1 --workers 2
    python benchmarks/ultimate/ultimate.py --mode ladder --games 200
    python benchmarks/ultimate/ultimate.py --mode speed
    python benchmarks/ultimate/ultimate.py --mode mcts --quick
    python benchmarks/ultimate/ultimate.py --mode mcts --python --games 20   # the search in Python
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from devkit.ultimate_match import games as match
from devkit.ultimate_match.games import Game, Player, pct
from devkit.ultimate_match.uct import Uct
from engine.ultimate import LEVELS, UltimateBoard

QUICK = {"games": 4, "sims": 1000, "time": 0.2, "check_games": 40, "positions": 12}


def ms(seconds: float) -> str:
    if seconds >= 10:
        return f"{seconds:,.1f} s"
    return f"{seconds * 1000:,.{2 if seconds < 0.001 else 1}f} ms"


def score_cell(scores: Sequence[float]) -> str:
    """Mean score in percent with a 95% margin and the games count."""
    if not scores:
        return "-"
    mean = statistics.fmean(scores)
    margin = 1.96 * statistics.pstdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
    return f"{100 * mean:.1f}% ± {100 * margin:.1f} ({len(scores)})"


def tally(games: Sequence[Game], hero: Player) -> list[str]:
    """Table cells for `hero` over `games`: W/D/L, score, score as X and as O, average plies."""
    scores: dict[str, list[float]] = {"X": [], "O": []}
    wins = draws = losses = 0
    for game in games:
        side = "X" if game.x == hero else "O"
        score = 0.5 if game.winner is None else float(game.winner == side)
        scores[side].append(score)
        wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
    plies = statistics.fmean(len(g.moves) for g in games) if games else float("nan")
    return [
        f"{wins} / {draws} / {losses}",
        score_cell(scores["X"] + scores["O"]),
        score_cell(scores["X"]),
        score_cell(scores["O"]),
        f"{plies:.1f}",
    ]


TIME_HEAD = (
    "| player | moves | CPU p50 | CPU p99 | CPU max | wall p50 | wall p99 | wall max "
    "| CPU > 1 s | CPU / wall |\n|---|---|---|---|---|---|---|---|---|---|"
)


def time_row(name: str, cpu: Sequence[float], wall: Sequence[float]) -> str:
    """Percentiles of a player's CPU and wall seconds a move, the moves over 1 s of CPU, and
    CPU over wall (well under 1: the machine was busy and a deadline bought less search)."""
    over = sum(1 for t in cpu if t > 1.0)
    cells = [pct(cpu, 0.5), pct(cpu, 0.99), max(cpu, default=0.0)]
    cells += [pct(wall, 0.5), pct(wall, 0.99), max(wall, default=0.0)]
    share = sum(cpu) / sum(wall) if sum(wall) > 0 else float("nan")
    times = " | ".join(ms(c) for c in cells)
    return f"| {name} | {len(cpu)} | {times} | {over} | {share:.2f} |"


def time_table(rows: Sequence[tuple[str, Sequence[float], Sequence[float]]]) -> None:
    """The time table, and a note when some player got well under a whole CPU while it moved."""
    print(TIME_HEAD)
    for name, cpu, wall in rows:
        print(time_row(name, cpu, wall))
    busy = [name for name, cpu, wall in rows if sum(wall) > 1 and sum(cpu) < 0.9 * sum(wall)]
    if busy:
        print(
            f"\nCPU / wall under 0.9 for {', '.join(busy)}: the machine was busy, so a deadline "
            "bought less search than on a quiet machine (fewer --workers, or a quieter machine)."
        )


def check_rules(args: argparse.Namespace, uct: Uct) -> None:
    started = time.perf_counter()
    report = match.cross_check(args.check_games, args.seed, uct)
    match.progress(
        f"rules cross-check: {report.games} random games, {report.plies} plies, results "
        f"{report.results}, {report.sent_to_closed} sends to a closed board: all agree "
        f"({time.perf_counter() - started:.1f} s)"
    )
    args.checked = report


def run_games(
    args: argparse.Namespace, tasks: list[tuple[int, Player, Player]], heroes: dict[int, Player]
) -> list[Game]:
    started, done = time.perf_counter(), [0]
    points: dict[tuple[Player, Player], list[float]] = {}

    def on_game(game: Game) -> None:
        hero = heroes[game.index]
        side = "X" if game.x == hero else "O"
        done[0] += 1
        mine = points.setdefault((game.x, game.o) if side == "X" else (game.o, game.x), [])
        mine.append(0.5 if game.winner is None else float(game.winner == side))
        match.progress(
            f"[{done[0]}/{len(tasks)}] game {game.index}: {match.label(game.x)} (X) v "
            f"{match.label(game.o)} (O): {game.winner or 'draw'} in {len(game.moves)} plies; "
            f"{match.label(hero)} {100 * statistics.fmean(mine):.1f}% of {len(mine)} so far, "
            f"{time.perf_counter() - started:.0f} s"
        )

    return match.play_games(
        tasks, args.seed, args.time, args.workers, args.build_dir, on_game=on_game
    )


def header(args: argparse.Namespace, games: int, elapsed: float) -> None:
    checked = args.checked
    print(
        f"{games} games, sides alternating, seed {args.seed}, {args.workers} worker process(es) "
        f"on {os.cpu_count()} CPUs, {elapsed / 60:.1f} min. Rules cross-checked against the "
        f"baseline on {checked.games} random games ({checked.plies} plies) and at every ply of "
        "every game.\n"
    )


def mode_mcts(args: argparse.Namespace) -> None:
    hero: Player = ("python" if args.python else "level", args.level)
    uct: Player = ("uct", args.sims)
    tasks = [(i, hero, uct) if i % 2 == 0 else (i, uct, hero) for i in range(args.games)]
    started = time.perf_counter()
    games = run_games(args, tasks, dict.fromkeys(range(args.games), hero))
    name = match.label(hero)
    print(f"### Engine `{name}` ({args.time:g} s a move) vs UCT, {args.sims:,} simulations\n")
    header(args, len(games), time.perf_counter() - started)
    print("| engine | opponent | W / D / L | score | as X | as O | avg plies |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {name} | {match.label(uct)} | " + " | ".join(tally(games, hero)) + " |\n")
    time_table([(match.label(who), *match.times_of(games, who)) for who in (hero, uct)])


def mode_ladder(args: argparse.Namespace) -> None:
    pairs = list(itertools.pairwise(LEVELS))
    tasks: list[tuple[int, Player, Player]] = []
    heroes: dict[int, Player] = {}
    for p, (weak, strong) in enumerate(pairs):
        for g in range(args.games):
            index = p * args.games + g
            a, b = ("level", strong), ("level", weak)
            tasks.append((index, a, b) if g % 2 == 0 else (index, b, a))
            heroes[index] = a
    started = time.perf_counter()
    games = run_games(args, tasks, heroes)
    print(f"### Level ladder ({args.time:g} s deadline a move)\n")
    header(args, len(games), time.perf_counter() - started)
    print("| stronger | weaker | W / D / L | score | as X | as O | avg plies |")
    print("|---|---|---|---|---|---|---|")
    for p, (weak, strong) in enumerate(pairs):
        mine = [g for g in games if g.index // args.games == p]
        print(f"| {strong} | {weak} | " + " | ".join(tally(mine, ("level", strong))) + " |")
    print()
    time_table([(level, *match.times_of(games, ("level", level))) for level in LEVELS])


def mode_speed(args: argparse.Namespace) -> None:
    uct = Uct(args.build_dir)
    sample = match.sample_positions(uct, args.sample_games, args.sims, args.positions, args.seed)
    boards = []
    for moves in sample:
        board = UltimateBoard.empty()
        for cell in moves:
            board = board.play(cell)
        boards.append(board)
    print(
        f"### Time a move over {len(sample)} positions (plies {min(map(len, sample))}-"
        f"{max(map(len, sample))}, from {args.sample_games} games of UCT {args.sims:,} "
        f"against itself), deadline {args.time:g} s\n"
    )
    rows: list[tuple[str, list[float], list[float]]] = []
    rng = random.Random(args.seed)
    for level in LEVELS:
        cpu, wall = [], []
        for board in boards:
            _, spent, waited = match.engine_move(board, level, rng, args.time)
            cpu.append(spent)
            wall.append(waited)
        match.progress(f"{level}: CPU p50 {ms(pct(cpu, 0.5))}, max {ms(max(cpu))}")
        rows.append((level, cpu, wall))
    for sims in args.uct_sims:
        cpu, wall = [], []
        for i, moves in enumerate(sample):
            spent, waited = time.process_time(), time.perf_counter()
            uct.move(moves, sims, match.seed_of(args.seed, "speed", i))
            cpu.append(time.process_time() - spent)
            wall.append(time.perf_counter() - waited)
        rows.append((match.label(("uct", sims)), cpu, wall))
    time_table(rows)
    match.search_rates(args.time, boards, rng)


def sims_list(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options, check the rules, run the mode and print its tables."""
    first, _, rest = __doc__.partition("\n")
    parser = argparse.ArgumentParser(
        description=first, epilog=rest, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mode", choices=("mcts", "ladder", "speed"), default="mcts")
    parser.add_argument("--games", type=int, help="games; in ladder, per pair (100 / 200)")
    parser.add_argument("--sims", type=int, help="UCT simulations a move (10000)")
    parser.add_argument("--time", type=float, help="engine deadline a move, seconds (1.0)")
    parser.add_argument("--level", default=LEVELS[-1], choices=LEVELS, help="engine level (mcts)")
    parser.add_argument("--workers", type=int, default=2, help="game processes (1: in this one)")
    parser.add_argument(
        "--python", action="store_true", help="mcts: the strongest level's search in Python"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-games", type=int, help="random games of the rules check (200)")
    parser.add_argument("--positions", type=int, help="positions timed in speed mode (60)")
    parser.add_argument(
        "--uct-sims",
        type=sims_list,
        default=[1000, 10_000, 100_000],
        help="UCT timed in speed mode",
    )
    parser.add_argument("--sample-games", type=int, default=4, help="games sampled for speed")
    parser.add_argument("--build-dir", type=Path, help="where the baseline is compiled")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny defaults")
    args = parser.parse_args(argv)
    defaults = {"games": 200 if args.mode == "ladder" else 100, "sims": 10_000, "time": 1.0}
    defaults |= {"check_games": 200, "positions": 60}
    if args.quick:
        defaults |= QUICK | {"sample_games": 1}
        args.sample_games = min(args.sample_games, 1)
    for name, value in defaults.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    uct = Uct(args.build_dir)
    match.progress(f"baseline built: {uct.path.name}")
    check_rules(args, uct)
    {"mcts": mode_mcts, "ladder": mode_ladder, "speed": mode_speed}[args.mode](args)


if __name__ == "__main__":
    main()
