"""Exact game solver: negamax with alpha-beta over bitboards, with a warm transposition table.

Internal scores are absolute: a game won when the board holds `t` marks scores WIN - t for the
winner (draw 0), so a position's value does not depend on the path to it and the table can share
it. Public values are relative to the position (see engine.api.evaluate).

Pruning that keeps the result exact: an immediate win ends the search; two opponent threats lose;
one opponent threat forces the block; when no line can still be completed by either side (given
the moves each has left) the game is a draw; cells in no live line are interchangeable, so only
one is tried; the eight symmetries of the square share table entries on the early plies; a side
the other holds a pairing strategy against (engine.pairing) cannot win, so its value is at most 0,
and when both sides are so held the position is a draw.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from engine.pairing import Pairing
from engine.rules import WIN, Rules, rules

_INF = 1000
_TABLE_LIMIT = 1_200_000  # entries across all solvers: about 120 MB at worst
_SYMMETRY_EMPTIES = 9  # canonicalise under the 8 symmetries while at least this many cells empty
_TRIES = 4  # moves tried before a pairing test gives up
NO_LIMIT = 1 << 62  # a solver's node_limit when it has none


class SearchTimeout(Exception):
    """Raised inside a search when its deadline passes."""


class Solver:
    """A solver for one (size, k), holding its transposition table between calls."""

    def __init__(self, r: Rules) -> None:
        self.r = r
        self.table: dict[int, int] = {}
        self.deadline: float | None = None
        self.nodes = 0
        # With a deadline, the search also stops (SearchTimeout) once `nodes` passes this.
        self.node_limit = NO_LIMIT
        self.pairing = Pairing(r.cells)
        # _through[c]: the indices (as bits) of the lines through cell c.
        self._through = tuple(
            sum(1 << i for i, line in enumerate(r.lines) if line >> c & 1) for c in range(r.cells)
        )
        self._inverse = tuple(tuple(p.index(c) for c in range(r.cells)) for p in r.perms)
        # Static order: cells through many lines first (centre, then the rest).
        self._static = sorted(range(r.cells), key=lambda c: -len(r.cell_lines[c]))

    @contextlib.contextmanager
    def bounded(self, deadline: float | None) -> Iterator[None]:
        """Within it, a search stops (SearchTimeout) at `deadline` or at the deadline already
        in force, whichever comes first; the one in force before is in force again after, so a
        call bounded inside another (a puzzle's answers, inside the search of a finished game
        for missed wins) never lifts the outer one."""
        before = self.deadline
        if deadline is not None and (before is None or deadline < before):
            self.deadline = deadline
        try:
            yield
        finally:
            self.deadline = before

    # ---- table keys -------------------------------------------------------------------------

    def _key(self, me: int, opp: int, empties: int) -> tuple[int, int]:
        """The table key and the symmetry index that maps the position onto it."""
        r = self.r
        cells = r.cells
        if empties < _SYMMETRY_EMPTIES:
            return me | opp << cells, 0
        size = r.size
        rmask = (1 << size) - 1
        best = -1
        best_t = 0
        for t, maps in enumerate(r.row_maps):
            a = b = 0
            for row in range(size):
                shift = row * size
                table = maps[row]
                a |= table[me >> shift & rmask]
                b |= table[opp >> shift & rmask]
            key = a | b << cells
            if best < 0 or key < best:
                best, best_t = key, t
        return best, best_t

    def table_move(self, me: int, opp: int) -> int:
        """The best move the table holds for a position (in its own frame), or -1."""
        key, sym = self._key(me, opp, self.r.cells - (me | opp).bit_count())
        entry = self.table.get(key)
        move = -1 if entry is None else (entry >> 16) - 1
        if move >= 0 and sym:
            move = self._inverse[sym][move]
        return move

    # ---- the search ---------------------------------------------------------------------------

    def search(self, me: int, opp: int, alpha: int, beta: int) -> int:
        """The absolute value of a running position for the side to move, within (alpha, beta)."""
        self.nodes += 1
        deadline = self.deadline
        # The clock at every node (a read is some 50 ns, a node tens of microseconds): read
        # every 1,024 nodes, a deadline passed unseen through any run of smaller searches. The
        # node limit is checked every 1,024 nodes, so a limited search stops at the same node
        # whatever the clock.
        if deadline is not None and (
            time.monotonic() >= deadline
            or (not self.nodes & 1023 and self.nodes >= self.node_limit)
        ):
            raise SearchTimeout
        r = self.r
        k1 = r.k - 1
        occupied = me | opp
        filled = occupied.bit_count()
        empty_mask = r.full & ~occupied
        n_empty = r.cells - filled
        my_left = (n_empty + 1) >> 1
        opp_left = n_empty >> 1
        threats = 0
        my_live = 0
        opp_live = 0
        my_idx = 0
        opp_idx = 0
        my_spans: list[int] = []
        opp_spans: list[int] = []
        k = r.k
        bit = 1
        for line in r.lines:
            if not line & opp:
                mine = (line & me).bit_count()
                if mine == k1:
                    return WIN - filled - 1
                if k - mine <= my_left:
                    my_live |= line
                    my_idx |= bit
                    my_spans.append(line & empty_mask)
            if not line & me:
                theirs = (line & opp).bit_count()
                if theirs == k1:
                    threats |= line & empty_mask
                elif k - theirs <= opp_left:
                    opp_live |= line
                    opp_idx |= bit
                    opp_spans.append(line & empty_mask)
            bit <<= 1
        if threats:
            if threats & (threats - 1):
                return filled + 2 - WIN
            opp_live |= threats
        live = my_live | opp_live
        if not live & empty_mask or n_empty == 1:
            return 0
        # Bounds: no result beats a win next move or a loss after the reply, and a side with no
        # line it can still complete cannot win; nor can a side the other holds a pairing against.
        floor = filled + 2 - WIN if opp_live else 0
        ceiling = WIN - filled - 1 if my_live else 0
        if ceiling > 0 and beta > 0 and self._paired(my_idx, my_spans, empty_mask, 0):
            ceiling = 0
        if floor < 0 and alpha < 0:
            if threats:
                if self._paired(opp_idx, opp_spans, empty_mask, threats):
                    floor = 0
            elif self._paired_after_move(opp_idx, opp_spans, empty_mask):
                floor = 0
        if floor == ceiling:
            return 0
        if alpha < floor:
            alpha = floor
        if beta > ceiling:
            beta = ceiling
        if alpha >= beta:
            return alpha if alpha == floor else beta
        key, sym = self._key(me, opp, n_empty)
        table = self.table
        entry = table.get(key)
        tt_move = -1
        if entry is not None:
            lo = (entry & 0xFF) - 128
            hi = (entry >> 8 & 0xFF) - 128
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            tt_move = (entry >> 16) - 1
            if tt_move >= 0 and sym:
                tt_move = self._inverse[sym][tt_move]
        else:
            lo, hi = -_INF, _INF
        if threats:
            moves = [threats.bit_length() - 1]
        else:
            moves = self.order(me, opp, empty_mask, live, tt_move)
        orig_alpha = alpha
        best = -_INF
        best_move = moves[0]
        for cell in moves:
            value = -self.search(opp, me | 1 << cell, -beta, -alpha)
            if value > best:
                best = value
                best_move = cell
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best <= orig_alpha:
            new_lo, new_hi = lo, min(hi, best)
        elif best >= beta:
            new_lo, new_hi = max(lo, best), hi
        else:
            new_lo = new_hi = best
        stored_move = r.perms[sym][best_move] if sym else best_move
        table[key] = (
            (max(new_lo, -128) + 128) | (min(new_hi, 127) + 128) << 8 | (stored_move + 1) << 16
        )
        return best

    def _paired(self, idx: int, spans: list[int], empty: int, move: int) -> bool:
        """Whether the other side holds a pairing against the lines `idx` (empty cells `spans`).

        With `move` (a forced block by the side holding the pairing), the pairing must hold after
        it: the lines through it die and its cell is no longer free.
        """
        if move:
            idx = self._without(idx, move)
            spans = [span & ~move for span in spans if not span & move]
            empty &= ~move
        if 2 * len(spans) > empty.bit_count():
            return False
        return self.pairing.exists(idx << self.r.cells | empty, spans)

    def _without(self, idx: int, cell: int) -> int:
        """The line set `idx` without the lines through `cell` (a one-bit mask)."""
        return idx & ~self._through[cell.bit_length() - 1]

    def _paired_after_move(self, idx: int, spans: list[int], empty: int) -> bool:
        """Whether some move of the side to move leaves it a pairing against the lines `idx`."""
        if self._paired(idx, spans, empty, 0):
            return True
        union = 0
        for span in spans:
            union |= span
        # Only moves that kill enough lines can leave a pairing; try the strongest few.
        room = (empty.bit_count() - 1) // 2
        need = len(spans) - room
        through = self._through
        candidates = []
        while union:
            cell = union & -union
            union ^= cell
            killed = (idx & through[cell.bit_length() - 1]).bit_count()
            if killed >= need:
                candidates.append((killed, cell))
        candidates.sort(reverse=True)
        return any(self._paired(idx, spans, empty, cell) for _, cell in candidates[:_TRIES])

    def order(self, me: int, opp: int, empty_mask: int, live: int, tt_move: int) -> list[int]:
        """Empty cells, best first: the table's move, then by the lines each builds or blocks."""
        r = self.r
        scored: list[tuple[int, int]] = []
        dead_taken = False
        for cell in self._static:
            bit = 1 << cell
            if not empty_mask & bit:
                continue
            if not live & bit:
                # Cells in no live line are interchangeable: one stands for all.
                if dead_taken and cell != tt_move:
                    continue
                dead_taken = True
                scored.append((-1, cell))
                continue
            score = 0
            for line in r.cell_lines[cell]:
                if not line & opp:
                    score += 1 << 2 * (line & me).bit_count()
                if not line & me:
                    score += 1 << 2 * (line & opp).bit_count()
            if cell == tt_move:
                score = 1 << 30
            scored.append((score, cell))
        scored.sort(reverse=True)
        return [cell for _, cell in scored]


_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver(size: int, k: int) -> Solver:
    """The process-wide solver for (size, k), created on first use."""
    s = _SOLVERS.get((size, k))
    if s is None:
        s = _SOLVERS[(size, k)] = Solver(rules(size, k))
    return s


def trim_tables() -> None:
    """Drop every table once together they hold more than the memory budget allows."""
    if sum(len(s.table) for s in _SOLVERS.values()) > _TABLE_LIMIT:
        for s in _SOLVERS.values():
            s.table.clear()
