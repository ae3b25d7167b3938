"""Ultimate in the terminal (`python -m engine play --ultimate`): the grid, how to type a move,
clear refusals and a whole game."""

from __future__ import annotations

import io

import pytest

from engine.cli import main
from engine.ultimate import UltimateBoard, cell_name
from engine.ultimate.terminal import parse_move, render


def play(argv: list[str], script: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["play", "--ultimate", *argv], stdin=io.StringIO(script))
    return code, capsys.readouterr().out


def test_the_grid_and_the_prompt_say_how_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    """Columns A-I, rows 1-9, the small boards set apart; the prompt says where to play."""
    _, out = play(["--level", "easy", "--seed", "1"], "E5\n", capsys)
    assert "A B C   D E F   G H I" in out
    assert "Type a cell as its column letter then its row number" in out
    assert "Your move (X) in any open small board: " in out
    assert "Engine (O) plays " in out
    assert "Your move (X) in the " in out.split("Engine (O) plays ")[1]


def test_after_a_move_only_the_board_to_play_shows_free_cells() -> None:
    """After E5 the centre board's free cells show "." and the others are blank."""
    board = UltimateBoard.empty().play(40)
    text = render(board)
    rows = text.splitlines()
    assert rows[5] == " 4        | . . . |      "
    assert rows[6] == " 5        | . X . |      "


def test_a_digit_plays_in_the_board_to_play_and_bad_moves_are_explained() -> None:
    """A digit is a cell of the set board; elsewhere, taken, or not a move: one clear line."""
    board = UltimateBoard.empty().play(40)  # O must play in the centre board
    assert cell_name(parse_move("1", board)) == "D4"
    assert cell_name(parse_move("f6", board)) == "F6"
    for typed, words in [
        ("E5", "E5 is already taken"),
        ("A1", "A1 is not playable: play in the centre board (D4 to F6)"),
        ("zz", "'zz' is not a move. Type a cell"),
        ("J1", "'J1' is not a move"),
    ]:
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
            parse_move(typed, board)
    with pytest.raises(ValueError, match="you may choose any open small board"):
        parse_move("5", UltimateBoard.empty())


def test_a_whole_game_ends_with_its_result(capsys: pytest.CaptureFixture[str]) -> None:
    """Typing every cell name in turn plays a whole game against easy to its end."""
    names = "\n".join(cell_name(c) for c in range(81))
    code, out = play(["--level", "easy", "--seed", "4"], (names + "\n") * 60, capsys)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last == "Draw." or last.startswith(("You win with the ", "You lose: O wins with the "))


@pytest.mark.parametrize("argv", [["--ultimate", "--level", "unbeatable"], ["--level", "expert"]])
def test_a_level_of_the_other_game_is_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Ultimate has no unbeatable level and tic-tac-toe no expert: exit 2, one line."""
    code = main(["play", *argv], stdin=io.StringIO(""))
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("error: ") and "levels are" in err[0]
