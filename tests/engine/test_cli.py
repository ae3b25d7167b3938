"""The terminal game and analyse, as a person meets them: cell names, clear refusals, clean ends."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Board
from engine.cli import main, render

ROOT = Path(__file__).resolve().parents[2]
NAMES_3X3 = [f"{c}{r}" for r in "123" for c in "ABC"]


def play(argv: list[str], script: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`python -m engine play ARGV` with `script` typed in; the exit code and the screen."""
    code = main(["play", *argv], stdin=io.StringIO(script))
    return code, capsys.readouterr().out


def engine(*argv: str, **run: object) -> subprocess.CompletedProcess[str]:
    """`python -m engine ARGV` in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        **run,  # type: ignore[call-overload]
    )


def test_the_board_shows_cell_names_and_the_prompt_says_how_to_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each free cell shows its name, A1 top-left to C3; the prompt gives a free cell to type."""
    _, out = play([], "", capsys)
    first_board = out.split("Your move")[0]
    for name in NAMES_3X3:
        assert name in first_board
    assert first_board.index("A1") < first_board.index("B1") < first_board.index("A2")
    assert "Your move (X), a free cell such as B2: " in out


def test_a_number_is_not_taken_for_a_cell(capsys: pytest.CaptureFixture[str]) -> None:
    """Numbers are not on the screen, so "5" plays nothing and says how to type a move."""
    _, out = play([], "5\n", capsys)
    assert "bad move: '5' is not a cell name: type a column letter then a row number" in out
    assert " X " not in out  # no move was played


def test_taken_and_off_board_cells_are_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """ "b2" twice: "b2 is already taken"; D4 on 3x3: not on this board, with its extent."""
    _, out = play(["--level", "easy", "--seed", "3"], "b2\nb2\nD4\n", capsys)
    assert "bad move: b2 is already taken" in out
    assert "bad move: D4 is not on this board (A1 to C3)" in out


def test_a_loss_says_you_lose_and_marks_the_winning_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Playing O weakly against the unbeatable engine: "You lose", the line in brackets."""
    weak = ["B1", "C3", "A3", "C2", "A2", "B3", "C1", "A1", "B2"]
    script = "".join(f"{name}\n" for name in weak * 2)  # a taken cell is refused, next one tried
    code, out = play(["--first", "O", "--level", "unbeatable", "--seed", "1"], script, capsys)
    assert code == 0
    result = out.rstrip().splitlines()[-1]
    assert result.startswith("You lose: X wins with ")
    final_board = out.rstrip().rsplit("Engine (X) plays", 1)[1]
    assert final_board.count("[X]") == 3


def test_a_win_is_marked_on_the_board() -> None:
    """The winning line's cells are bracketed; the other marks are not, free cells keep names."""
    shown = render(Board.from_string("XXX/OO./..."), line=(0, 1, 2))
    assert shown.count("[X]") == 3
    assert "[O]" not in shown and " O " in shown
    assert "C2" in shown and "A3" in shown


def test_options_in_any_case_and_as_second_player_on_4x4(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--first O --level Easy are accepted; the engine opens; the 4x4 board names D4."""
    script = "".join(f"{c}{r}\n" for r in "1234" for c in "ABCD")
    code, out = play(["--size", "4", "--k", "3", "--first", "O", "--level", "Easy"], script, capsys)
    assert code == 0
    assert out.startswith(" A1 ") and "D4" in out
    assert "Engine (X) plays" in out
    assert out.rstrip().splitlines()[-1].startswith(("Draw.", "You win with", "You lose: X"))


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
        ["play", "--level", "expert"],
        ["play", "--first", "z"],
        ["play", "--size", "6"],
        ["play", "--k", "three"],
        ["play", "--bogus"],
        ["dance"],
        [],
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str]) -> None:
    """Bad input or a bad option: exit code 2 and one clear line on stderr."""
    done = engine(*argv, input="")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr


def test_ctrl_c_ends_the_game_with_a_short_line() -> None:
    """Ctrl-C at the prompt: one short line, exit 130, no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "play"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell starts background jobs with Ctrl-C ignored; a person's terminal does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    seen = ""
    while "Your move" not in seen:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err == "\nstopped\n"


def test_analyse_into_a_closed_pipe_ends_quietly() -> None:
    """`| head -1`: the reader is gone before the output; nothing on stderr, no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "analyse", "X.O/.X./..."],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": ""},
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `head -1` does once it has its line
    err = process.stderr.read()
    assert process.wait(timeout=30) == 141
    assert err == b""
