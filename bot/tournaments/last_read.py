"""What the director holds of a running tournament between two reads of the store: the
tournament, its entrants, every pairing (with its game and thread once set up) and its byes,
as the store gave them after the director's last step that read them all.

A result then changes it in place (``recorded``), under the tournament's lock, after the store
has it, so that a Swiss round still being played needs no read of the store to know it is not
over, and the announcement's standings are recounted from these games (``table``), which are the
stored ones. Anything else (a start, a restart, a retry, a new round, an arena's pairing, a
player leaving) reads the store again and holds what it read; nothing held outlives the process.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.tournaments import standings
from bot.tournaments.record import Bye
from bot.tournaments.standings import Standing
from bot.tournaments.tournament import Entrant, Format, Pairing, Stage, Tournament


@dataclass
class LastRead:
    """A running tournament as last read, with the results recorded since."""

    t: Tournament
    entrants: list[Entrant]
    pairings: list[Pairing]  # by round and board, as the store orders them
    byes: list[Bye]

    def of_game(self, game_id: int) -> Pairing | None:
        """The pairing that bot game `game_id` is, if it is one of these."""
        return next((p for p in self.pairings if p.game_id == game_id), None)

    def recorded(self, pairing: Pairing, result: float) -> None:
        """A result the store has now (recorded once: a second is the same game's again)."""
        key = (pairing.round, pairing.board)
        for index, p in enumerate(self.pairings):
            if (p.round, p.board) == key and p.result is None:
                self.pairings[index] = replace(p, result=result)

    def round_going_on(self) -> bool:
        """A running Swiss with a game of its round still being played: nothing to pair."""
        swiss = self.t.format is Format.SWISS and self.t.stage is Stage.RUNNING
        return swiss and any(p.result is None for p in self.pairings)

    def table(self) -> list[Standing]:
        """The standings, recounted from the games held (the stored ones)."""
        return standings.of(self.t, self.entrants, [p.game for p in self.pairings], self.byes)
