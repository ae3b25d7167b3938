"""A game of random legal moves, as a record the bot could have stored (the pictures benchmark
draws its positions; a benchmark's bot process draws them before a run, as a bot that has been
running has drawn pictures before)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.games.record import Ending, GameRecord, Status
from engine import Board
from engine.ultimate import UltimateBoard


def played(
    kind: str, size: int, k: int, rng: random.Random, plies: int, **fields: Any
) -> GameRecord:
    """A game of random legal moves, at most `plies`, finished where its moves end it (as the
    bot finishes it); `fields`: the record's own (its id, players, look) where not the defaults."""
    position: Board | UltimateBoard = (
        UltimateBoard() if kind == "ultimate" else Board.from_moves((), size=size, k=k)
    )
    moves: list[int] = []
    while len(moves) < plies and position.outcome() is None:
        moves.append(rng.choice(list(position.legal_moves())))
        position = position.play(moves[-1])
    players = {"id": 1, "guild_id": 1, "channel_id": 1, "x_id": 1, "o_id": 2, "challenger_id": 1}
    game = GameRecord(**{**players, **fields}, size=size, k=k, kind=kind, moves=tuple(moves))
    outcome = position.outcome()
    if outcome is None:
        return game
    return replace(
        game,
        status=Status.FINISHED,
        winner=outcome.winner,
        ending=Ending.WIN if outcome.winner else Ending.DRAW,
    )
