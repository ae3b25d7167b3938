"""Missed wins: the puzzles a finished game leaves behind.

A position of a game is a missed win when the player to move could force a win within
`MOST_MOVES` of their moves and played a move that wins more slowly, or not at all. It becomes a
puzzle when it is one by `prove`'s rule: the fastest win takes 2 to `MOST_MOVES` moves (a missed
win in one is a blunder, not a puzzle) and exactly one first move wins that fast. 3x3 boards
have no puzzles (`prove` refuses them: every 3x3 position is in the engine's table, and its wins
are too short to ask for).

Each position costs one null-window search of the solver whose horizon is `MOST_MOVES` moves of
the mover; only positions that pass it (a forced win exists) are searched further, so a game costs
a few milliseconds unless it is full of wins. The dearest are the opening's, where proving that
no win exists searches deepest, and every game passes through them: their verdicts are shipped
(engine/data/missed.txt, written by scripts/build_missed.py), as the opening book ships values.
Each line reads ``size k board-text verdict``: the board in canonical form (engine.book), and
``-`` (no puzzle there, whatever is played) or ``N:cell`` (a puzzle: the fastest win takes N
moves, and `cell`, in that frame, is its only first move that fast). Lines starting with ``#``
are comments that state the coverage. Read lazily, once per process.
"""

from __future__ import annotations

import hashlib
import os

from engine import book
from engine.api import _sides, ranked_moves
from engine.board import Board
from engine.puzzles import short
from engine.puzzles.answers import with_answers
from engine.puzzles.proof import MOST_MOVES, Puzzle, difficulty, wins_within
from engine.rules import WIN, rules
from engine.search import SearchTimeout, solver, trim_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def puzzle_id(board: Board) -> str:
    """A missed-win puzzle's id, from its position alone: the same position from two games is
    one puzzle. ``m`` (not a shipped id), the board's size and k, and 12 hex digits of a hash."""
    digest = hashlib.sha256(f"{board.size}:{board.k}:{board.to_string()}".encode()).hexdigest()
    return f"m{board.size}{board.k}-{digest[:12]}"


def _wins_within(board: Board, moves: int) -> bool:
    """Whether the side to move on the running `board` forces a win within `moves` moves."""
    known = book.value(board)  # the opening, where proving that no win exists costs the most
    if known is not None:
        return known >= WIN - (2 * moves - 1)
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    quickest = short.fastest(s.r, me, opp)  # a win within two moves is read from the lines
    if quickest <= 2 or moves <= 2:
        return quickest <= moves
    trim_tables()
    target = WIN - board.ply - (2 * moves - 1)
    return s.search(me, opp, target - 1, target) >= target


OPENINGS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "missed.txt")
# (the fastest win in moves, its only first move): a puzzle; None: no puzzle, whatever is played.
Verdict = tuple[int, int] | None
_OPENINGS: dict[tuple[int, int, int, int], Verdict] | None = None
_OPENING_PLY: dict[tuple[int, int], int] = {}  # (size, k) -> the highest ply the file holds


def read_openings(text: str) -> dict[tuple[int, int, int, int], Verdict]:
    """The verdicts of a verdicts file's text: (size, k, x, o) of a canonical board -> verdict.
    A malformed line raises ValueError naming it."""
    out: dict[tuple[int, int, int, int], Verdict] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw or raw.startswith("#"):
            continue
        try:
            size, k, text_, said = raw.split()
            board = Board.from_string(text_, int(k))
            if board.size != int(size) or board.outcome() is not None:
                raise ValueError("not a running board of that size")
            moves, _, cell = said.partition(":")
            verdict = None if said == "-" else (int(moves), int(cell))
        except ValueError as exc:
            raise ValueError(f"missed-win verdicts line {number}: {exc}: {raw!r}") from None
        out[board.size, board.k, board.x, board.o] = verdict
    return out


