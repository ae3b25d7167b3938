"""The ultimate benchmark's machinery: the C UCT baseline builds, agrees with the engine's rules
and plays legal games (strength and speed are not checked)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from devkit.ultimate_match import games as match
from devkit.ultimate_match.uct import CompilerMissing, Uct, build
from engine.ultimate import LEVELS, UltimateBoard
from tests.benchmarks.running import run


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder with the baseline compiled in it. No compiler: fails under CI, else skips."""
    folder = tmp_path_factory.mktemp("uct")
    try:
        build(folder)
    except CompilerMissing as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"a C compiler is needed under CI: {exc}")
        pytest.skip(str(exc))
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"the baseline does not compile:\n{exc.stderr}")
    return folder


def test_the_baseline_agrees_with_the_engine_on_random_games(build_dir: Path) -> None:
    """Legal moves, cells, turn and result agree at every ply of random games from both sides."""
    report = match.cross_check(30, seed=7, uct=Uct(build_dir))
    assert report.games == 30 and report.plies > 30 * 20
    assert report.sent_to_closed > 0  # the rule about closed boards was exercised


def test_a_disagreement_stops_the_check(build_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that forgets one legal move is caught at the first position."""
    legal = UltimateBoard.legal_moves
    monkeypatch.setattr(UltimateBoard, "legal_moves", lambda board: legal(board)[:-1])
    with pytest.raises(match.RulesMismatch, match="legal moves after moves \\[\\]"):
        match.cross_check(1, seed=7, uct=Uct(build_dir))


def test_the_baseline_takes_a_game_in_one(build_dir: Path) -> None:
    """Where random games first offer a game in one, UCT at 1,000 simulations plays a winner."""
    uct = Uct(build_dir)
    for seed in range(100):
        moves, result = uct.random_game(seed)
        for ply in range(len(moves)):
            prefix = moves[:ply]
            wins = [m for m in uct.legal(prefix) if uct.result([*prefix, m]) == ply % 2 + 1]
            if wins and len(wins) < len(uct.legal(prefix)):
                assert uct.move(prefix, 1000, seed) in wins, prefix
                assert uct.legal(moves) == [] and result != 0
                return
    pytest.fail("no position with a game in one among the random games")


def test_a_short_game_against_the_baseline_ends_with_a_legal_result(build_dir: Path) -> None:
    """The gentlest level v UCT at 200 simulations ends, each move legal, with one result."""
    game = match.play_game(0, ("level", LEVELS[0]), ("uct", 200), 3, 0.05, build_dir)
    assert game.winner in ("X", "O", None)
    board = UltimateBoard.empty()
    for cell in game.moves:
        board = board.play(cell)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == game.winner
    code = Uct(build_dir).result(game.moves)
    assert code == {"X": 1, "O": 2, None: 3}[game.winner]
    assert len(game.cpu["X"]) + len(game.cpu["O"]) == len(game.moves)


def test_the_baseline_beats_a_random_player(build_dir: Path) -> None:
    """UCT at 300 simulations wins each of four seeded games against uniform random moves."""
    uct = Uct(build_dir)
    for seed in range(4):
        moves: list[int] = []
        mine = seed % 2
        while uct.result(moves) == 0:
            if len(moves) % 2 == mine:
                moves.append(uct.move(moves, 300, match.seed_of(seed, len(moves))))
            else:
                legal = uct.legal(moves)
                moves.append(legal[match.seed_of("random", seed, len(moves)) % len(legal)])
        assert uct.result(moves) == mine + 1, moves


def test_the_command_prints_its_tables(build_dir: Path) -> None:
    """A tiny mcts run in two worker processes prints the results table and the time table."""
    out = run(
        "ultimate/ultimate.py",
        *[
            *("--mode", "mcts", "--quick", "--games", "2", "--workers", "2"),
            *("--level", LEVELS[0], "--sims", "100", "--time", "0.05", "--check-games", "4"),
            *("--build-dir", str(build_dir)),
        ],
    ).stdout
    assert "| engine | opponent | W / D / L |" in out
    assert f"| {LEVELS[0]} | UCT 100 |" in out
    assert "| player | moves | CPU p50 |" in out


def test_the_speed_mode_prints_both_searches(build_dir: Path) -> None:
    """A tiny speed run times every level and the search in the compiled core and in Python."""
    out = run(
        "ultimate/ultimate.py",
        *[
            *("--mode", "speed", "--quick", "--positions", "3", "--time", "0.05"),
            *("--check-games", "2", "--uct-sims", "100", "--build-dir", str(build_dir)),
        ],
    ).stdout
    assert all(f"| {level} |" in out for level in LEVELS)
    assert "| Python | 3 |" in out
