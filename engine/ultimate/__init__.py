"""Ultimate tic-tac-toe: nine small 3x3 boards in a 3x3 grid, the bot's second kind of game.

`UltimateBoard` is the immutable position (global cells 0-80 in reading order of the 9x9 grid);
`best_move` chooses a move at one of `LEVELS`, gentlest first; `analyse` gives the search's
view (a move, its value, the depth reached, the nodes). Errors are `IllegalMoveError`, as on the
plain board. Cell names run from A1 (top-left) to I9 (`cell_name`, `parse_cell`). `NATIVE`
says whether the compiled search is built: it lets go of the GIL while it searches.

Rules: a move in cell c (0-8, reading order) of its small board sends the opponent to small
board c; if that board is closed (won, or full), the opponent may play in any open one. Three in
a row wins a small board and closes it; three won small boards in a row win the game; no open
small board left and no winner is a draw.
"""

from __future__ import annotations

from engine.board import IllegalMoveError, Outcome
from engine.ultimate.board import UltimateBoard
from engine.ultimate.geometry import BOARD_NAMES, cell_name, parse_cell
from engine.ultimate.play import LEVELS, Analysis, analyse, best_move
from engine.ultimate.search import NATIVE

__all__ = [
    "BOARD_NAMES",
    "LEVELS",
    "NATIVE",
    "Analysis",
    "IllegalMoveError",
    "Outcome",
    "UltimateBoard",
    "analyse",
    "best_move",
    "cell_name",
    "parse_cell",
]