def _opening(board: Board) -> tuple[bool, Verdict]:
    """(True, the shipped verdict in `board`'s own frame) if the file holds the position; else
    (False, None)."""
    global _OPENINGS
    if _OPENINGS is None:
        _OPENINGS = read_openings(book.shipped(OPENINGS))
        _OPENING_PLY.update(book.highest_plies(_OPENINGS))
    if board.ply > _OPENING_PLY.get((board.size, board.k), -1):
        return False, None
    canon, t = book.canonical(board)
    key = (board.size, board.k, canon.x, canon.o)
    if key not in _OPENINGS:
        return False, None
    verdict = _OPENINGS[key]
    if verdict is None:
        return True, None
    # A unique fastest move is where every symmetry of the board takes it: any undoes the frame.
    return True, (verdict[0], rules(board.size, board.k).perms[t].index(verdict[1]))


def verdict(board: Board, played: int | None = None) -> Verdict:
    """Whether the running `board` is a puzzle, by search: the fastest win and its only first
    move, or None. With `played`, None as soon as `played` is found to win that fast (no win
    was missed): the move played is tried third."""
    if not _wins_within(board, MOST_MOVES):
        return None
    fastest = next(n for n in range(1, MOST_MOVES + 1) if _wins_within(board, n))
    if fastest < 2:
        return None
    # The solution: the only move that wins that fast, which makes it a puzzle (`prove`'s rule:
    # no move wins faster). The moves are tried in the solver's order, the table's move first:
    # two winners (no puzzle, whatever was played) are often the first two.
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    hinted = s.table_move(me, opp)
    rank = {cell: i for i, cell in enumerate(ranked_moves(s, me, opp))}
    order = sorted(board.legal_moves(), key=lambda c: (c != hinted, rank.get(c, len(rank))))
    if played is not None:
        order.remove(played)
        order.insert(2, played)
    winners = []
    for cell in order:
        if wins_within(board, cell, fastest):
            winners.append(cell)
            if cell == played or len(winners) > 1:
                return None
    return fastest, winners[0]


def missed_at(board: Board, played: int) -> Puzzle | None:
    """The puzzle on `board` if the side to move, who played `played` there, missed a win
    (see the module's docstring); None if they took it, had none, or it is no puzzle."""
    if board.size == 3 or board.outcome() is not None:
        return None
    shipped, found = _opening(board)
    if not shipped:
        found = verdict(board, played)
    if found is None or found[1] == played:
        return None
    fastest, solution = found  # some move wins that fast, and not the one played
    return Puzzle(puzzle_id(board), board, fastest, solution, difficulty(board, solution, fastest))


def missed_wins(
    size: int,
    k: int,
    moves: Iterable[int],
    *,
    sides: Iterable[str] = ("X", "O"),
    deadline: float | None = None,
) -> list[Puzzle]:
    """The puzzles of a finished classic game (its moves in order, X first): each position where
    a player of `sides` missed a win, in the order played, one per position.

    Each puzzle carries its answers (engine.puzzles.answers), so that its attempts need no
    search; they are computed once the whole game is judged, so that they never cost a puzzle.
    With `deadline` (a time.monotonic() value) the positions not judged by then are left out,
    and the puzzles not answered by then are kept without answers (an attempt then searches):
    the cost of a game is bounded whatever it holds.
    """
    wanted = frozenset(sides)
    board = Board.empty(size, k)
    found: list[Puzzle] = []
    if size == 3:
        return found
    s = solver(size, k)
    try:
        with s.bounded(deadline):
            for cell in moves:
                if board.outcome() is not None:
                    break
                if board.turn in wanted:
                    puzzle = missed_at(board, cell)
                    if puzzle is not None and puzzle.id not in {p.id for p in found}:
                        found.append(puzzle)
                board = board.play(cell)
            for i, puzzle in enumerate(found):
                found[i] = with_answers(puzzle)
    except SearchTimeout:
        pass  # the rest of the game is left unjudged, or the rest of its puzzles unanswered
    return found
