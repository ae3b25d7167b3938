"""Post-game review and hints in words, from the engine's exact values.

Pure and synchronous (no Discord, no asyncio), in words marked for translation (``Text``, put
into the reader's language by the bot): the bot runs these in its engine executor, since
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
from bot.i18n import N_, NP_, Text
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


# The result classes in words.
RESULT_WORDS = {WIN: N_("a win"), DRAW: N_("a draw"), LOSS: N_("a loss")}
KEPT_WORDS = {WIN: N_("the win"), DRAW: N_("the draw"), LOSS: N_("the loss")}


def review(
    moves: Sequence[int],
    size: int,
    k: int,
    names: Mapping[str, str | Text] | None = None,
    marks: Mapping[str, str] | None = None,
) -> list[Text]:
    """Lines naming every move that changed the result, then a summary line.

    ``names`` maps "X" and "O" to display names, ``marks`` to the marks the board shows (the
    letters when left out). A move can only make its player's result
    worse (win to draw, win to loss, draw to loss); for each such move the line names the best
    move the player had instead. Raises ``engine.IllegalMoveError`` for an impossible move list.
    """
    sides = {side: who(side, names or {}, marks or {}) for side in ("X", "O")}
    lines: list[Text] = []
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
            lines.append(_mistake(number, sides[mark], board, cell, was, now))
        board, before = after, next_value
    if not any(mistakes.values()):
        lines.append(N_("No move changed the result: perfect play from both sides."))
    else:
        lines.append(
            N_(
                "Moves that changed the result: {x} {x_count}, {o} {o_count}.",
                x=sides["X"],
                x_count=mistakes["X"],
                o=sides["O"],
                o_count=mistakes["O"],
            )
        )
    return lines


def hint(moves: Sequence[int], size: int, k: int, keys: Sequence[str] = ()) -> Text:
    """The best move for the player to move, and what it achieves; `keys`: the reaction of
    each cell, named beside the cell where the board shows them instead of coordinates.

    Raises ``engine.IllegalMoveError`` if the game is over or the move list is impossible.
    """
    board = Board.from_moves(moves, size, k)
    values = analyse(board)
    cell = best_of(values)
    name, value = cell_name(cell, size), values[cell]
    if keys:
        name = f"{name} ({keys[cell]})"
    if value > 0:
        n = winner_moves(value)
        if n == 1:
            return N_("Play {cell}: it wins now.", cell=name)
        return NP_(
            "Play {cell}: it wins in {n} move.", "Play {cell}: it wins in {n} moves.", n, cell=name
        )
    if value == 0:
        if len(values) > 1 and all(v < 0 for c, v in values.items() if c != cell):
            return N_("Play {cell}: it holds the draw; every other move loses.", cell=name)
        return N_("Play {cell}: it holds the draw.", cell=name)
    return NP_(
        "Every move loses; {cell} holds out longest (loss in {n} move).",
        "Every move loses; {cell} holds out longest (loss in {n} moves).",
        winner_moves(value),
        cell=name,
    )


def _mistake(number: int, who: Text | str, board: Board, cell: int, was: str, now: str) -> Text:
    values = analyse(board)
    best = best_of(values)
    kept = N_("{cell} kept {result}", cell=cell_name(best, board.size), result=KEPT_WORDS[was])
    if was == WIN:
        kept = NP_(
            "{cell} kept the win (a win in {n} move)",
            "{cell} kept the win (a win in {n} moves)",
            winner_moves(values[best]),
            cell=cell_name(best, board.size),
        )
    return N_(
        "Move {number}: {who} played {cell}; the position went from {was} to {now}; {kept}.",
        number=number,
        who=who,
        cell=cell_name(cell, board.size),
        was=RESULT_WORDS[was],
        now=RESULT_WORDS[now],
        kept=kept,
    )


def who(side: str, names: Mapping[str, str | Text], marks: Mapping[str, str]) -> Text | str:
    name, mark = names.get(side), marks.get(side, side)
    return N_("{name} ({mark})", name=name, mark=mark) if name else mark
