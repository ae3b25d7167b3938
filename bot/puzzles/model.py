"""Puzzle attempts and puzzle ratings as the bot keeps them (pure values, no I/O).

An ``AttemptRecord`` is one player's attempt at one puzzle in one place: the engine's
``Attempt`` (moves, hints, state) plus where it is played and whether it is a daily puzzle. A
``PuzzlePlayer`` is a player's puzzle rating (Glicko-2) and daily streak in one server;
``settle`` works out what a finished attempt does to both ratings and the streak.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, cast

from engine.puzzles import Attempt, Puzzle, glicko

if TYPE_CHECKING:
    from engine.puzzles.attempt import State

PLAYING = "playing"
SOLVED = "solved"
# A puzzle's first rating is its difficulty, held less surely than a newcomer's 1500: the
# difficulty is an estimate from the position, not a guess from nothing.
PUZZLE_DEVIATION = 150.0


def day_of(now: datetime) -> int:
    """The day number of `now` (an aware UTC time): its date's ``toordinal()``, the daily
    puzzle's day."""
    return now.date().toordinal()


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One attempt as stored: the puzzle, the moves since its position (the player's and the
    defence's in turn), the hints taken, the state (``engine.puzzles.Attempt``), and where:
    the server (None: direct messages), the channel, the player, the daily puzzle's day
    (``date.toordinal()``, None for any other puzzle), the language of its messages, and
    whether it lives in a place where the bot has no channel access."""

    id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    puzzle: Puzzle
    moves: tuple[int, ...] = ()
    hints: int = 0
    state: str = PLAYING
    refutation: int | None = None
    day: int | None = None
    locale: str = "en-US"
    interactions_only: bool = False
    created_at: datetime | None = None

    @property
    def attempt(self) -> Attempt:
        """The engine's attempt this record holds."""
        state = cast("State", self.state)
        return Attempt(self.puzzle, self.moves, self.hints, state, self.refutation)

    @property
    def ply(self) -> int:
        """Moves played so far: a button carries it, so a click on an older board is refused."""
        return len(self.moves)

    @property
    def over(self) -> bool:
        """Whether the attempt has ended (solved or failed)."""
        return self.state != PLAYING

    def moved(self, attempt: Attempt) -> AttemptRecord:
        """This record after the engine's `attempt` (a move or a hint)."""
        return replace(
            self,
            moves=attempt.moves,
            hints=attempt.hints,
            state=attempt.state,
            refutation=attempt.refutation,
        )


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """A player's puzzles in one server: rating, attempts finished, clean solves, and the
    daily streak (days solved in a row, the best ever, the last day solved)."""

    user_id: int
    rating: glicko.Rating = field(default_factory=glicko.Rating)
    attempts: int = 0
    solved: int = 0
    streak: int = 0
    best_streak: int = 0
    last_solved: int | None = None

    def streak_on(self, today: int) -> int:
        """The streak as it stands on day `today`: broken once a whole day passed unsolved."""
        if self.last_solved is None or self.last_solved < today - 1:
            return 0
        return self.streak


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """One line of a server's puzzle leaderboard."""

    rank: int
    user_id: int
    rating: float
    attempts: int
    solved: int
    best_streak: int


@dataclass(frozen=True, slots=True)
class Settled:
    """What a finished attempt did: the player before and after it, the puzzle's new rating."""

    before: PuzzlePlayer
    after: PuzzlePlayer
    puzzle: glicko.Rating


def puzzle_start(puzzle: Puzzle) -> glicko.Rating:
    """A puzzle's rating before anyone tried it."""
    return glicko.Rating(float(puzzle.difficulty), PUZZLE_DEVIATION)


def settle(
    record: AttemptRecord, player: PuzzlePlayer, puzzle: glicko.Rating
) -> tuple[PuzzlePlayer, glicko.Rating]:
    """The player and the puzzle after the finished attempt `record`: both ratings move (a
    clean solve, without a hint, is a win for the player), and a daily puzzle moves the streak
    (a solve, hinted or not, adds a day; a failure ends the streak; only a day after the last
    solved counts)."""
    clean = record.state == SOLVED and not record.hints
    rated, puzzle_after = glicko.attempt(player.rating, puzzle, clean)
    streak, best, last = player.streak, player.best_streak, player.last_solved
    # Only the newest day moves the streak: an older daily board finished late (solved or
    # not) changes nothing, nor does a second attempt at a day already solved.
    if record.day is not None and (last is None or record.day > last):
        if record.state == SOLVED:
            streak = player.streak_on(record.day) + 1
            best, last = max(best, streak), record.day
        else:
            streak = 0
    after = replace(
        player,
        rating=rated,
        attempts=player.attempts + 1,
        solved=player.solved + clean,
        streak=streak,
        best_streak=best,
        last_solved=last,
    )
    return after, puzzle_after


def setup_moves(puzzle: Puzzle) -> tuple[int, ...]:
    """Moves from the empty board that reach the puzzle's position (X and O in turn), so the
    board can be drawn, and its winning line found, as a game's."""
    board = puzzle.board
    cells = range(board.size * board.size)
    xs = [c for c in cells if board.cell(c) == "X"]
    os = [c for c in cells if board.cell(c) == "O"]
    moves = [cell for pair in zip(xs, os, strict=False) for cell in pair]
    return (*moves, *xs[len(os) :])
