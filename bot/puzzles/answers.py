"""The engine's answers in puzzle attempts: stored with the puzzle, else searched and kept.

A puzzle of the shipped set, or a server's puzzle this bot found, holds its defence tree
(engine.puzzles.tree): a move judged, the defence found or a hint is a lookup, answered here on
the event loop in microseconds. A puzzle without it (stored by a bot whose puzzles carried no
answers) is answered by a search, run in the engine's worker processes. Its answer depends only
on the puzzle, the moves so far and the cell played, so the newest searched answers are kept
here: the players who find the same line are answered without a second search.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from bot.compute.runner import EngineRunner
from engine import puzzles
from engine.puzzles import Attempt, Puzzle, answered, hint, play

KEPT = 4096  # answers kept
HINT = -1  # the key's cell for a hint

Key = tuple[Puzzle, tuple[int, ...], int]
# A move's outcome (moves, state, refutation, a move that would have won), or a hint's cell.
Answer = tuple[tuple[int, ...], str, int | None, int | None] | int


class Answers:
    """`play` and `hint` of ``engine.puzzles``, off the event loop, remembered."""

    def __init__(self, engine: EngineRunner) -> None:
        self.engine = engine
        self._kept: OrderedDict[Key, Answer] = OrderedDict()

    def _keep(self, key: Key, answer: Answer) -> None:
        self._kept[key] = answer
        if len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    def known(self, attempt: Attempt, cell: int | None) -> Attempt | tuple[Attempt, int] | None:
        """`play`'s answer to `cell` (None: `hint`'s) where it needs no search: stored with the
        puzzle or kept here; else None."""
        if cell is None:
            found = puzzles.hinted(attempt)
            if found is None and isinstance(kept := self._kept.get(self._key(attempt)), int):
                found = kept
            return None if found is None else (replace(attempt, hints=attempt.hints + 1), found)
        stored = answered(attempt, cell)
        if stored is None and isinstance(kept := self._kept.get(self._key(attempt, cell)), tuple):
            moves, state, refutation, better = kept
            stored = replace(
                attempt,
                moves=moves,
                state=state,  # type: ignore[arg-type]
                refutation=refutation,
                better=better,
            )
        return stored

    @staticmethod
    def _key(attempt: Attempt, cell: int = HINT) -> Key:
        return (attempt.puzzle, attempt.moves, cell)

    async def play(self, attempt: Attempt, cell: int) -> Attempt:
        known = self.known(attempt, cell)
        if isinstance(known, Attempt):
            return known
        after = await self.engine.call(True, play, attempt, cell)
        self._keep(
            self._key(attempt, cell), (after.moves, after.state, after.refutation, after.better)
        )
        return after

    async def hint(self, attempt: Attempt) -> tuple[Attempt, int]:
        known = self.known(attempt, None)
        if isinstance(known, tuple):
            return known
        hinted, cell = await self.engine.call(True, hint, attempt)
        self._keep(self._key(attempt), cell)
        return hinted, cell
