"""Game rules applied to stored records: who plays which mark, moves, endings (no Discord here).

A ``GameRecord`` keeps only the move list; the board is rebuilt from it with the engine, so the
engine's ``outcome()`` stays the one source of truth for how a game ends.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

import engine
from bot.models import Ending, GameRecord, Status

SIDES = ("X", "O")
SIZES = (3, 4, 5)
# Endings after which there was a game to replay (a refused challenge has no rematch).
PLAYED = frozenset({Ending.WIN, Ending.DRAW, Ending.RESIGN, Ending.TIMEOUT})


def default_k(size: int) -> int:
    """The usual line length: 3 on 3x3, 4 on bigger boards (5x5 k=3 is a trivial first-move win)."""
    return 3 if size == 3 else 4


def other(side: str) -> str:
    """The opposite mark."""
    return "O" if side == "X" else "X"


def board_of(game: GameRecord) -> engine.Board:
    """The position after the game's moves."""
    return engine.Board.from_moves(game.moves, size=game.size, k=game.k)


def player_id(game: GameRecord, side: str) -> int:
    """The user id playing `side`."""
    return game.x_id if side == "X" else game.o_id


def side_of(game: GameRecord, user_id: int) -> str | None:
    """The mark `user_id` plays in this game, or None for someone outside it."""
    if user_id == game.x_id:
        return "X"
    if user_id == game.o_id:
        return "O"
    return None


def is_player(game: GameRecord, user_id: int) -> bool:
    """True when `user_id` plays in this game (the bot's own side included)."""
    return side_of(game, user_id) is not None


def opponent_id(game: GameRecord) -> int:
    """The challenged player (the one who did not start the game)."""
    return game.o_id if game.challenger_id == game.x_id else game.x_id


def turn(game: GameRecord) -> str:
    """The mark to move next (X moves first)."""
    return "X" if len(game.moves) % 2 == 0 else "O"


def to_move_id(game: GameRecord) -> int:
    """The user id of the player to move."""
    return player_id(game, turn(game))


def ai_to_move(game: GameRecord) -> bool:
    """True when the game is on and the engine's side is to move."""
    return game.status is Status.ACTIVE and game.ai_side == turn(game)


def is_live(game: GameRecord) -> bool:
    """A pending challenge or a game being played."""
    return game.status in (Status.CHALLENGE, Status.ACTIVE)


def play(game: GameRecord, cell: int) -> GameRecord:
    """A copy of the game with `cell` played by the side to move, finished if that ends it.

    Raises ``engine.IllegalMoveError`` for an occupied or off-board cell.
    """
    board = board_of(game).play(cell)
    after = game.copy()
    after.moves.append(cell)
    outcome = board.outcome()
    if outcome is not None:
        ending = Ending.DRAW if outcome.winner is None else Ending.WIN
        return finish(after, ending, outcome.winner)
    return after


def finish(game: GameRecord, ending: Ending, winner: str | None) -> GameRecord:
    """A finished copy of the game; no deadline is left running."""
    return dataclasses.replace(
        game.copy(), status=Status.FINISHED, ending=ending, winner=winner, deadline=None
    )


def with_deadline(game: GameRecord, deadline: datetime | None) -> GameRecord:
    """A copy with a new deadline."""
    return dataclasses.replace(game.copy(), deadline=deadline)


def winning_line(game: GameRecord) -> tuple[int, ...]:
    """The cells of the winning line, or () when there is none."""
    if game.ending is not Ending.WIN:
        return ()
    outcome = board_of(game).outcome()
    return tuple(outcome.line) if outcome is not None and outcome.line else ()


def rematch_of(game: GameRecord, *, game_id: int, challenger_id: int) -> GameRecord:
    """A new game for the same players, level and board, with the first move swapped."""
    status = Status.ACTIVE if game.vs_bot else Status.CHALLENGE
    return GameRecord(
        id=game_id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        x_id=game.o_id,
        o_id=game.x_id,
        challenger_id=challenger_id,
        size=game.size,
        k=game.k,
        ai_side=other(game.ai_side) if game.ai_side else None,
        ai_level=game.ai_level,
        status=status,
    )
