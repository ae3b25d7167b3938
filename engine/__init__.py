"""Pure, synchronous tic-tac-toe engine for boards from 3x3 to 5x5 (k in a row).

`Board` is the immutable position; `best_move` chooses a move at one of `LEVELS`; `evaluate` and
`analyse` give exact game values (a win in n plies is 100 - n, a draw 0, a loss in n plies
-(100 - n)). Errors are `IllegalMoveError`, a ValueError.
"""

from __future__ import annotations

from engine.api import analyse, evaluate
from engine.board import Board, IllegalMoveError, Outcome
from engine.play import LEVELS, best_move

__all__ = ["LEVELS", "Board", "IllegalMoveError", "Outcome", "analyse", "best_move", "evaluate"]
