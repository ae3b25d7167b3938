"""The search: principal variation search (negamax alpha-beta with null windows) under
iterative deepening, a transposition table keyed by Zobrist hashing, and move ordering by the
table's move, small boards won at once, and the history heuristic.

One `Search` holds a mutable copy of the position (each side's marks per small board, the boards
won and closed, and each board's chances from `evaluation.chances`) and makes and unmakes moves in
place; `engine.ultimate.play` turns an `UltimateBoard` into one and back. Moves are board-major
(``9 * b + c``). Values are for the side to move: a game won n plies from the root is
``WIN - n``.
"""

from __future__ import annotations

import random
import threading
import time
from array import array

from engine.ultimate.evaluation import DEFAULT, Weights, chances, score
from engine.ultimate.geometry import FULL, WINNING_CELLS, WON

try:
    from engine.ultimate import _core
except ImportError:  # not built: the search in Python below, many times slower
    _core = None  # type: ignore[assignment]
NATIVE = _core is not None  # the compiled search, which runs without holding the GIL

WIN = 1_000_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
_zobrist = random.Random(20261125)
ZOBRIST = tuple(tuple(_zobrist.getrandbits(64) for _ in range(81)) for _ in range(2))
ZOBRIST_TARGET = tuple(_zobrist.getrandbits(64) for _ in range(10))  # index target + 1


class Timeout(Exception):
    """The deadline passed during a search."""


class Search:
    """A position under search; `root_values` searches it to a depth, `nodes` counts."""

    def __init__(self, x: int, o: int, target: int, weights: Weights = DEFAULT) -> None:
        self.weights = weights
        self.table = chances(weights.fill)
        self.marks = [[x >> 9 * b & FULL for b in range(9)], [o >> 9 * b & FULL for b in range(9)]]
        self.side = 0 if x.bit_count() == o.bit_count() else 1
        self.target = target  # the small board to play, -1 for any open one
        self.won = [0, 0]
        self.closed = 0
        self.chance: list[list[float]] = [[0.0] * 9, [0.0] * 9]
        self.hash = ZOBRIST_TARGET[target + 1]
        for b in range(9):
            for side in (0, 1):
                mine = self.marks[side][b]
                for c in range(9):
                    if mine >> c & 1:
                        self.hash ^= ZOBRIST[side][9 * b + c]
            self._rate(b)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [[0] * 81, [0] * 81]
        self.nodes = 0
        self.deadline: float | None = None

    def _rate(self, b: int) -> None:
        """Set board b's won and closed bits and both sides' chances from its marks."""
        xs, os = self.marks[0][b], self.marks[1][b]
        bit = 1 << b
        if WON[xs] or WON[os]:
            winner = 0 if WON[xs] else 1
            self.won[winner] |= bit
            self.closed |= bit
            self.chance[winner][b], self.chance[1 - winner][b] = 1.0, 0.0
        elif xs | os == FULL:
            self.closed |= bit
            self.chance[0][b] = self.chance[1][b] = 0.0
        else:
            self.chance[0][b] = self.table[xs | os << 9]
            self.chance[1][b] = self.table[os | xs << 9]

    def moves(self, target: int) -> list[int]:
        """The legal moves (board-major) where `target` is the board to play (-1: any open)."""
        marks0, marks1 = self.marks
        if target >= 0:
            free = FULL & ~(marks0[target] | marks1[target])
            return [9 * target + c for c in range(9) if free >> c & 1]
        out: list[int] = []
        closed = self.closed
        for b in range(9):
            if not closed >> b & 1:
                free = FULL & ~(marks0[b] | marks1[b])
                out.extend(9 * b + c for c in range(9) if free >> c & 1)
        return out

    def evaluate(self, side: int, target: int) -> int:
        """The static value for `side` to move with `target` to play."""
        value = score(self.chance[0], self.chance[1], self.weights)
        if side:
            value = -value
        if target < 0:
            value += self.weights.choice
        return int(value)

    def ordered(self, side: int, target: int, first: int) -> list[int]:
        """Moves in search order: `first` (the table's), boards won at once, then by history."""
        moves = self.moves(target)
        history = self.history[side]
        mine = self.marks[side]
        keys = {}
        for move in moves:
            b, c = divmod(move, 9)
            keys[move] = history[move] + (1 << 30 if WINNING_CELLS[mine[b]] >> c & 1 else 0)
        if first in keys:
            keys[first] = 1 << 40
        moves.sort(key=keys.__getitem__, reverse=True)
        return moves

    def play(self, side: int, move: int) -> tuple[int, int, int, int, float, float] | None:
        """Make `move`; None (and nothing made) if it wins the game, else what `undo` needs."""
        b, c = divmod(move, 9)
        saved = (
            self.won[side],
            self.closed,
            self.marks[side][b],
            self.target,
            self.chance[0][b],
            self.chance[1][b],
        )
        self.marks[side][b] |= 1 << c
        self._rate(b)
        if WON[self.won[side]]:
            self._restore(side, b, saved)
            return None
        target = -1 if self.closed >> c & 1 else c
        self.hash ^= ZOBRIST[side][move] ^ ZOBRIST_TARGET[self.target + 1]
        self.hash ^= ZOBRIST_TARGET[target + 1]
        self.target = target
        return saved

    def undo(self, side: int, move: int, saved: tuple[int, int, int, int, float, float]) -> None:
        """Unmake `move` made by `play`."""
        self.hash ^= ZOBRIST[side][move] ^ ZOBRIST_TARGET[self.target + 1]
        self.hash ^= ZOBRIST_TARGET[saved[3] + 1]
        self._restore(side, move // 9, saved)

    def _restore(self, side: int, b: int, saved: tuple[int, int, int, int, float, float]) -> None:
        won, self.closed, self.marks[side][b], self.target, self.chance[0][b], self.chance[1][b] = (
            saved
        )
        self.won[side] = won

    def negamax(self, depth: int, alpha: int, beta: int, side: int, ply: int) -> int:
        """The value of the position for `side` to move, searched `depth` plies deep."""
        self.nodes += 1
        deadline = self.deadline
        if not self.nodes & 1023 and deadline is not None and time.monotonic() > deadline:
            raise Timeout
        if self.closed == FULL:
            return 0
        target = self.target
        if depth <= 0:
            return self.evaluate(side, target)
        key = self.hash
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if value > WIN - 200:
                    value -= ply
                elif value < 200 - WIN:
                    value += ply
                if flag == _EXACT:
                    return value
                if flag == _LOWER and value >= beta:
                    return value
                if flag == _UPPER and value <= alpha:
                    return value
        start_alpha = alpha
        best, best_move = -WIN - 1, -1
        history = self.history[side]
        for i, move in enumerate(self.ordered(side, target, first)):
            saved = self.play(side, move)
            if saved is None:
                value = WIN - ply - 1
            else:
                if i == 0:
                    value = -self.negamax(depth - 1, -beta, -alpha, 1 - side, ply + 1)
                else:
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, 1 - side, ply + 1)
                    if alpha < value < beta:
                        value = -self.negamax(depth - 1, -beta, -value, 1 - side, ply + 1)
                self.undo(side, move, saved)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[move] += depth * depth
                        break
        flag = _EXACT if start_alpha < best < beta else _LOWER if best >= beta else _UPPER
        stored = best + ply if best > WIN - 200 else best - ply if best < 200 - WIN else best
        self.tt[key] = (depth, flag, stored, best_move)
        return best


