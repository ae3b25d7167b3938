"""The standings of a tournament, pure: recounted from its games every time, never kept apart.

Swiss: the score (a win 1, a draw ½, a bye 1), then Buchholz (the sum of the opponents' scores;
a bye adds nothing), then Sonneborn-Berger (the scores of the opponents beaten, and half those of
the opponents drawn), then head-to-head (the points scored in the games between the players
still tied), then the seed. Arena: the points (`arena.points`), then the wins, then the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.tournaments import arena
from bot.tournaments.record import WIN, Bye, Game, Tally, tally
from bot.tournaments.tournament import Entrant, Format, Tournament, seeded


@dataclass(frozen=True)
class Standing:
    """One line of the standings (``score`` is the arena's points in an arena)."""

    rank: int
    player: int
    score: float
    buchholz: float
    sonneborn_berger: float
    played: int
    on_fire: bool = False


def swiss(
    entrants: Sequence[int], games: Iterable[Game], byes: Iterable[Bye] = ()
) -> list[Standing]:
    """Every entrant (strongest seed first), ranked."""
    # One pass over the finished games: each entrant's score, and their opponents with the
    # points they took from each (scores are halves: every sum below is exact in any order).
    score = dict.fromkeys(entrants, 0.0)
    met: dict[int, list[tuple[int, float]]] = {player: [] for player in entrants}
    for game in games:
        result = game.result
        if result is None:
            continue
        for player, opponent, got in ((game.x, game.o, result), (game.o, game.x, 1.0 - result)):
            if player in score:
                score[player] += got
                met[player].append((opponent, got))
    for bye in byes:
        if bye.player in score:
            score[bye.player] += WIN
    keys = {
        p: (
            score[p],
            sum([score.get(other, 0.0) for other, _ in met[p]]),  # Buchholz
            sum([score.get(other, 0.0) * got for other, got in met[p]]),  # Sonneborn-Berger
        )
        for p in entrants
    }
    seed = {player: index for index, player in enumerate(entrants)}
    ordered = sorted(entrants, key=lambda p: (-keys[p][0], -keys[p][1], -keys[p][2], seed[p]))
    ranked: list[int] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and keys[ordered[end]] == keys[ordered[start]]:
            end += 1
        tied = ordered[start:end]
        between = _head_to_head(set(tied), met)
        ranked += sorted(tied, key=lambda p: (-between.get(p, 0.0), seed[p]))
        start = end
    return [
        Standing(rank, p, keys[p][0], keys[p][1], keys[p][2], len(met[p]))
        for rank, p in enumerate(ranked, 1)
    ]


def _head_to_head(tied: set[int], met: dict[int, list[tuple[int, float]]]) -> dict[int, float]:
    """Each tied player's points in the games between tied players (`met`: each player's
    opponents in their finished games, with the points they took)."""
    if len(tied) < 2:
        return {}
    return {p: sum([got for other, got in met[p] if other in tied]) for p in tied}


def arena_standings(entrants: Sequence[int], games: Iterable[Game]) -> list[Standing]:
    """Every entrant (strongest seed first), ranked by points, then wins, then seed."""
    records = tally(game for game in games if game.result is not None)
    seed = {player: index for index, player in enumerate(entrants)}
    got = {p: arena.points(records.get(p, Tally()).results) for p in entrants}
    ranked = sorted(entrants, key=lambda p: (-got[p].points, -got[p].wins, seed[p]))
    played = {p: len(records.get(p, Tally()).results) for p in entrants}
    return [
        Standing(rank, p, got[p].points, 0.0, 0.0, played[p], got[p].on_fire)
        for rank, p in enumerate(ranked, 1)
    ]


def of(
    t: Tournament, entrants: list[Entrant], games: Iterable[Game], byes: Iterable[Bye] = ()
) -> list[Standing]:
    """A tournament's standings by its format, every entrant seeded as it was."""
    players = [e.user_id for e in seeded(entrants)]
    if t.format is Format.ARENA:
        return arena_standings(players, games)
    return swiss(players, games, byes)
