"""The standings of a tournament, pure: recounted from its games every time, never kept apart.

Swiss: the score (a win 1, a draw ½, a bye 1), then Buchholz (the sum of the opponents' scores;
a bye adds nothing), then Sonneborn-Berger (the scores of the opponents beaten, and half those of
the opponents drawn), then head-to-head (the points scored in the games between the players
still tied), then the seed. Arena: the points (`arena.points`), then the wins, then the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.games.tournaments import arena
from bot.games.tournaments.record import Bye, Game, Tally, tally
from bot.games.tournaments.tournament import Entrant, Format, Tournament, seeded


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
    games = [game for game in games if game.result is not None]
    records = tally(games, byes)
    record = {player: records.get(player, Tally()) for player in entrants}
    score = {player: record[player].score for player in entrants}

    def buchholz(player: int) -> float:
        return sum(score.get(other, 0.0) for other in record[player].opponents)

    played: dict[int, list[Game]] = {}  # each player's finished games: one pass over them
    for game in games:
        played.setdefault(game.x, []).append(game)
        played.setdefault(game.o, []).append(game)

    def sonneborn_berger(player: int) -> float:
        return sum(
            score.get(game.opponent_of(player), 0.0) * (game.score_of(player) or 0.0)
            for game in played.get(player, ())
        )

    keys = {p: (score[p], buchholz(p), sonneborn_berger(p)) for p in entrants}
    seed = {player: index for index, player in enumerate(entrants)}
    ordered = sorted(entrants, key=lambda p: (tuple(-v for v in keys[p]), seed[p]))
    ranked: list[int] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and keys[ordered[end]] == keys[ordered[start]]:
            end += 1
        tied = ordered[start:end]
        between = _head_to_head(set(tied), played)
        ranked += sorted(tied, key=lambda p: (-between.get(p, 0.0), seed[p]))
        start = end
    return [
        Standing(rank, p, keys[p][0], keys[p][1], keys[p][2], len(record[p].results))
        for rank, p in enumerate(ranked, 1)
    ]


def _head_to_head(tied: set[int], played: dict[int, list[Game]]) -> dict[int, float]:
    """Each tied player's points in the games between tied players (`played`: each player's
    finished games)."""
    out: dict[int, float] = {}
    if len(tied) < 2:
        return out
    for player in tied:
        for game in played.get(player, ()):
            if game.opponent_of(player) in tied:
                out[player] = out.get(player, 0.0) + (game.score_of(player) or 0.0)
    return out


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
