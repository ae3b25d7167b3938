"""Standings and arena points: Swiss tiebreaks as stated (Buchholz, Sonneborn-Berger,
head-to-head, seed), arena streaks worth double, pairing the free players of an arena, and the
standings equal to a recount of the games over many simulated tournaments."""

from __future__ import annotations

import itertools
import random

from bot.tournaments import arena, standings, swiss
from bot.tournaments.record import Bye, Game, Tally, tally


def test_swiss_tiebreaks_in_the_order_stated() -> None:
    """Four players, three rounds (by hand): 1 and 2 tie on score and are split by Buchholz;
    3 and 4 tie on score and Buchholz and are split by Sonneborn-Berger."""
    games = [
        Game(1, 1, 3, 1.0),
        Game(1, 2, 4, 0.5),
        Game(2, 1, 2, 0.0),
        Game(2, 3, 4, 0.5),
        Game(3, 4, 1, 0.0),
        Game(3, 3, 2, 0.5),
    ]
    table = standings.swiss([1, 2, 3, 4], games)
    # Scores: 1: 2, 2: 2, 3: 1, 4: 1. Buchholz: 1 = 1+2+1 = 4, 2 = 1+2+1 = 4; 3 = 2+1+2 = 5,
    # 4 = 2+1+2 = 5. Sonneborn-Berger: 1 = 1+1 = 2 (beat 3 and 4), 2 = 1/2+2+1/2 = 3;
    # 3 = 1/2*1 + 1/2*2 = 1.5, 4 = 1/2*2 + 1/2*1 = 1.5: head-to-head drew, so the seed.
    assert [(s.player, s.score, s.buchholz, s.sonneborn_berger) for s in table] == [
        (2, 2.0, 4.0, 3.0),
        (1, 2.0, 4.0, 2.0),
        (3, 1.0, 5.0, 1.5),
        (4, 1.0, 5.0, 1.5),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_head_to_head_splits_players_tied_on_every_other_count() -> None:
    """Over many simulated tournaments: where exactly two players tie on score, Buchholz and
    Sonneborn-Berger and one beat the other between them, the winner ranks first whatever the
    seed (the case comes up dozens of times)."""
    rng = random.Random(11)
    seen = 0
    for _ in range(1000):
        field = list(range(rng.randint(3, 8)))
        games: list[Game] = []
        for number in range(1, 4):
            paired = swiss.pair(field, games)
            games += [Game(number, x, o, rng.choice((0.0, 0.5, 1.0))) for x, o in paired.pairs]
        table = standings.swiss(field, games)
        key = lambda s: (s.score, s.buchholz, s.sonneborn_berger)  # noqa: E731
        for index, line in enumerate(table):
            tied = [other for other in table if key(other) == key(line)]
            between = [g for g in games if {g.x, g.o} == {t.player for t in tied}]
            if len(tied) != 2 or line is not tied[0] or len(between) != 1:
                continue
            if between[0].result in (0.0, 1.0):
                seen += 1
                assert between[0].score_of(line.player) == 1.0
                assert table[index + 1] is tied[1]
    assert seen >= 20


def test_a_bye_is_a_point_and_adds_nothing_to_buchholz() -> None:
    """The player with a bye scores 1 for it; their opponents' Buchholz counts their score."""
    table = {s.player: s for s in standings.swiss([1, 2, 3], [Game(1, 1, 2, 1.0)], [Bye(1, 3)])}
    assert table[3].score == 1.0 and table[3].buchholz == 0.0 and table[3].played == 0
    assert table[2].buchholz == 1.0


def test_arena_points_double_after_two_wins_in_a_row_until_a_game_is_not_won() -> None:
    """W W W W D W: 2 + 2 + 4 + 4 + 1 + 2 = 15, the streak ended by the draw."""
    assert arena.points([1.0, 1.0, 1.0, 1.0, 0.5, 1.0]) == arena.Points(15, False, 5)
    assert arena.points([0.0, 1.0, 1.0]) == arena.Points(4, True, 2)
    assert arena.points([1.0, 1.0, 1.0, 0.0]) == arena.Points(8, False, 3)
    assert arena.points([]) == arena.Points(0, False, 0)


def test_arena_pairs_near_scores_and_no_immediate_rematch_while_others_play() -> None:
    """Free players are paired by nearest points; the two who just met wait while another game
    goes on, and meet again once nobody else can come free."""
    records = tally([Game(1, 1, 2, 1.0), Game(1, 3, 4, 1.0), Game(2, 1, 3, 1.0)])
    # Points: 1: 2 + 2 = 4, 3: 2, 2: 0, 4: 0.
    pairs = arena.pair_free([1, 2, 3, 4], records, playing=0)
    assert {frozenset(p) for p in pairs} == {frozenset((1, 4)), frozenset((3, 2))}
    assert arena.pair_free([1, 3], records, playing=1) == []
    assert len(arena.pair_free([1, 3], records, playing=0)) == 1
    fresh = {5: Tally(), 6: Tally()}
    assert arena.pair_free([5, 6], fresh, playing=3) == [(5, 6)]
    # Players who joined and have played nothing yet have no record at all: paired all the same.
    (pair,) = arena.pair_free([7, 1, 8], records, playing=2)
    assert set(pair) < {1, 7, 8}
    assert len(arena.pair_free([7, 8, 9, 10], {}, playing=0)) == 2


def test_arena_makes_no_rematch_where_a_pairing_without_one_exists() -> None:
    """Six free at once whose last games were ana-eli, cleo-fay and ben-dev: three new pairs,
    none a rematch (the nearest-score pass alone would have left ben and dev to each other)."""
    ana, ben, cleo, dev, eli, fay = range(1, 7)
    records = tally([Game(1, ana, eli, 0.5), Game(2, cleo, fay, 0.5), Game(3, ben, dev, 0.5)])
    pairs = arena.pair_free([ana, eli, cleo, fay, ben, dev], records, playing=0)
    met = {frozenset((ana, eli)), frozenset((cleo, fay)), frozenset((ben, dev))}
    assert len(pairs) == 3 and not {frozenset(p) for p in pairs} & met


def most_pairs(free: list[int], last: dict[int, int]) -> int:
    """The most pairs of `free` with no two who just met, by trying every matching."""
    if len(free) < 2:
        return 0
    first, rest = free[0], free[1:]
    best = most_pairs(rest, last)  # `first` waits
    for other in rest:
        if last.get(first) != other and last.get(other) != first:
            left = [p for p in rest if p != other]
            best = max(best, 1 + most_pairs(left, last))
    return best


def test_arena_pairs_as_many_as_can_be_paired_without_a_rematch() -> None:
    """Over many random arenas of up to nine free players, as many pairs as any pairing with no
    immediate rematch has, none of them a rematch while a game goes on or another pair is made,
    each player seated once."""
    rng = random.Random(7)
    for _ in range(400):
        players = list(range(1, rng.randint(2, 9) + 1))
        games = [Game(n, *rng.sample(players, 2), rng.choice((0.0, 0.5, 1.0))) for n in range(12)]
        records = tally(games[: rng.randint(0, 12)])
        free = rng.sample(players, rng.randint(2, len(players)))
        playing = rng.choice((0, 1))
        pairs = arena.pair_free(free, records, playing=playing)
        last = {p: r.opponents[-1] for p, r in records.items() if r.opponents}
        seated = [p for pair in pairs for p in pair]
        assert len(seated) == len(set(seated)) and set(seated) <= set(free)
        rematches = [
            pair for pair in pairs if last.get(pair[0]) == pair[1] or last.get(pair[1]) == pair[0]
        ]
        best = most_pairs(free, last)
        if best or playing:
            assert not rematches and len(pairs) == best, (free, last, pairs)
        else:  # nobody will come free: the two (or more) left meet again
            assert len(pairs) == len(free) // 2


def test_standings_are_a_recount_of_the_games_over_many_tournaments() -> None:
    """Simulated Swiss tournaments: each standing's score is the player's wins, draws and byes
    counted again from the games, the ranks run 1..n, and scores never rise down the table."""
    rng = random.Random(3)
    for _ in range(30):
        field = list(range(rng.randint(2, 20)))
        games: list[Game] = []
        byes: list[Bye] = []
        for number in range(1, 5):
            paired = swiss.pair(field, games, byes)
            games += [Game(number, x, o, rng.choice((0.0, 0.5, 1.0))) for x, o in paired.pairs]
            byes += [Bye(number, paired.bye)] if paired.bye is not None else []
        table = standings.swiss(field, games, byes)
        for line in table:
            won = sum(g.score_of(line.player) or 0.0 for g in games if line.player in (g.x, g.o))
            assert line.score == won + sum(b.player == line.player for b in byes)
        assert [line.rank for line in table] == list(range(1, len(field) + 1))
        assert all(a.score >= b.score for a, b in itertools.pairwise(table))
