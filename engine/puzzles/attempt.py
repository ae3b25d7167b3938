"""An attempt at a puzzle, move by move: the player's moves judged, the longest defence played.

An attempt is a value: each move returns a new one. The player must win as fast as the puzzle
says: the first move is the puzzle's solution, and each later move any that still wins within
the moves left (equal wins are all accepted). After a right move that does not end the game the
defender answers with the reply that holds out longest. A wrong move ends the attempt with the
reason: the win is slower than the puzzle's, the win has slipped to a draw, or the move loses;
with it the defender's best answer (the refutation) and a move that would have won in time
instead (the puzzle's solution on the first move).

Where the puzzle carries its answers (engine.puzzles.tree, computed when it was built or found)
a move and a hint are lookups (`answered`, `hinted`); otherwise each is a search (`judge`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from engine.api import _sides, analyse, classify, optimal_move, ranked_moves
from engine.board import Board, IllegalMoveError
from engine.puzzles import short, tree
from engine.puzzles.proof import Puzzle, wins_within
from engine.search import solver

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    State = Literal["playing", "solved", "slower", "draw", "loses"]


@dataclass(frozen=True)
class Attempt:
    """A puzzle, the moves played since its position (the player's and the defender's, in
    turn), the hints taken, and the state: playing, solved, or the reason it failed; after a
    wrong move, the defender's refutation and a move that would have won in time (`better`:
    known only to the attempt the wrong move returned; the puzzle's solution if it was the
    first)."""

    puzzle: Puzzle
    moves: tuple[int, ...] = ()
    hints: int = 0
    state: State = "playing"
    refutation: int | None = None
    better: int | None = None

    @cached_property
    def board(self) -> Board:
        """The position now (worked out once for each attempt: its moves never change)."""
        board = self.puzzle.board
        for cell in self.moves:
            board = board.play(cell)
        return board

    @property
    def left(self) -> int:
        """The player's moves left to win in, counting the next."""
        return self.puzzle.moves - (len(self.moves) + 1) // 2

    @property
    def clean(self) -> bool:
        """Solved without a hint: what counts as a win for the ratings."""
        return self.state == "solved" and not self.hints


def play(attempt: Attempt, cell: int) -> Attempt:
    """The attempt after the player plays `cell` (and, if the game goes on, the defence): the
    puzzle's stored answer if it has one, else `judge`'s.

    Raises IllegalMoveError if the attempt is over or `cell` is not a legal move.
    """
    known = answered(attempt, cell)
    return known if known is not None else judge(attempt, cell)


def answered(attempt: Attempt, cell: int) -> Attempt | None:
    """`play`'s answer from the puzzle's stored answers, without a search; None where they do
    not hold it (no answers, or an attempt that is over, or an illegal move: `play` says why)."""
    if attempt.state != "playing":
        return None
    found = tree.node(attempt.puzzle.answers, attempt.moves)
    if found is None:
        return None
    hint_cell, outcomes = found
    outcome = outcomes.get(cell)
    if outcome is None:
        return None
    state, reply = outcome
    if state == "playing":
        assert reply is not None
        return replace(attempt, moves=(*attempt.moves, cell, reply))
    moves = (*attempt.moves, cell)
    better = None if state == "solved" else hint_cell  # a move that would have won in time
    return replace(
        attempt,
        moves=moves,
        state=state,  # type: ignore[arg-type]
        refutation=reply,
        better=better,
    )


def judge(attempt: Attempt, cell: int, *, better: bool = True) -> Attempt:
    """`play` by search: the move judged by the solver, the defence or refutation found (and,
    unless `better` is False, after a wrong move one that would have won in time)."""
    if attempt.state != "playing":
        raise IllegalMoveError("the attempt is over")
    board = attempt.board
    if cell not in board.legal_moves():
        raise IllegalMoveError(f"cell {cell} is not a legal move")
    after = board.play(cell)
    moves = (*attempt.moves, cell)
    if after.outcome() is not None:
        # A legal move that ends the game here is a win (a right move never fills the board).
        if after.outcome().winner is not None:  # type: ignore[union-attr]
            return replace(attempt, moves=moves, state="solved")
        return replace(attempt, moves=moves, state="draw", better=_better(attempt, better))
    right = (
        cell == attempt.puzzle.solution
        if not attempt.moves
        else wins_within(board, cell, attempt.left)
    )
    if right:
        return replace(attempt, moves=(*moves, defence(after)))
    sign, refutation = refuted(after)
    state: State = "slower" if sign < 0 else "draw" if sign == 0 else "loses"
    known = _better(attempt, better)
    return replace(attempt, moves=moves, state=state, refutation=refutation, better=known)


def refuted(board: Board) -> tuple[int, int]:
    """The defender's view of a running `board` after a wrong move: the sign of its value (1 a
    forced win, 0 a draw, -1 a loss) and its best reply, the refutation (`classify` and
    `optimal_move`, whose order of moves it follows): read from the lines where they show both
    (engine.puzzles.short); else, where the defender wins in three moves (no faster win is
    possible once the lines show none), the first move that does; else searched."""
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    ranked: list[int] = []

    def ranking() -> list[int]:
        if not ranked:
            ranked.extend(ranked_moves(s, me, opp))
        return ranked

    known = short.refutation(s.r, me, opp, ranking)
    if known is not None:
        sign, cell = known
        return classify(board) if sign is None else sign, cell
    found = next((cell for cell in ranking() if wins_within(board, cell, 3)), None)
    if found is not None:
        return 1, found
    return classify(board), optimal_move(board)


def _better(attempt: Attempt, wanted: bool) -> int | None:
    return hint(attempt)[1] if wanted else None


def defence(board: Board) -> int:
    """The defender's reply that holds out longest (the lowest cell among equals). Where the
    defender completes no line and the winner has lines to complete (engine.puzzles.short),
    it is the one cell to stop, or with two or more to stop (every reply loses at once) the
    lowest cell; else each reply's exact value decides."""
    r = solver(board.size, board.k).r
    me, opp = _sides(board)
    if not short.completing(r, me, opp):
        threats = short.completing(r, opp, me)
        if threats & (threats - 1):
            return min(board.legal_moves())
        if threats:
            return threats.bit_length() - 1
    values = analyse(board)
    best = max(values.values())
    return min(c for c, v in values.items() if v == best)


def hint(attempt: Attempt) -> tuple[Attempt, int]:
    """A move that wins in time, and the attempt with the hint counted."""
    if attempt.state != "playing":
        raise IllegalMoveError("the attempt is over")
    cell = hinted(attempt)
    if cell is None:
        cell = winning(attempt)
    return replace(attempt, hints=attempt.hints + 1), cell


def hinted(attempt: Attempt) -> int | None:
    """`hint`'s cell from the puzzle's stored answers (the first move: the solution), without a
    search; None where they do not hold it."""
    if attempt.state != "playing":
        return None
    if not attempt.moves:
        return attempt.puzzle.solution
    found = tree.node(attempt.puzzle.answers, attempt.moves)
    return None if found is None else found[0]


def winning(attempt: Attempt) -> int:
    """By search: the first move (the lowest cell) that wins in time; the solution first."""
    if not attempt.moves:
        return attempt.puzzle.solution
    board = attempt.board
    return next(c for c in board.legal_moves() if wins_within(board, c, attempt.left))
