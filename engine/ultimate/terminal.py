"""Ultimate tic-tac-toe in the terminal: the board as text, and a move as typed."""

from __future__ import annotations

import random
from typing import TextIO

from engine.board import IllegalMoveError
from engine.console import run_game
from engine.ultimate.board import UltimateBoard
from engine.ultimate.geometry import BOARD_NAMES, COLUMNS, board_cells, cell_name, parse_cell
from engine.ultimate.play import best_move

HOW = (
    "Type a cell as its column letter then its row number (A1 is the top-left cell, I9 the "
    "bottom-right), or, when the small board to play is set, a digit 1-9 for its cell in "
    "reading order (1 top-left, 5 centre, 9 bottom-right)."
)


def render(board: UltimateBoard) -> str:
    """The 9x9 grid with the small boards set apart: marks, "." for a cell that may be played
    now and " " for any other free cell; a won small board is filled with its winner's mark."""
    legal = set(board.legal_moves())
    winners = [board.small_winner(b) for b in range(9)]
    lines = ["    " + "   ".join(" ".join(COLUMNS[3 * i : 3 * i + 3]) for i in range(3))]
    for row in range(9):
        if row and row % 3 == 0:
            lines.append("    ------+-------+------")
        cells = []
        for column in range(9):
            cell = 9 * row + column
            winner = winners[3 * (row // 3) + column // 3]
            mark = board.cell(cell)
            cells.append(winner or (mark if mark != "." else "." if cell in legal else " "))
        groups = (" ".join(cells[3 * i : 3 * i + 3]) for i in range(3))
        lines.append(f"{row + 1:>2}  " + " | ".join(groups))
    return "\n".join(lines)


def where(board: UltimateBoard) -> str:
    """Where the side to move may play, in words."""
    target = board.board_to_play()
    if target is None:
        return "any open small board"
    cells = board_cells(target)
    return f"the {BOARD_NAMES[target]} board ({cell_name(cells[0])} to {cell_name(cells[-1])})"


def parse_move(text: str, board: UltimateBoard) -> int:
    """A typed move ("e5", "E5", or a digit 1-9 in the board to play); IllegalMoveError says
    what is wrong with it."""
    typed = text.strip()
    target = board.board_to_play()
    if len(typed) == 1 and typed in "123456789":
        if target is None:
            raise IllegalMoveError("you may choose any open small board: type a cell such as E5")
        cell = board_cells(target)[int(typed) - 1]
    else:
        try:
            cell = parse_cell(typed)
        except ValueError:
            raise IllegalMoveError(f"{typed!r} is not a move. {HOW}") from None
    if cell not in board.legal_moves():
        if board.cell(cell) != ".":
            raise IllegalMoveError(f"{cell_name(cell)} is already taken")
        raise IllegalMoveError(f"{cell_name(cell)} is not playable: play in {where(board)}")
    return cell


def play(level: str, human: str, seed: int | None, stdin: TextIO, stdout: TextIO) -> int:
    """A game against the engine at `level`, the person playing `human` ("X" or "O")."""
    rng = random.Random(seed)
    print(HOW, file=stdout)

    def engine_move(board: UltimateBoard) -> tuple[UltimateBoard, str]:
        cell = best_move(board, level=level, rng=rng)
        return board.play(cell), cell_name(cell)

    board = run_game(
        UltimateBoard.empty(),
        human,
        show=render,
        prompt=lambda board: f"Your move ({human}) in {where(board)}: ",
        move=lambda board, line: board.play(parse_move(line, board)),
        engine=engine_move,
        stdin=stdin,
        stdout=stdout,
    )
    if board is None:
        return 0
    outcome = board.outcome()
    assert outcome is not None
    print(render(board), file=stdout)
    if outcome.winner is None:
        print("Draw.", file=stdout)
    else:
        boards = ", ".join(BOARD_NAMES[b] for b in outcome.line)
        who = "You win" if outcome.winner == human else f"You lose: {outcome.winner} wins"
        print(f"{who} with the {boards} boards.", file=stdout)
    return 0
