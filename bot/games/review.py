"""Post-game review and hints in words, from the engine's exact values.

Pure and synchronous (no Discord, no asyncio): the bot runs these in its engine executor, since
the engine may search for a while on big boards.

Results are classed for the player to move by ``engine.classify`` (the sign of the exact value):
a win, a draw or a loss with best play from both sides; the exact values (``engine.analyse``) are
searched only where a move changed the result. "In N moves" always counts the moves of the player
who wins, from the position in question, including the move about to be played when it is
theirs: "wins in 1 move" is a win right now, "loss in 2 moves" means the opponent can complete
a line on their second move from here however you play. (The engine's scale is
``engine.WIN - n`` for a win whose last move is ``n`` plies away; the winner's moves are
``ceil(n / 2)``.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import engine
from engine import Board, analyse, cell_name, classify

WIN, DRAW, LOSS = "win", "draw", "loss"


def result_class(value: int) -> str:
    """ "win", "draw" or "loss" for an engine value (the side to move's point of view)."""
    return WIN if value > 0 else LOSS if value < 0 else DRAW


def winner_moves(value: int) -> int:
    """How many moves the winner needs, for a non-zero engine value (see the module docstring)."""
    if value == 0:
        raise ValueError("a drawn position has no winner")
    plies = engine.WIN - abs(value)
    return (plies + 1) // 2


def best_of(values: Mapping[int, int]) -> int:
    """The best move of an ``analyse`` result: highest value, then the lowest cell."""
    return min(values, key=lambda cell: (-values[cell], cell))


def review(
    moves: Sequence[int], size: int, k: int, names: Mapping[str, str] | None = None
) -> list[str]:
    """Lines naming every move that changed the result, then a summary line.

    ``names`` maps "X" and "O" to display names. A move can only make its player's result
    worse (win to draw, win to loss, draw to loss); for each such move the line names the best
    move the player had instead. Raises ``engine.IllegalMoveError`` for an impossible move list.
    """
    names = names or {}
    lines: list[str] = []
    mistakes = {"X": 0, "O": 0}
    board = Board.empty(size, k)
    before = classify(board) if moves else 0
    for number, cell in enumerate(moves, start=1):
        mark = board.turn
        after = board.play(cell)
        outcome = after.outcome()
        if outcome is not None:
            now = WIN if outcome.winner == mark else DRAW
            next_value = 0
        else:
            next_value = classify(after)
            now = result_class(-next_value)
        was = result_class(before)
        if now != was:
            mistakes[mark] += 1
            lines.append(_mistake(number, _who(mark, names), board, cell, was, now))
        board, before = after, next_value
    if not any(mistakes.values()):
        lines.append("No move changed the result: perfect play from both sides.")
    else:
        counts = ", ".join(f"{_who(mark, names)} {count}" for mark, count in mistakes.items())
        lines.append(f"Moves that changed the result: {counts}.")
    return lines


def hint(moves: Sequence[int], size: int, k: int) -> str:
    """The best move for the player to move, and what it achieves.

    Raises ``engine.IllegalMoveError`` if the game is over or the move list is impossible.
    """
    board = Board.from_moves(moves, size, k)
    values = analyse(board)
    cell = best_of(values)
    name, value = cell_name(cell, size), values[cell]
    if value > 0:
        n = winner_moves(value)
        return f"Play {name}: it wins now." if n == 1 else f"Play {name}: it wins in {n} moves."
    if value == 0:
        if len(values) > 1 and all(v < 0 for c, v in values.items() if c != cell):
            return f"Play {name}: it holds the draw; every other move loses."
        return f"Play {name}: it holds the draw."
    return f"Every move loses; {name} holds out longest (loss in {_moves(winner_moves(value))})."


def _mistake(number: int, who: str, board: Board, cell: int, was: str, now: str) -> str:
    values = analyse(board)
    best = best_of(values)
    kept = f"{cell_name(best, board.size)} kept the {was}"
    if was == WIN:
        kept += f" (a win in {_moves(winner_moves(values[best]))})"
    return (
        f"Move {number}: {who} played {cell_name(cell, board.size)}; "
        f"the position went from a {was} to a {now}; {kept}."
    )


def _who(mark: str, names: Mapping[str, str]) -> str:
    name = names.get(mark)
    return f"{name} ({mark})" if name else mark


def _moves(n: int) -> str:
    return "1 move" if n == 1 else f"{n} moves"
