"""What a puzzle is, and its proof by the solver.

A puzzle is a running position on a big board where the side to move wins by force with its
N-th move (N >= 2) and no sooner, and exactly one first move wins that fast. Other moves may
still win, more slowly; the puzzle asks for the fastest, the way a chess puzzle asks for the
mate in N. Each proof is a few null-window searches whose horizon is the win itself (2N - 1
plies), so it stays cheap whatever the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.api import _move_value, _sides
from engine.board import Board, IllegalMoveError
from engine.puzzles import short
from engine.rules import WIN
from engine.search import solver, trim_tables

# The longest puzzle the set holds, in moves of the side to move.
MOST_MOVES = 4


class PuzzleError(ValueError):
    """A puzzle line or value that does not hold a puzzle; the message says what is wrong."""


@dataclass(frozen=True)
class Puzzle:
    """A position, the number of moves the side to move needs, its only fastest first move, the
    puzzle's starting rating (its difficulty), and its answers if computed (its defence tree as
    text, engine.puzzles.tree; not part of the puzzle's identity)."""

    id: str
    board: Board
    moves: int
    solution: int
    difficulty: int
    answers: str = field(default="", compare=False, repr=False)

    def to_line(self) -> str:
        """The puzzle as one line of the data file: ``id size k board moves solution rating``,
        then its answers where it has them."""
        b = self.board
        fields = (self.id, b.size, b.k, b.to_string(), self.moves, self.solution, self.difficulty)
        return " ".join(map(str, fields + ((self.answers,) if self.answers else ())))

    @classmethod
    def from_line(cls, line: str) -> Puzzle:
        """The puzzle a data-file line holds (see `to_line`); PuzzleError if malformed."""
        fields = line.split()
        if len(fields) not in (7, 8):
            raise PuzzleError(f"expected 7 or 8 fields, got {len(fields)}")
        try:
            size, k, moves, solution, difficulty = (int(fields[i]) for i in (1, 2, 4, 5, 6))
            board = Board.from_string(fields[3], k)
        except (ValueError, IllegalMoveError) as exc:
            raise PuzzleError(str(exc)) from None
        if board.size != size:
            raise PuzzleError(f"the board is {board.size}x{board.size}, the line says {size}")
        answers = fields[7] if len(fields) == 8 else ""
        return cls(fields[0], board, moves, solution, difficulty, answers)


def wins_within(board: Board, cell: int, moves: int) -> bool:
    """Whether playing `cell` on the running `board` wins by force with at most `moves` moves of
    the mover, this one included (a win within two moves read from the lines, engine.puzzles.short,
    a slower one searched)."""
    s = solver(board.size, board.k)
    me, opp = _sides(board)
    known = short.wins_within(s.r, me, opp, cell, moves)
    if known is not None:
        return known
    trim_tables()
    target = WIN - board.ply - (2 * moves - 1)
    return _move_value(s, me, opp, cell, target - 1, target) >= target


def fastest(board: Board, *, most: int = MOST_MOVES) -> tuple[int, list[int]] | None:
    """The fewest moves N <= `most` in which the side to move can force a win, and every first
    move that does; None if it cannot within `most`."""
    if board.size == 3 or board.outcome() is not None:
        return None
    moves = board.legal_moves()
    for n in range(1, most + 1):
        winning = [cell for cell in moves if wins_within(board, cell, n)]
        if winning:
            return n, winning
    return None


def prove(puzzle: Puzzle) -> bool:
    """Whether the solver proves `puzzle`: a running big board where the side to move wins with
    exactly `moves` moves, `solution` the only first move that wins that fast."""
    board = puzzle.board
    if board.size == 3 or board.outcome() is not None or not 2 <= puzzle.moves <= MOST_MOVES:
        return False
    if puzzle.solution not in board.legal_moves():
        return False
    if not wins_within(board, puzzle.solution, puzzle.moves):
        return False
    if wins_within(board, puzzle.solution, puzzle.moves - 1):
        return False  # a faster win: the puzzle would be shorter than it says
    return not any(
        wins_within(board, cell, puzzle.moves)
        for cell in board.legal_moves()
        if cell != puzzle.solution
    )


def difficulty(board: Board, solution: int, moves: int) -> int:
    """A puzzle's starting rating, from what makes it hard to see: more moves to the win, more
    moves to choose from, a solution that is not the natural move (the one that builds and
    blocks the most lines), and a quiet solution (one that threatens no win in one)."""
    from engine.api import ranked_moves

    s = solver(board.size, board.k)
    me, opp = _sides(board)
    natural = ranked_moves(s, me, opp)[0]
    after = me | 1 << solution
    empty = s.r.full & ~(after | opp)
    threat = any(
        not line & opp and (line & ~after).bit_count() == 1 and line & empty
        for line in s.r.cell_lines[solution]
    )
    rating = 1000 + 250 * (moves - 2) + 10 * len(board.legal_moves())
    rating += 150 * (solution != natural) + 100 * (not threat)
    return rating
