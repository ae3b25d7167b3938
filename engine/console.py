"""The terminal game's loop, shared by tic-tac-toe and ultimate: show the board, read the
person's move or ask the engine for its own, until the end or the end of input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TextIO, TypeVar


class _Position(Protocol):
    @property
    def turn(self) -> str: ...

    def outcome(self) -> object | None: ...


Position = TypeVar("Position", bound=_Position)


def run_game(
    board: Position,
    human: str,
    *,
    show: Callable[[Position], str],
    prompt: Callable[[Position], str],
    move: Callable[[Position, str], Position],
    engine: Callable[[Position], tuple[Position, str]],
    stdin: TextIO,
    stdout: TextIO,
) -> Position | None:
    """Play from `board` to the end: the final position, or None if input ended first.

    `move` plays what the person typed (raising a ValueError that says what is wrong), and
    `engine` plays the engine's move, returning the new position and the cell's name.
    """
    while board.outcome() is None:
        print(show(board), file=stdout)
        if board.turn == human:
            print(prompt(board), end="", file=stdout, flush=True)
            line = stdin.readline()
            if not line:
                print("\nbye", file=stdout)
                return None
            try:
                board = move(board, line)
            except ValueError as error:
                print(f"bad move: {error}", file=stdout)
        else:
            mover = board.turn
            board, name = engine(board)
            print(f"Engine ({mover}) plays {name}", file=stdout)
    return board
