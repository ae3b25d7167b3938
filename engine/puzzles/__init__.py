"""Puzzles: positions on a big board where the side to move wins by force, proven by the solver.

`Puzzle` is one puzzle and `prove` its proof (win with exactly N moves, one first move that fast);
`puzzles`, `near` and `daily` serve the shipped set (engine/data/puzzles.txt, written by
scripts/build_puzzles.py); `Attempt`, `play` and `hint` run an attempt move by move, the defence
answering each right move (a lookup in the puzzle's stored answers, `answers` computing them:
its defence tree); `glicko` rates players and puzzles (Glicko-2); `missed_wins` finds
the puzzles a finished game left behind (a player had a forced win and missed it). Everything
here is pure and synchronous like the rest of the engine; a proof or a defence is a search, so
the bot runs them off its event loop.
"""

from __future__ import annotations

from engine.puzzles import glicko
from engine.puzzles.answers import answers, with_answers
from engine.puzzles.attempt import Attempt, answered, defence, hint, hinted, judge, play
from engine.puzzles.collection import by_id, daily, near, puzzles
from engine.puzzles.missed import missed_at, missed_wins, puzzle_id
from engine.puzzles.proof import MOST_MOVES, Puzzle, PuzzleError, difficulty, fastest, prove

__all__ = [
    "MOST_MOVES",
    "Attempt",
    "Puzzle",
    "PuzzleError",
    "answered",
    "answers",
    "by_id",
    "daily",
    "defence",
    "difficulty",
    "fastest",
    "glicko",
    "hint",
    "hinted",
    "judge",
    "missed_at",
    "missed_wins",
    "near",
    "play",
    "prove",
    "puzzle_id",
    "puzzles",
    "with_answers",
]
