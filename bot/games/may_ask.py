"""Asking about a game without changing it: who may ask for a rematch, a hint or a review.

Each returns the game when its asker may, or a ``Refused`` saying why not, like the changes in
``bot.games.rules``.
"""

from __future__ import annotations

from bot.games.record import PLAYED, GameRecord, Status
from bot.games.rules import (
    GONE,
    Refused,
    ai_to_move,
    is_live,
    mention,
    other,
    pair,
    player_id,
    side_of,
)
from bot.i18n import N_

NO_REMATCH = N_("A tournament game has no rematch: the tournament pairs its players.")


def replayable(game: GameRecord | None, user_id: int) -> GameRecord | Refused:
    """The finished game `user_id` may ask to replay, or why they may not."""
    if game is None:
        return Refused(GONE)
    if is_live(game) or game.ending not in PLAYED:
        return Refused(N_("There is no finished game to replay here."))
    if side_of(game, user_id) is None:
        return Refused(N_("Only {x} and {o} can ask for a rematch.", **pair(game)))
    if not game.look.rematch:
        return Refused(NO_REMATCH)
    return game


def hintable(game: GameRecord | None, user_id: int) -> GameRecord | Refused:
    """The game `user_id` may have a hint in now, or why not."""
    if game is None:
        return Refused(GONE)
    if game.ai_side is None:
        return Refused(N_("Hints are only for games against me."))
    if game.status is Status.FINISHED:
        return Refused(N_("This game is over: use Review to see which moves mattered."))
    human = player_id(game, other(game.ai_side))
    if user_id != human:
        return Refused(N_("Only {player} can ask for hints in this game.", player=mention(human)))
    if ai_to_move(game):
        return Refused(N_("I'm thinking about my move; ask again when it's your turn."))
    return game


def reviewable(game: GameRecord | None) -> GameRecord | Refused:
    """The game if it can be reviewed now, or why not."""
    if game is None:
        return Refused(GONE)
    if is_live(game):
        return Refused(N_("The review opens when the game is over."))
    if game.ending not in PLAYED:
        return Refused(N_("No game was played here, so there is nothing to review."))
    if not game.moves:
        return Refused(N_("No moves were played in this game."))
    return game
