"""A puzzle's answers computed: the defence tree engine.puzzles.tree stores, by the searches an
attempt makes without it (engine.puzzles.attempt's `judge` and `winning`).

Run where a puzzle is made: by scripts/build_puzzles.py for the shipped set, and where a
finished game's missed wins are found (engine.puzzles.missed, in the bot's engine workers).
"""

from __future__ import annotations

from dataclasses import replace

from engine.puzzles import tree
from engine.puzzles.attempt import Attempt, judge, winning
from engine.puzzles.proof import Puzzle


def answers(puzzle: Puzzle) -> str:
    """The puzzle's defence tree as text: every position an attempt can reach while playing,
    each legal move's outcome there and the hint. May raise the solver's SearchTimeout where a
    deadline is set."""
    found: tree.Tree = {}
    pending = [Attempt(puzzle)]
    while pending:
        attempt = pending.pop()
        outcomes: dict[int, tree.Outcome] = {}
        for cell in attempt.board.legal_moves():
            after = judge(attempt, cell, better=False)  # the tree keeps the node's hint once
            if after.state == "playing":
                outcomes[cell] = ("playing", after.moves[-1])
                pending.append(after)
            else:
                outcomes[cell] = (after.state, after.refutation)
        found[attempt.moves] = (winning(attempt), outcomes)
    return tree.encode(found)


def with_answers(puzzle: Puzzle) -> Puzzle:
    """The puzzle carrying its answers."""
    return replace(puzzle, answers=answers(puzzle))
