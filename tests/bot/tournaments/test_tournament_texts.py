"""The pure parts of a tournament's messages: the start time read from a Discord timestamp (or
refused, saying why), the buttons' custom ids, scores as people write them, the podium's links
kept within a message, and thread names found again by their label."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import Text
from bot.tournaments import board as shown
from bot.tournaments.checks import start_time
from bot.tournaments.standings import Standing
from bot.tournaments.tournament import Format, Pairing, Stage, Tournament
from devkit.local_game import texts

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def test_start_times() -> None:
    assert start_time(None, NOW) is None
    assert start_time("<t:1900000000:f>", NOW) == datetime.fromtimestamp(1900000000, UTC)
    assert start_time(" 1900000000 ", NOW) == datetime.fromtimestamp(1900000000, UTC)
    past, words, huge = (start_time(t, NOW) for t in ("<t:1:R>", "tomorrow", "999999999999"))
    assert isinstance(past, Text) and "has passed" in past.in_locale("en-US")
    assert isinstance(words, Text) and "`tomorrow`" in words.in_locale("en-US")
    assert isinstance(huge, Text) and "can't read" in huge.in_locale("en-US")
    assert "Je ne peux pas lire" in huge.in_locale("fr")  # in the member's language


def test_custom_ids_and_scores() -> None:
    for what in (shown.JOIN, shown.LEAVE, shown.START):
        assert shown.parse_id(shown.custom_id(12345, what)) == (12345, what)
    assert shown.parse_id("ttt-tour:1:resign") is None and shown.parse_id("ttt:1:join") is None
    assert [shown.score(v) for v in (0.0, 0.5, 1.0, 2.5, 3.0)] == ["0", "½", "1", "2½", "3"]


def test_the_podium_links_every_thread_within_a_message() -> None:
    t = Tournament(7, 1, 2, 3, Format.SWISS, rounds=9, stage=Stage.FINISHED)
    table = [Standing(rank, 100 + rank, 9 - rank, 0, 0, 9) for rank in range(1, 65)]
    pairings = [
        Pairing(7, r, b, 100 + b, 200 + b, 1.0, 1000 + r * 100 + b, 10**18 + r * 100 + b)
        for r in range(1, 10)
        for b in range(1, 33)
    ]
    words = texts({"components": shown.final(t, table, pairings).to_components()})
    assert len(words) <= shown.TEXT_LIMIT
    assert "🥇 <@101> **8**" in words and "🥉 <@103> **6**" in words
    assert f"<#{pairings[0].thread_id}>" in words and "and " in words  # the rest counted


def test_thread_names_keep_their_label() -> None:
    t = Tournament(7, 1, 2, 3, Format.SWISS, rounds=3)
    p = Pairing(7, 2, 10, 1, 2)
    name = shown.thread_name(t, p, {1: "a" * 80, 2: "bob"})
    assert len(name) <= 100 and name.startswith(shown.label_of(t, p))
    assert not shown.thread_name(t, Pairing(7, 2, 1, 1, 2), {1: "x", 2: "y"}).startswith(
        shown.label_of(t, p)
    )
    arena = Tournament(8, 1, 2, 3, Format.ARENA, minutes=30)
    assert shown.thread_name(arena, Pairing(8, 12, 1, 1, 2), {1: "x", 2: "y"}) == "#12 · x vs y"
