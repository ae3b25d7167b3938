"""The history of ratings the games' save writes, and its schema step (8).

Schema version 8: ``games`` gets an index on each player's column (``x_id``, ``o_id``, then the
id), so that a player's games are found without reading every game; ``rating_history`` keeps a
player's Elo after each rated game, written in the transaction that counts the game (see
``queries.count_result``), one row per (server, player, kind, game). What reads it is the history
feature's (``bot.history.store``).

Why the history is stored rather than worked out from the games: a rating after a game depends on
the order the server's games ended in and on each opponent's rating at that moment; ``games``
keeps when a game began, not when it ended, so replaying them could disagree with the ratings the
players saw, and would read every rated game of the server to draw one player's chart. A row per
rated player per game is written once and read by an index. Games rated before version 8 have no
rows: a chart begins with the first game rated after it (and always ends at the rating now).
"""

from __future__ import annotations

from bot.storage.dialect import Step, Table

STEP = Step.both(
    (
        "CREATE INDEX games_x_player ON games (x_id, id)",
        "CREATE INDEX games_o_player ON games (o_id, id)",
        """CREATE TABLE rating_history (
        guild_id {big} NOT NULL,
        user_id {big} NOT NULL,
        kind TEXT NOT NULL,
        game_id {big} NOT NULL,
        rating {real} NOT NULL,
        at {time} NOT NULL,
        PRIMARY KEY (guild_id, user_id, kind, game_id)
    ){rowid}""",
    ),
    tables=(
        Table(
            "rating_history",
            ("guild_id", "user_id", "kind", "game_id", "rating", "at"),
            times=frozenset({"at"}),
        ),
    ),
)
ADD = (
    "INSERT INTO rating_history (guild_id, user_id, kind, game_id, rating, at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
