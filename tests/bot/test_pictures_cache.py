"""The picture cache: a position drawn once, the least recently used dropped first, never more
bytes held than its bound."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from bot.games.look import Look
from bot.pictures import PictureCache, board_png, picture
from bot.pictures.cache import cost, key
from tests.bot.picture_support import game, needs_font, played


def test_the_bound_holds_and_the_least_recently_used_go_first() -> None:
    """Past its bound the cache drops the oldest use first; what it holds is what it counts."""
    cache = PictureCache(bound=10_000)
    keys = [key(game("classic", 3, 3, (cell,)), 768) for cell in range(9)]
    for index, entry in enumerate(keys):
        cache.put(entry, bytes([index]) * 1500)
        assert cache.held <= cache.bound
        assert cache.held == sum(
            cost(k, cache.get(k) or b"") for k in keys[: index + 1] if k in cache._entries
        )
        cache.get(keys[0])  # the first is used after every put: it stays
    assert cache.get(keys[0]) is not None
    assert cache.get(keys[1]) is None and cache.get(keys[-1]) is not None
    assert 0 < len(cache) < len(keys)


def test_a_picture_larger_than_the_bound_is_not_kept() -> None:
    cache = PictureCache(bound=1000)
    cache.put(key(game("classic", 3, 3), 768), b"x" * 2000)
    assert len(cache) == 0 and cache.held == 0


def test_a_position_is_drawn_once() -> None:
    """The second ask for the same position and marks is the kept bytes; another position,
    other marks or the game's end draw anew."""
    needs_font()
    cache = PictureCache()
    record = played("classic", 3, 3, 0, plies=4)
    first = picture(record, cache)
    assert first == board_png(record)
    assert picture(record, cache) is first and (cache.hits, cache.misses) == (1, 1)
    others = [
        replace(record, moves=record.moves[:-1]),
        replace(record, look=Look(x="🐱")),
        played("classic", 3, 3, 0),
    ]
    for other in others:
        assert picture(other, cache) is not first
    assert cache.misses == 4 and len(cache) == 4


@pytest.mark.parametrize("drawn", [3, 30])
def test_fetch_draws_only_what_is_missing(drawn: int) -> None:
    cache = PictureCache()
    made: list[int] = []

    def make(cell: int) -> bytes:
        made.append(cell)
        return bytes(10)

    for cell in list(range(drawn)) * 2:
        entry = key(game("classic", 5, 4, (cell,)), 768)
        cache.fetch(entry, lambda cell=cell: make(cell))  # type: ignore[misc]
    assert made == list(range(drawn))


def test_threads_share_it_and_the_count_stays_true() -> None:
    """The event loop looks up while a drawing thread keeps: from four threads at once, what
    the cache counts is what it holds, within its bound."""
    cache = PictureCache(bound=40_000)
    keys = [key(game("classic", 5, 4, (cell,)), 768) for cell in range(25)]

    def churn(offset: int) -> None:
        for step in range(2000):
            entry = keys[(step * 7 + offset) % len(keys)]
            cache.fetch(entry, lambda: bytes(1000 + offset))

    threads = [threading.Thread(target=churn, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.held == sum(cost(k, v) for k, v in cache._entries.items()) <= cache.bound
    assert cache.hits + cache.misses == 4 * 2000
