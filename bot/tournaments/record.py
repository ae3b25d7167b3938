"""What a tournament's pairing and standings are computed from: its games and byes (pure values).

A game's ``result`` is ❌'s score (1 a win for ❌, 0.5 a draw, 0 a win for ⭕), ``None`` while it
is being played. A player's seed is their place in the list of entrants the caller passes (the
strongest first); it breaks every tie nothing else breaks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

CROSS, NOUGHT = "X", "O"
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Game:
    """One game of a tournament: its round (Swiss) or its order of pairing (arena)."""

    round: int
    x: int
    o: int
    result: float | None = None

    def score_of(self, player: int) -> float | None:
        """The player's score in this game (None while it is played)."""
        if self.result is None:
            return None
        return self.result if player == self.x else 1.0 - self.result

    def opponent_of(self, player: int) -> int:
        return self.o if player == self.x else self.x


@dataclass(frozen=True)
class Bye:
    """A round a Swiss player sat out with a point, as the odd player out."""

    round: int
    player: int


@dataclass
class Tally:
    """One player's record so far, in the order the games were paired."""

    score: float = 0.0
    opponents: list[int] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    byes: int = 0


def tally(games: Iterable[Game], byes: Iterable[Bye] = ()) -> dict[int, Tally]:
    """Every player's record: finished games count, a game being played counts its pairing
    (opponent and colour) but no score; a bye counts a point and no colour."""
    out: dict[int, Tally] = {}
    for game in sorted(games, key=lambda game: game.round):
        for player, colour in ((game.x, CROSS), (game.o, NOUGHT)):
            record = out.setdefault(player, Tally())
            record.opponents.append(game.opponent_of(player))
            record.colours.append(colour)
            score = game.score_of(player)
            if score is not None:
                record.score += score
                record.results.append(score)
    for bye in byes:
        record = out.setdefault(bye.player, Tally())
        record.score += WIN
        record.byes += 1
    return out
