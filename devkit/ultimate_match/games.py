"""Games for benchmarks/ultimate/ultimate.py: the rules cross-check, one game, many games in
processes.

A player is ("level", name) for the engine at that level or ("uct", sims) for the C baseline.
Each game replays its moves in the baseline too and compares the legal moves and the result at
every ply with the engine's board, so a game played under different rules never counts.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from devkit.ultimate_match.uct import Uct, cells_of
from engine import MOVE_BUDGET
from engine.ultimate import LEVELS, UltimateBoard, analyse, best_move
from engine.ultimate import search as ultimate_search

Player = tuple[str, str | int]
RESULTS = {0: "running", 1: "X", 2: "O", 3: "draw"}


class RulesMismatch(AssertionError):
    """The engine and the baseline disagree about the rules in some position."""


def seed_of(*parts: object) -> int:
    """A 64-bit seed from any parts, the same in every process and run."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def label(player: Player) -> str:
    """How a player is named in tables: the level's name, or "UCT 10k"."""
    kind, value = player
    if kind == "uct":
        sims = int(value)
        return f"UCT {sims // 1000}k" if sims % 1000 == 0 and sims >= 1000 else f"UCT {sims}"
    return f"{value} (Python search)" if kind == "python" else str(value)


def _winner_code(board: UltimateBoard) -> int:
    outcome = board.outcome()
    if outcome is None:
        return 0
    return {"X": 1, "O": 2, None: 3}[outcome.winner]


