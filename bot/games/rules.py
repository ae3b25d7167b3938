"""Game rules applied to stored records: moves, endings, clocks, and who may do what now.

A ``GameRecord`` keeps only the move list; the board is rebuilt from it with the engine, so the
engine's ``outcome()`` stays the one source of truth for how a game ends. Every change returns a
new record; a change someone may not make returns a ``Refused`` that says why, in words for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.games import kinds
from bot.games.kinds import Position
from bot.games.record import Ending, GameRecord, Status
from bot.i18n import N_, Text

if TYPE_CHECKING:
    from engine import Level, Side

SIDES: tuple[Side, Side] = ("X", "O")

GONE = N_("This game no longer exists. Start a new one with /tictactoe.")
OVER = N_("This game is over. Start a new one with /tictactoe, or ask for a rematch.")
ABANDONED = N_(
    "This game was abandoned when its board was deleted. Start a new one with /tictactoe."
)
THINKING = N_("I'm thinking about my move; one moment please.")


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a change was not made, in words for the person who asked for it (translated when
    shown, in their language)."""

    text: Text
    engine_turn: bool = False  # refused because the engine is to move


# ----------------------------------------------------------------------------- reading a game


def other(side: Side) -> Side:
    """The opposite mark."""
    return "O" if side == "X" else "X"


def board_of(game: GameRecord) -> Position:
    """The position after the game's moves (its kind's engine position)."""
    return kinds.of(game).position(game)


def player_id(game: GameRecord, side: Side) -> int:
    """The user id playing `side`."""
    return game.x_id if side == "X" else game.o_id


def side_of(game: GameRecord, user_id: int) -> Side | None:
    """The mark `user_id` plays in this game, or None for someone outside it."""
    if user_id == game.x_id:
        return "X"
    if user_id == game.o_id:
        return "O"
    return None


def opponent_id(game: GameRecord) -> int:
    """The challenged player (the one who did not start the game)."""
    return game.o_id if game.challenger_id == game.x_id else game.x_id


def turn(game: GameRecord) -> Side:
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


def mention(user_id: int) -> str:
    """A user as a mention."""
    return f"<@{user_id}>"


def pair(game: GameRecord) -> dict[str, str]:
    """Both players as the values ``{x}`` and ``{o}`` of a message."""
    return {"x": mention(game.x_id), "o": mention(game.o_id)}


# -------------------------------------------------------------------------------- changes


def play(game: GameRecord, cell: int) -> GameRecord:
    """The game with `cell` played by the side to move, finished if that ends it.

    Raises ``engine.IllegalMoveError`` for an occupied or off-board cell.
    """
    outcome = kinds.of(game).after(game, cell).outcome()
    after = game.changed(moves=(*game.moves, cell))
    if outcome is not None:
        ending = Ending.DRAW if outcome.winner is None else Ending.WIN
        return finish(after, ending, outcome.winner)
    return after


def finish(game: GameRecord, ending: Ending, winner: Side | None) -> GameRecord:
    """The game finished; no deadline is left running."""
    return game.changed(status=Status.FINISHED, ending=ending, winner=winner, deadline=None)


def clocked(
    game: GameRecord, now: datetime, *, turn_timeout: float, challenge_timeout: float
) -> GameRecord:
    """The game with the right deadline for its state: none while the engine is to move.

    A challenge keeps the deadline it was given; the player to move gets `turn_timeout` seconds.
    """
    if game.status is Status.CHALLENGE:
        deadline = game.deadline or now + timedelta(seconds=challenge_timeout)
    elif game.status is Status.ACTIVE and not ai_to_move(game):
        deadline = now + timedelta(seconds=turn_timeout)
    else:
        deadline = None
    return game if deadline == game.deadline else game.changed(deadline=deadline)


def new_game(
    *,
    game_id: int,
    guild_id: int | None,
    channel_id: int,
    x_id: int,
    o_id: int,
    challenger_id: int,
    kind: str,
    size: int,
    k: int,
    level: Level | None,
    now: datetime,
    locale: str,
    interactions_only: bool,
) -> GameRecord:
    """A new game: against the bot when it has a `level` (the side that is not the
    challenger's), else a challenge waiting for the other player's answer."""
    vs_bot = level is not None
    return GameRecord(
        id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        x_id=x_id,
        o_id=o_id,
        challenger_id=challenger_id,
        size=size,
        k=k,
        ai_side=("O" if x_id == challenger_id else "X") if vs_bot else None,
        ai_level=level,
        status=Status.ACTIVE if vs_bot else Status.CHALLENGE,
        created_at=now,
        locale=locale,
        interactions_only=interactions_only,
        kind=kind,
    )


