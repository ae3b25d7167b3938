"""Command line: play a game in the terminal, or print every legal move's exact value.

python -m engine play --size 4 --k 3 --level hard --first o
python -m engine analyse "X.O/.X./..."
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.api import analyse
from engine.board import Board, IllegalMoveError
from engine.cells import COLUMNS, cell_name
from engine.play import LEVELS, best_move


def render(board: Board) -> str:
    """The board with column letters and row numbers, e.g. for a move like "B2"."""
    n = board.size
    lines = ["   " + " ".join(COLUMNS[:n])]
    for r in range(n):
        lines.append(f"{r + 1:>2} " + " ".join(board.cell(r * n + c) for c in range(n)))
    return "\n".join(lines)


def parse_move(text: str, board: Board) -> int:
    """A move as "B2" (column letter, row number) or a cell number from 0."""
    text = text.strip().upper()
    n = board.size
    if text.isdigit():
        cell = int(text)
    elif len(text) >= 2 and text[0] in COLUMNS[:n] and text[1:].isdigit():
        row = int(text[1:]) - 1
        if not 0 <= row < n:
            raise IllegalMoveError(f"row {row + 1} is off the board (1 to {n})")
        cell = row * n + COLUMNS.index(text[0])
    else:
        raise IllegalMoveError(f"{text!r} is not a move: give a cell like B2 or a number")
    board.play(cell)  # raises on an occupied or off-board cell
    return cell


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    board = Board.empty(args.size, args.k)
    human = "X" if args.first == "x" else "O"
    rng = random.Random(args.seed)
    while board.outcome() is None:
        print(render(board), file=stdout)
        if board.turn == human:
            print(f"Your move ({human}): ", end="", file=stdout, flush=True)
            line = stdin.readline()
            if not line:
                print("\nbye", file=stdout)
                return 0
            try:
                board = board.play(parse_move(line, board))
            except IllegalMoveError as error:
                print(f"bad move: {error}", file=stdout)
        else:
            cell = best_move(board, level=args.level, rng=rng)
            print(f"Engine ({board.turn}) plays {cell_name(cell, board.size)}", file=stdout)
            board = board.play(cell)
    print(render(board), file=stdout)
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        print("Draw.", file=stdout)
    else:
        print("You win!" if outcome.winner == human else f"{outcome.winner} wins.", file=stdout)
    return 0


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game against the engine")
    play.add_argument("--size", type=int, default=3, choices=(3, 4, 5))
    play.add_argument("--k", type=int, default=None, help="marks in a row to win")
    play.add_argument("--level", default="unbeatable", choices=LEVELS)
    play.add_argument("--first", default="x", choices=("x", "o"), help="your side (X moves first)")
    play.add_argument("--seed", type=int, default=None)
    ana = sub.add_parser("analyse", help="print every legal move with its exact value")
    ana.add_argument("board", help='rows separated by "/", e.g. "X.O/.X./..."')
    ana.add_argument("--k", type=int, default=None)
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            return _play(args, stdin or sys.stdin, sys.stdout)
        return _analyse(args, sys.stdout)
    except IllegalMoveError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