def check_position(board: UltimateBoard, moves: Sequence[int], uct: Uct) -> None:
    """Compare the engine's board after `moves` with the baseline's rules; raise on a mismatch."""
    where = f"after moves {list(moves)}"
    engine_legal = list(board.legal_moves())
    c_legal = uct.legal(moves)
    if engine_legal != c_legal:
        raise RulesMismatch(f"legal moves {where}: engine {engine_legal}, baseline {c_legal}")
    mine, theirs = _winner_code(board), uct.result(moves)
    if mine != theirs:
        raise RulesMismatch(f"result {where}: engine {RESULTS[mine]}, baseline {RESULTS[theirs]}")
    turn = "X" if len(moves) % 2 == 0 else "O"
    marks = [".", "X", "O"]
    cells = [board.cell(i) for i in range(81)]
    if cells != [marks[v] for v in cells_of(moves)]:
        raise RulesMismatch(f"cells {where}: engine {''.join(cells)}")
    if mine == 0 and board.turn != turn:
        raise RulesMismatch(f"turn {where}: engine {board.turn}, expected {turn}")
    target = board.board_to_play()
    if (
        mine == 0
        and target is not None
        and any((c // 27) * 3 + (c % 9) // 3 != target for c in engine_legal)
    ):
        raise RulesMismatch(f"{where}: a legal move outside board_to_play() = {target}")


@dataclass
class CheckReport:
    """What the rules cross-check covered."""

    games: int = 0
    plies: int = 0
    results: dict[str, int] = field(default_factory=lambda: {"X": 0, "O": 0, "draw": 0})
    sent_to_closed: int = 0  # plies where the last move sent to a closed small board


def cross_check(games: int, seed: int, uct: Uct) -> CheckReport:
    """Random games checked at every ply: even ones pick from the engine's legal moves, odd ones
    replay the baseline's own random games. Raises RulesMismatch on the first disagreement."""
    report = CheckReport()
    rng = random.Random(seed_of(seed, "cross-check"))
    for game in range(games):
        scripted = uct.random_game(seed_of(seed, "cross-check", game))[0] if game % 2 else None
        board = UltimateBoard.empty()
        moves: list[int] = []
        check_position(board, moves, uct)
        while board.outcome() is None:
            cell = scripted[len(moves)] if scripted else rng.choice(board.legal_moves())
            board = board.play(cell)
            moves.append(cell)
            check_position(board, moves, uct)
            if board.outcome() is None and board.board_to_play() is None:
                report.sent_to_closed += 1
            again = UltimateBoard.from_string(board.to_string())
            if (again.legal_moves(), again.turn, _winner_code(again)) != (
                board.legal_moves(),
                board.turn,
                _winner_code(board),
            ):
                raise RulesMismatch(f"from_string(to_string()) differs after moves {moves}")
        if scripted is not None and len(moves) != len(scripted):
            raise RulesMismatch(f"the engine ended the baseline's random game early: {moves}")
        report.games += 1
        report.plies += len(moves)
        report.results[RESULTS[_winner_code(board)]] += 1
    return report


@dataclass
class Game:
    """One finished game and the time each side spent on each of its moves."""

    index: int
    x: Player
    o: Player
    winner: str | None
    moves: list[int]
    cpu: dict[str, list[float]]  # "X" / "O" -> process CPU seconds a move
    wall: dict[str, list[float]]


def engine_move(
    board: UltimateBoard,
    level: str,
    rng: random.Random,
    move_time: float | None,
    native: bool = True,
) -> tuple[int, float, float]:
    """The engine's move with the CPU and wall seconds it took; without `native`, the strongest
    level's search in Python instead of the compiled core."""
    deadline = None if move_time is None else time.monotonic() + move_time
    cpu, wall = time.process_time(), time.perf_counter()
    if native:
        cell = best_move(board, level=level, rng=rng, deadline=deadline)
    else:
        assert level == LEVELS[-1], "the Python search is measured at the strongest level"
        cell = analyse(
            board, deadline=deadline or time.monotonic() + MOVE_BUDGET, rng=rng, native=False
        ).move
    return cell, time.process_time() - cpu, time.perf_counter() - wall


def play_game(
    index: int, x: Player, o: Player, seed: int, move_time: float | None, build_dir: Path | None
) -> Game:
    """Play one game from the empty board, checking the rules against the baseline each ply."""
    uct = Uct(build_dir)
    rngs = {side: random.Random(seed_of(seed, index, side)) for side in "XO"}
    game = Game(index, x, o, None, [], {"X": [], "O": []}, {"X": [], "O": []})
    board = UltimateBoard.empty()
    while board.outcome() is None:
        side = "X" if len(game.moves) % 2 == 0 else "O"
        kind, value = x if side == "X" else o
        if kind == "uct":
            cpu, wall = time.process_time(), time.perf_counter()
            cell = uct.move(game.moves, int(value), seed_of(seed, index, len(game.moves)))
            spent, waited = time.process_time() - cpu, time.perf_counter() - wall
        else:
            native = kind != "python"
            cell, spent, waited = engine_move(board, str(value), rngs[side], move_time, native)
        game.cpu[side].append(spent)
        game.wall[side].append(waited)
        if cell not in board.legal_moves():
            raise RulesMismatch(f"{label((kind, value))} played {cell} after {game.moves}")
        board = board.play(cell)
        game.moves.append(cell)
        check_position(board, game.moves, uct)
    game.winner = board.outcome().winner  # type: ignore[union-attr]
    return game


def play_games(
    tasks: Sequence[tuple[int, Player, Player]],
    seed: int,
    move_time: float | None,
    workers: int,
    build_dir: Path | None = None,
    on_game: Callable[[Game], None] | None = None,
) -> list[Game]:
    """Play every (index, X, O) game, in `workers` spawned processes (in this one when 1)."""
    games: list[Game] = []

    def finished(results: Iterator[Game]) -> None:
        for game in results:
            games.append(game)
            if on_game is not None:
                on_game(game)

    if workers <= 1:
        finished(play_game(i, x, o, seed, move_time, build_dir) for i, x, o in tasks)
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            futures = [
                pool.submit(play_game, i, x, o, seed, move_time, build_dir) for i, x, o in tasks
            ]
            try:
                finished(future.result() for future in as_completed(futures))
            except BaseException:  # a mismatch or ^C: drop the games not started yet
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    return sorted(games, key=lambda g: g.index)


def progress(text: str) -> None:
    """A progress line on stderr."""
    print(text, file=sys.stderr, flush=True)


def sample_positions(uct: Uct, games: int, sims: int, count: int, seed: int) -> list[list[int]]:
    """`count` running positions (as moves) from `games` games of UCT at `sims` against itself,
    spread evenly over all their plies."""
    pool: list[list[int]] = []
    for game in range(games):
        moves: list[int] = []
        while uct.result(moves) == 0:
            pool.append(list(moves))
            moves.append(uct.move(moves, sims, seed_of(seed, "sample", game, len(moves))))
        progress(f"sample game {game + 1}/{games}: {len(moves)} plies")
    step = max(1, len(pool) // count)
    return pool[::step][:count]


def pct(values: Sequence[float], q: float) -> float:
    """The q-quantile (0-1) of `values`, nearest rank; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def times_of(games: Sequence[Game], who: Player) -> tuple[list[float], list[float]]:
    """Every move's CPU and wall seconds of `who` over `games`."""
    cpu: list[float] = []
    wall: list[float] = []
    for game in games:
        for side, player in (("X", game.x), ("O", game.o)):
            if player == who:
                cpu += game.cpu[side]
                wall += game.wall[side]
    return cpu, wall


def search_rates(move_time: float, boards: list[UltimateBoard], rng: random.Random) -> None:
    """Nodes a CPU second and depth reached of the strongest level's search (engine.ultimate.
    analyse, the search behind `best_move` at that level), in the compiled core and in Python."""
    print(f"\n`{LEVELS[-1]}`'s search (engine.ultimate.analyse, deadline {move_time:g} s):\n")
    print(
        "| search | positions | nodes a CPU second p50 | min | max | nodes p50 "
        "| depth p50 | min | max |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for native in (True, False):
        rates, depths, nodes = [], [], []
        for board in boards:
            cpu = time.process_time()
            found = analyse(board, deadline=time.monotonic() + move_time, rng=rng, native=native)
            spent = time.process_time() - cpu
            rates.append(found.nodes / spent if spent > 0 else 0.0)
            depths.append(found.depth)
            nodes.append(found.nodes)
        cells = [pct(rates, 0.5), min(rates), max(rates), pct(nodes, 0.5)]
        depth = [pct(depths, 0.5), min(depths), max(depths)]
        name = "compiled core" if native and ultimate_search._core is not None else "Python"
        print(
            f"| {name} | {len(boards)} | "
            + " | ".join(f"{c:,.0f}" for c in cells)
            + " | "
            + " | ".join(str(d) for d in depth)
            + " |"
        )
