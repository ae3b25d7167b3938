"""Pure, synchronous tic-tac-toe engine for boards from 3x3 to 5x5 (k in a row).

`Board` is the immutable position; `best_move` chooses a move at one of `LEVELS` (`quick_move`
gives it where it needs no search); `evaluate` and `analyse` give exact game values (a win in n
plies is 100 - n, a draw 0, a loss in n plies -(100 - n)); `classify` gives only its sign, more
cheaply off the book. Errors are
`IllegalMoveError`, a ValueError. The facts a caller needs are exported here too: the board
`SIZES`, `default_k`, the value scale `WIN`, the move budget, and cell names (`cell_name`,
`parse_cell`: "A1" is the top-left cell).

The solver and the opening book load on first use, so a 3x3 game starts quickly. Ultimate
tic-tac-toe, nine boards in one, is the sub-package `engine.ultimate`.
"""

from __future__ import annotations

from engine.board import Board, IllegalMoveError, Outcome
from engine.cells import cell_name, parse_cell
from engine.levels import LEVELS
from engine.play import MOVE_BUDGET, best_move, quick_move
from engine.rules import SIZES, WIN, default_k

# As typing.TYPE_CHECKING, without importing typing at run time; every engine module does the same.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from engine.api import analyse, classify, evaluate
    from engine.board import Side as Side
    from engine.levels import Level as Level


def __getattr__(name: str) -> object:
    if name in ("analyse", "classify", "evaluate"):
        from engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")


__all__ = [
    "LEVELS",
    "MOVE_BUDGET",
    "SIZES",
    "WIN",
    "Board",
    "IllegalMoveError",
    "Outcome",
    "analyse",
    "best_move",
    "cell_name",
    "classify",
    "default_k",
    "evaluate",
    "parse_cell",
    "quick_move",
]
