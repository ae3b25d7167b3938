"""The core's schema steps, numbered: the games' own (1 to 5, each database's text; 9, a game's
own move time) and the history of ratings the games' save writes (8). Each feature brings its
own numbered step, and ``bot.assembly`` puts them all in order for the stores
(``dialect.ordered``)."""

from __future__ import annotations

from bot.storage import pg_schema, rating_history, schema
from bot.storage.dialect import Step, Table

# The games' tables as the latest step leaves them, declared on the step that made them.
GAMES = Table(
    "games",
    tuple(schema.COLUMNS.split(", ")),
    times=frozenset({"deadline", "created_at"}),
    flags=frozenset({"interactions_only"}),
)
RECORDS = Table("records", ("kind", "guild_id", "user_id", "opponent", "wins", "draws", "losses"))
RATINGS = Table("ratings", ("kind", "guild_id", "user_id", "rating", "rated_games"))
SETTINGS = Table("server_settings", ("guild_id", "settings"))

STEPS: dict[int, Step] = {
    number: Step(tuple(sqlite), tuple(postgres))
    for number, (sqlite, postgres) in enumerate(
        zip(schema.MIGRATIONS, pg_schema.MIGRATIONS, strict=True), 1
    )
}
STEPS[1] = Step(STEPS[1].sqlite, STEPS[1].postgres, (GAMES, RECORDS, RATINGS))
STEPS[2] = Step(STEPS[2].sqlite, STEPS[2].postgres, (SETTINGS,))
STEPS[8] = rating_history.STEP
# A game's own move time (a tournament's), stored with it; older games read NULL: the server's.
MOVE_TIME = Step.both(("ALTER TABLE games ADD COLUMN move_seconds INTEGER",))
STEPS[9] = MOVE_TIME