def run(
    search: Search, moves: list[int], depth: int, deadline: float | None, native: bool = True
) -> tuple[int, int, int, int, list[int]]:
    """Search `moves` (board-major) deeper and deeper, to `depth` or until `deadline` (the first
    ply always completes): the best move, its value, the depth completed, the nodes searched
    and each move's value at that depth (bounds for all but the best). With `native`, in the
    compiled core where it is built; the same search and values in either."""
    if native and _core is not None:
        _load_table(search.weights)
        weights = search.weights
        seconds = None if deadline is None else deadline - time.monotonic()
        return _core.root(
            search.marks[0],
            search.marks[1],
            search.side,
            search.target,
            moves,
            depth,
            seconds,
            (weights.lines, weights.boards, weights.choice),
        )
    side = search.side
    values = dict.fromkeys(moves, 0)
    best, best_value, done = moves[0], 0, 0
    for level in range(1, depth + 1):
        search.deadline = deadline if level > 1 else None
        found, found_value = -1, -WIN - 1
        try:
            alpha = -WIN - 1
            for move in sorted(moves, key=values.__getitem__, reverse=True):
                saved = search.play(side, move)
                if saved is None:
                    value = WIN - 1
                else:
                    if found < 0:  # the first move: a full window
                        value = -search.negamax(level - 1, -WIN - 1, WIN + 1, 1 - side, 1)
                    else:  # the others: a null window, searched again if one does better
                        value = -search.negamax(level - 1, -alpha - 1, -alpha, 1 - side, 1)
                        if value > alpha:
                            value = -search.negamax(level - 1, -WIN - 1, -alpha, 1 - side, 1)
                    search.undo(side, move, saved)
                values[move] = value
                if value > found_value:
                    found, found_value, alpha = move, value, max(alpha, value)
        except Timeout:
            if found >= 0:
                best, best_value = found, found_value
            break
        best, best_value, done = found, found_value, level
        if abs(best_value) > WIN - 200 or len(moves) == 1:
            break
    return best, best_value, done, search.nodes, [values[m] for m in moves]


_loaded_fill: list[float] = []
_loading = threading.Lock()


def _load_table(weights: Weights) -> None:
    """Give the compiled core the chance table for `weights.fill`, once per fill. The table is
    shared by every thread: searches with different fills must not run in threads at once (the
    bot's all use the default weights; tuning runs in processes of its own)."""
    with _loading:
        if _loaded_fill != [weights.fill]:
            assert _core is not None
            _core.set_table(array("d", chances(weights.fill)))
            _loaded_fill[:] = [weights.fill]
