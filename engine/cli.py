"""Command line: play a game in the terminal, or print every legal move's exact value.

python -m engine play --size 4 --k 3 --level hard --first o
python -m engine play --ultimate --level expert
python -m engine analyse "X.O/.X./..."
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from engine.api import analyse
from engine.board import Board, IllegalMoveError
from engine.cells import cell_name, parse_cell
from engine.console import run_game
from engine.levels import LEVELS
from engine.play import best_move

ULTIMATE_LEVELS = ("easy", "medium", "hard", "expert")  # engine.ultimate.LEVELS, loaded lazily

# A letter and a number: shaped like a cell name, maybe off the board.
NAME_SHAPE = re.compile(r"[A-Za-z][0-9]+")
WIDTH = 5  # characters per cell on the terminal's board


def render(board: Board, *, line: Sequence[int] = ()) -> str:
    """The board as the bot shows it: each free cell by its name (A1 is the top-left), the
    marks in the others, and the cells of `line` (a winning line) in brackets."""
    n = board.size

    def shown(cell: int) -> str:
        mark = board.cell(cell)
        if mark == ".":
            return cell_name(cell, n)
        return f"[{mark}]" if cell in line else mark

    rows = ["|".join(f"{shown(r * n + c):^{WIDTH}}" for c in range(n)) for r in range(n)]
    return ("\n" + "+".join(["-" * WIDTH] * n) + "\n").join(rows)


def parse_move(text: str, board: Board) -> int:
    """A free cell's name as typed ("b2" or "B2"); IllegalMoveError says what is wrong with it."""
    typed = text.strip()
    n = board.size
    try:
        cell = parse_cell(typed, n)
    except ValueError:
        if NAME_SHAPE.fullmatch(typed):
            last = cell_name(n * n - 1, n)
            raise IllegalMoveError(f"{typed} is not on this board (A1 to {last})") from None
        raise IllegalMoveError(
            f"{typed!r} is not a cell name: type a column letter then a row number, such as "
            f"{_example(board)}"
        ) from None
    if board.cell(cell) != ".":
        raise IllegalMoveError(f"{typed} is already taken")
    return cell


def _example(board: Board) -> str:
    """A free cell's name, to show how a move is typed."""
    free = board.legal_moves()
    return cell_name(free[len(free) // 2], board.size) if free else "B2"


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    human = args.first.upper()
    if args.ultimate:
        from engine import ultimate
        from engine.ultimate import terminal

        level = args.level or ultimate.LEVELS[-1]
        if level not in ultimate.LEVELS:
            choices = ", ".join(ultimate.LEVELS)
            raise IllegalMoveError(f"ultimate's levels are {choices}, not {level}")
        return terminal.play(level, human, args.seed, stdin, stdout)
    level = args.level or LEVELS[-1]
    if level not in LEVELS:
        raise IllegalMoveError(f"the levels are {', '.join(LEVELS)}, not {level}")
    rng = random.Random(args.seed)

    def engine_move(board: Board) -> tuple[Board, str]:
        cell = best_move(board, level=level, rng=rng)
        return board.play(cell), cell_name(cell, board.size)

    board = run_game(
        Board.empty(args.size, args.k),
        human,
        show=render,
        prompt=lambda board: f"Your move ({human}), a free cell such as {_example(board)}: ",
        move=lambda board, line: board.play(parse_move(line, board)),
        engine=engine_move,
        stdin=stdin,
        stdout=stdout,
    )
    if board is None:
        return 0
    outcome = board.outcome()
    assert outcome is not None
    print(render(board, line=outcome.line), file=stdout)
    print(_result(outcome.winner, outcome.line, human, board.size), file=stdout)
    return 0


def _result(winner: str | None, line: Sequence[int], human: str, size: int) -> str:
    if winner is None:
        return "Draw."
    cells = ", ".join(cell_name(cell, size) for cell in line)
    if winner == human:
        return f"You win with {cells}!"
    return f"You lose: {winner} wins with {cells}."


def _analyse(args: argparse.Namespace, stdout: TextIO) -> int:
    board = Board.from_string(args.board, args.k)
    if board.outcome() is not None:
        raise IllegalMoveError("the game is over")
    values = analyse(board)
    print(render(board), file=stdout)
    print(f"{board.turn} to move", file=stdout)
    for cell, value in sorted(values.items(), key=lambda item: (-item[1], item[0])):
        print(
            f"{cell_name(cell, board.size):>3} (cell {cell:>2}): {value:>4}  {_words(value)}",
            file=stdout,
        )
    return 0


def _words(value: int) -> str:
    if value > 0:
        return f"wins in {100 - value}"
    if value < 0:
        return f"loses in {100 + value}"
    return "draw"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose every complaint is one line: "error: ..." and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (python -m engine --help)\n")


def _choice(choices: Sequence[str]) -> type[str]:
    """Case-insensitive choice: "Easy" and "X" are taken as "easy" and "x"."""

    def parse(text: str) -> str:
        if text.lower() not in choices:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not one of {', '.join(choices)} (in any case)"
            )
        return text.lower()

    return parse  # type: ignore[return-value]


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    play = sub.add_parser("play", help="play a game against the engine")
    play.add_argument("--size", type=int, default=3, choices=(3, 4, 5))
    play.add_argument("--k", type=int, default=None, help="marks in a row to win")
    play.add_argument(
        "--ultimate", action="store_true", help="ultimate tic-tac-toe: nine boards in one"
    )
    play.add_argument(
        "--level",
        type=str.lower,
        default=None,
        help=f"{'/'.join(LEVELS)}; with --ultimate {'/'.join(ULTIMATE_LEVELS)}",
    )
    play.add_argument(
        "--first", type=_choice(("x", "o")), default="x", help="your side, x or o (X moves first)"
    )
    play.add_argument("--seed", type=int, default=None)
    ana = sub.add_parser("analyse", help="print every legal move with its exact value")
    ana.add_argument("board", help='rows separated by "/", e.g. "X.O/.X./..."')
    ana.add_argument("--k", type=int, default=None)
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input, 130 after Ctrl-C)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            code = _play(args, stdin or sys.stdin, sys.stdout)
        else:
            code = _analyse(args, sys.stdout)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return code
    except IllegalMoveError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head -1`): stop quietly, and keep Python's own flush at exit
        # from failing on the closed pipe as well.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
