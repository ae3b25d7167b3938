"""What each button does: validate the click under the game's lock, or explain the refusal.

Every refusal is an ephemeral answer and leaves the board untouched. Each handler re-reads the
game inside the lock, so of two clicks that arrive together only the first can change it.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord

from bot import play, render
from bot.advice import Advice
from bot.buttons import ACCEPT, DECLINE, HINT, REMATCH, RESIGN, REVIEW, WITHDRAW
from bot.flow import GameFlow
from bot.models import Ending, GameRecord, Status
from bot.store import StorageError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

GONE = "This game no longer exists. Start a new one with /tictactoe."
OVER = "This game is over. Start a new one with /tictactoe, or ask for a rematch."
THINKING = "I'm thinking about my move; one moment please."


def _players(game: GameRecord) -> str:
    return f"<@{game.x_id}> and <@{game.o_id}>"


def refuse_move(game: GameRecord | None, user_id: int, cell: int) -> str | None:
    """Why `user_id` may not play `cell` now, or None if they may."""
    if game is None:
        return GONE
    if game.status is Status.FINISHED:
        return OVER
    if game.status is Status.CHALLENGE:
        return "The game has not started: the challenge is still waiting for an answer."
    side = play.side_of(game, user_id)
    if side is None:
        return f"This game is between {_players(game)}; start your own with /tictactoe."
    if play.ai_to_move(game):
        return THINKING
    if side != play.turn(game):
        return f"It's not your turn: waiting for <@{play.to_move_id(game)}>."
    if not 0 <= cell < game.size * game.size or cell in game.moves:
        return "That cell is already taken; pick an empty one."
    return None


def refuse_answer(game: GameRecord | None, user_id: int, *, role: str) -> str | None:
    """Why `user_id` may not answer the challenge as `role` ("opponent" or "challenger")."""
    if game is None:
        return GONE
    if game.status is not Status.CHALLENGE:
        return "This challenge has already been answered."
    opponent, challenger = play.opponent_id(game), game.challenger_id
    if role == "opponent" and user_id != opponent:
        if user_id == challenger:
            return f"Wait for <@{opponent}> to answer, or withdraw your challenge."
        return f"This challenge is for <@{opponent}>, not you."
    if role == "challenger" and user_id != challenger:
        if user_id == opponent:
            return "Only the challenger can withdraw it; you can accept or decline."
        return f"This challenge is between {_players(game)}."
    return None


class Clicks:
    """The handlers behind the board's buttons."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        self.games = flow.games
        self.advice = Advice(flow)

    async def handle(self, interaction: Interaction, game_id: int, what: str) -> None:
        """Dispatch a click on a cell (a number) or a control (an action name)."""
        if what.isdigit():
            await self.cell(interaction, game_id, int(what))
        elif what in (ACCEPT, DECLINE, WITHDRAW):
            await self.answer(interaction, game_id, what)
        elif what == RESIGN:
            await self.resign(interaction, game_id)
        elif what == REMATCH:
            await self.rematch(interaction, game_id)
        elif what == HINT:
            await self.advice.hint(interaction, game_id)
        elif what == REVIEW:
            await self.advice.review(interaction, game_id)
        else:
            await self.flow.tell(interaction, "That button no longer does anything.")

    async def cell(self, interaction: Interaction, game_id: int, cell: int) -> None:
        """Play a cell; against the bot, its reply follows once the move is shown."""
        stuck = False
        async with self.games.lock(game_id):
            game = await self.flow.load(game_id)
            refusal = refuse_move(game, interaction.user.id, cell)
            if refusal is not None:
                await self.flow.tell(interaction, refusal)
                # The engine's move was lost (a failed save): a click sets it going again.
                stuck = refusal == THINKING and game_id not in self.games.thinking
                after = None
            else:
                assert game is not None
                after = play.play(game, cell)
                if not await self.flow.change(interaction, after):
                    return
        if stuck:
            await self.flow.ai_move(game_id)
        elif after is not None and play.ai_to_move(after):
            await self.flow.ai_move(game_id, interaction)

    async def answer(self, interaction: Interaction, game_id: int, what: str) -> None:
        """Accept or decline (the challenged player), or withdraw (the challenger)."""
        role = "challenger" if what == WITHDRAW else "opponent"
        async with self.games.lock(game_id):
            game = await self.flow.load(game_id)
            refusal = refuse_answer(game, interaction.user.id, role=role)
            if refusal is not None:
                await self.flow.tell(interaction, refusal)
                return
            assert game is not None
            if what == ACCEPT:
                after = dataclasses.replace(game.copy(), status=Status.ACTIVE, deadline=None)
            else:
                ending = Ending.WITHDRAWN if what == WITHDRAW else Ending.DECLINED
                after = play.finish(game, ending, None)
            await self.flow.change(interaction, after)

    async def resign(self, interaction: Interaction, game_id: int) -> None:
        """End the game at once; the other side wins."""
        async with self.games.lock(game_id):
            game = await self.flow.load(game_id)
            side = play.side_of(game, interaction.user.id) if game is not None else None
            if game is None:
                refusal: str | None = GONE
            elif game.status is Status.FINISHED:
                refusal = OVER
            elif game.status is Status.CHALLENGE:
                refusal = "The game has not started; decline or withdraw the challenge instead."
            elif side is None:
                refusal = f"This isn't your game: it's between {_players(game)}."
            else:
                refusal = None
            if refusal is not None:
                await self.flow.tell(interaction, refusal)
                return
            assert game is not None and side is not None
            await self.flow.change(interaction, play.finish(game, Ending.RESIGN, play.other(side)))

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """A new game for the same players and board with the first move swapped.

        Against the bot it starts at once; against a person it is a new challenge to the other
        player, who accepts or declines it like any other.
        """
        game = await self.flow.load(game_id)
        user_id = interaction.user.id
        if game is None:
            await self.flow.tell(interaction, GONE)
            return
        if play.is_live(game) or game.ending not in play.PLAYED:
            await self.flow.tell(interaction, "There is no finished game to replay here.")
            return
        if play.side_of(game, user_id) is None:
            await self.flow.tell(interaction, f"Only {_players(game)} can ask for a rematch.")
            return
        if not self.games.reserve(game.channel_id):
            busy = render.busy_text(self.games.in_channel(game.channel_id))
            await self.flow.tell(interaction, busy)
            return
        try:
            new_id = await self.flow.bot.store.next_game_id()
        except StorageError as exc:
            self.games.release(game.channel_id)
            log.error("no id for a rematch of game %s: %s", game_id, exc)
            await self.flow.tell(interaction, "Sorry, I could not start the rematch; try again.")
            return
        except BaseException:
            self.games.release(game.channel_id)
            raise
        new = play.rematch_of(game, game_id=new_id, challenger_id=user_id)
        new.created_at = discord.utils.utcnow()
        await self.flow.open(interaction, new)
