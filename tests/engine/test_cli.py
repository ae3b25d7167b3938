"""The command line: a scripted game through stdin, analyse output, bad input exit 2."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from engine.cli import main


def test_play_scripted_game_reprompts_and_finishes(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad moves reprompt; the game runs to its end against the unbeatable engine."""
    script = "zz\nB2\nB2\n" + "".join(f"{c}\n" for c in range(9)) * 2
    code = main(["play", "--level", "unbeatable", "--seed", "1"], stdin=io.StringIO(script))
    out = capsys.readouterr().out
    assert code == 0
    assert "bad move" in out and "not a move" in out and "taken" in out
    assert "   A B C" in out
    assert out.rstrip().endswith(("Draw.", "O wins."))


def test_play_as_second_player_on_4x4(capsys: pytest.CaptureFixture[str]) -> None:
    """With --first o the engine opens; the board shows four columns and rows."""
    script = "".join(f"{c}\n" for c in range(16)) * 2
    code = main(["play", "--size", "4", "--k", "3", "--first", "o"], stdin=io.StringIO(script))
    out = capsys.readouterr().out
    assert code == 0
    assert "   A B C D" in out and "Engine (X) plays" in out
    assert out.rstrip().endswith("X wins.")


def test_analyse_prints_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    """analyse lists each legal move with its exact value, best first."""
    assert main(["analyse", "X.O/.X./..."]) == 0
    out = capsys.readouterr().out.splitlines()
    moves = [line for line in out if "(cell" in line]
    assert len(moves) == 6
    assert moves[0].split() == ["C3", "(cell", "8):", "0", "draw"]
    assert all(line.split()[3] == "-98" for line in moves[1:])


@pytest.mark.parametrize(
    "argv",
    [
        ["analyse", "X.O/.Y./..."],
        ["analyse", "XXX/OO./..."],
        ["analyse", "..../..../..../....", "--k", "5"],
        ["play", "--size", "3", "--k", "4"],
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str]) -> None:
    """Bad input: exit code 2 and one clear line on stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv], capture_output=True, text=True, input=""
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
