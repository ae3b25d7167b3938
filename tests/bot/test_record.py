"""The game record: a change of some of its fields is the record ``dataclasses.replace`` gives."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from bot.games.look import Look
from bot.games.record import Ending, GameRecord, Status

FULL = GameRecord(
    id=7,
    guild_id=1,
    channel_id=2,
    x_id=3,
    o_id=4,
    challenger_id=4,
    size=5,
    k=4,
    ai_side="O",
    ai_level="easy",
    moves=(12, 0),
    status=Status.ACTIVE,
    message_id=99,
    deadline=datetime(2026, 1, 1, tzinfo=UTC),
    created_at=datetime(2025, 12, 31, tzinfo=UTC),
    locale="fr",
    interactions_only=True,
    look=Look(x="X", input="reactions"),
    kind="classic",
    move_seconds=30,
)
OTHER = {
    "id": 8,
    "guild_id": None,
    "channel_id": 5,
    "x_id": 6,
    "o_id": 7,
    "challenger_id": 6,
    "size": 3,
    "k": 3,
    "ai_side": None,
    "ai_level": None,
    "moves": (1, 2, 3),
    "status": Status.FINISHED,
    "ending": Ending.WIN,
    "winner": "X",
    "message_id": None,
    "deadline": None,
    "created_at": None,
    "locale": "de",
    "interactions_only": False,
    "look": Look(),
    "kind": "ultimate",
    "move_seconds": None,
}


def test_every_field_changes_as_replace_changes_it_and_the_rest_stay() -> None:
    assert set(OTHER) == {field.name for field in dataclasses.fields(GameRecord)}
    assert FULL.changed() == FULL
    for name, value in OTHER.items():
        changed = FULL.changed(**{name: value})
        assert changed == dataclasses.replace(FULL, **{name: value}), name  # type: ignore[arg-type]
        assert getattr(changed, name) == value != getattr(FULL, name), name
    assert FULL.changed(**OTHER) == GameRecord(**OTHER)  # type: ignore[arg-type]
