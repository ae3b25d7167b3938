"""What a puzzle board says after a wrong move: what the reply did (won at once, with its line
marked; wins by force; holds a draw; holds out longer), then the move that would have won, and
whether the reply took that very cell; in every language."""

from __future__ import annotations

from bot.games.kinds.base import SUCCESS
from bot.i18n import LOCALE_DIR
from bot.puzzles.board import Extras, text, view
from bot.puzzles.model import AttemptRecord
from engine import cell_name
from engine.puzzles import Attempt, Puzzle, by_id, play, puzzles


def failed(puzzle_id: str, cell: int, locale: str = "en-US") -> tuple[AttemptRecord, Attempt]:
    """The record of an attempt whose first move was `cell`, and the engine's attempt."""
    puzzle = by_id(puzzle_id)
    assert puzzle is not None
    after = play(Attempt(puzzle), cell)
    record = AttemptRecord(1, 2, 3, 4, puzzle, locale=locale).moved(after)
    return record, after


def name(puzzle: Puzzle, cell: int) -> str:
    return f"**{cell_name(cell, puzzle.board.size)}**"


def styles(record: AttemptRecord) -> dict[int, int]:
    """The style of each cell button, by cell."""
    rows = view(record).to_components()[1 : 1 + record.puzzle.board.size]
    return {
        int(b["custom_id"].split(":")[2].split("@")[0]): b["style"]
        for row in rows
        for b in row["components"]
    }


def test_a_reply_that_wins_at_once_says_so_and_its_line_is_marked() -> None:
    """The wrong move leaves the solution's cell to the defender, whose reply there completes a
    line. The words say the reply won at once, then which move would have won and that the
    reply took that very cell; the reply's line is green, nothing else."""
    record, after = failed("43-0001", 0)
    puzzle = record.puzzle
    assert after.state == "loses" and after.refutation == puzzle.solution
    said = text(record)
    reply = name(puzzle, puzzle.solution)
    assert f"{name(puzzle, 0)} loses: the reply {reply} completes a line and wins at once." in said
    assert f"The winning move was {reply}. Your opponent's reply took that very cell." in said
    outcome = after.board.play(puzzle.solution).outcome()
    assert outcome is not None and outcome.winner is not None and outcome.line
    green = {cell for cell, style in styles(record).items() if style == SUCCESS}
    assert green == set(outcome.line) and puzzle.solution in green


def test_a_loss_that_is_not_at_once_says_the_opponent_wins_by_force() -> None:
    record, after = failed("43-0003", 2)
    puzzle = record.puzzle
    assert after.state == "loses" and after.refutation is not None
    said = text(record)
    reply = name(puzzle, after.refutation)
    assert f"{name(puzzle, 2)} loses: after the reply {reply}, your opponent wins by force." in said
    assert f"The winning move was {name(puzzle, puzzle.solution)}." in said
    assert "took that very cell" not in said
    assert SUCCESS not in styles(record).values()  # no line was completed


def test_a_slower_win_and_a_draw_say_what_the_reply_holds() -> None:
    record, after = failed("43-0003", 0)
    assert after.state == "slower"
    assert "still wins, but not this fast: the reply " in text(record)
    record, after = failed("43-0010", 0)
    assert after.state == "draw"
    assert "lets the win slip to a draw: the reply " in text(record)
    assert "The winning move was " in text(record)


def _wrong_later_move() -> tuple[Puzzle, Attempt, int]:
    """A puzzle of two moves or more, the attempt after its solution and the defence, and a
    move that then fails."""
    for puzzle in puzzles()[:200]:
        if puzzle.moves < 2:
            continue
        right = play(Attempt(puzzle), puzzle.solution)
        for cell in right.board.legal_moves():
            if play(right, cell).state not in ("playing", "solved"):
                return puzzle, right, cell
    raise AssertionError("no puzzle with a wrong later move among the first 200")


def test_a_wrong_later_move_names_a_move_that_still_won_while_it_is_known() -> None:
    """After a later wrong move, the answer's own board names a move that still won in time;
    drawn again from the store (where it is not kept) it names none rather than a wrong one."""
    puzzle, right, wrong = _wrong_later_move()
    after = play(right, wrong)
    record = AttemptRecord(1, 2, 3, 4, puzzle).moved(after)
    assert after.better is not None
    said = text(record, Extras(better=after.better))
    assert f"{name(puzzle, after.better)} would still have won in time." in said
    assert "The winning move was" not in said
    assert "would still have won" not in text(record)


def test_every_language_says_the_failure_in_its_own_words() -> None:
    """Each catalog translates the reply's words and the move that would have won."""
    english = text(failed("43-0001", 0)[0])
    for folder in sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir()):
        record, _ = failed("43-0001", 0, locale=folder.replace("_", "-"))
        said = text(record)
        assert said.split("\n\n")[-1] != english.split("\n\n")[-1], folder
        assert "wins at once" not in said and "winning move" not in said, folder