def rematch_of(game: GameRecord, *, game_id: int, challenger_id: int, now: datetime) -> GameRecord:
    """A new game for the same players, level and board, with the first move swapped."""
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
        kind=game.kind,
        status=Status.ACTIVE if game.vs_bot else Status.CHALLENGE,
        created_at=now,
        locale=game.locale,
        interactions_only=game.interactions_only,
    )


def check(game: GameRecord) -> None:
    """Refuse records that would store or count nonsense (a programming error, not a refusal)."""
    if game.ai_side not in (None, *SIDES) or game.winner not in (None, *SIDES):
        raise ValueError(f"game {game.id}: sides are 'X' or 'O'")
    if game.status == Status.FINISHED and game.ending is None:
        raise ValueError(f"game {game.id} is finished but has no ending")
    decisive = game.ending in (Ending.WIN, Ending.RESIGN, Ending.TIMEOUT)
    if game.status == Status.FINISHED and decisive and game.winner is None:
        raise ValueError(f"game {game.id} ended by {game.ending} but has no winner")


# ------------------------------------------------------------------------ who may do what


def move(game: GameRecord | None, user_id: int, cell: int) -> GameRecord | Refused:
    """The game after `user_id` plays `cell`, or why they may not now."""
    found = may_move(game, user_id)
    if isinstance(found, Refused):
        return found
    refusal = kinds.of(found).refuse_cell(found, cell)
    return play(found, cell) if refusal is None else Refused(refusal)


def may_move(game: GameRecord | None, user_id: int) -> GameRecord | Refused:
    """The game if `user_id` is the player to move now, or why they may not move."""
    if game is None:
        return Refused(GONE)
    if game.status is Status.FINISHED:
        return over(game)
    if game.status is Status.CHALLENGE:
        return Refused(
            N_("The game has not started: the challenge is still waiting for an answer.")
        )
    side = side_of(game, user_id)
    if side is None:
        return Refused(
            N_("This game is between {x} and {o}; start your own with /tictactoe.", **pair(game))
        )
    if ai_to_move(game):
        return Refused(THINKING, engine_turn=True)
    if side != turn(game):
        return Refused(
            N_("It's not your turn: waiting for {player}.", player=mention(to_move_id(game)))
        )
    return game


def over(game: GameRecord) -> Refused:
    """Why a finished game takes no more moves: an abandoned one has no Rematch button."""
    return Refused(ABANDONED if game.ending is Ending.ABANDONED else OVER)


def _challenge(game: GameRecord | None, user_id: int, *, challenger: bool) -> GameRecord | Refused:
    """The pending challenge `user_id` may answer (or withdraw, as `challenger`), or why not."""
    if game is None:
        return Refused(GONE)
    if game.status is not Status.CHALLENGE:
        return Refused(N_("This challenge has already been answered."))
    opponent = opponent_id(game)
    if not challenger and user_id != opponent:
        if user_id == game.challenger_id:
            return Refused(
                N_(
                    "Wait for {player} to answer, or withdraw your challenge.",
                    player=mention(opponent),
                )
            )
        return Refused(N_("This challenge is for {player}, not you.", player=mention(opponent)))
    if challenger and user_id != game.challenger_id:
        if user_id == opponent:
            return Refused(N_("Only the challenger can withdraw it; you can accept or decline."))
        return Refused(N_("This challenge is between {x} and {o}.", **pair(game)))
    return game


def accept(game: GameRecord | None, user_id: int) -> GameRecord | Refused:
    """The game started by its challenged player, or why `user_id` may not start it."""
    found = _challenge(game, user_id, challenger=False)
    if isinstance(found, Refused):
        return found
    return found.changed(status=Status.ACTIVE, deadline=None)


def decline(game: GameRecord | None, user_id: int, *, withdraw: bool) -> GameRecord | Refused:
    """The challenge declined by its opponent (or withdrawn by its challenger), or why not."""
    found = _challenge(game, user_id, challenger=withdraw)
    if isinstance(found, Refused):
        return found
    return finish(found, Ending.WITHDRAWN if withdraw else Ending.DECLINED, None)


def resign(game: GameRecord | None, user_id: int) -> GameRecord | Refused:
    """The game won by the other side of `user_id`, or why they may not resign."""
    if game is None:
        return Refused(GONE)
    if game.status is Status.FINISHED:
        return over(game)
    if game.status is Status.CHALLENGE:
        return Refused(N_("The game has not started; decline or withdraw the challenge instead."))
    side = side_of(game, user_id)
    if side is None:
        return Refused(N_("This isn't your game: it's between {x} and {o}.", **pair(game)))
    return finish(game, Ending.RESIGN, other(side))
