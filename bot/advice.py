"""The Hint and Review buttons: the engine's exact values, in words, for the clicker only.

Both run the pure functions of ``bot.review`` off the event loop with a time limit (see
``EngineRunner.analyse``). On 3x3 that is a table lookup and the answer comes at once; on bigger
boards the click is deferred first (acknowledged within Discord's 3 seconds, "thinking" shown)
and the answer follows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import play, review
from bot.engine_runner import AnalysisTimeout
from bot.models import GameRecord, Status

if TYPE_CHECKING:
    from bot.flow import GameFlow

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

HINT_LIMIT = 10.0  # seconds of exact analysis for a hint
REVIEW_LIMIT = 30.0  # seconds for a whole game's review
MAX_CHARS = 1900  # an ephemeral message holds 2,000 characters

GONE = "This game no longer exists. Start a new one with /tictactoe."


def too_deep(game: GameRecord, limit: float, what: str) -> str:
    """The answer when the exact analysis of `what` did not finish within its limit."""
    size = f"{game.size}×{game.size}"
    if what == "hint":
        return (
            f"Sorry, this position needs a deeper analysis than I can finish in {limit:g} s: "
            f"early in a {size} game it is still very open. Ask again a few moves on."
        )
    return (
        f"Sorry, reviewing this game needs a deeper analysis than I can finish in {limit:g} s "
        f"(the opening of a {size} game is very open)."
    )


def refuse_hint(game: GameRecord | None, user_id: int) -> str | None:
    """Why `user_id` may not have a hint in this game now, or None if they may."""
    if game is None:
        return GONE
    if not game.vs_bot:
        return "Hints are only for games against me."
    if game.status is Status.FINISHED:
        return "This game is over: use Review to see which moves mattered."
    human = play.player_id(game, play.other(game.ai_side or "O"))
    if user_id != human:
        return f"Only <@{human}> can ask for hints in this game."
    if play.ai_to_move(game):
        return "I'm thinking about my move; ask again when it's your turn."
    return None


def refuse_review(game: GameRecord | None) -> str | None:
    """Why this game cannot be reviewed now, or None if it can."""
    if game is None:
        return GONE
    if play.is_live(game):
        return "The review opens when the game is over."
    if game.ending not in play.PLAYED:
        return "No game was played here, so there is nothing to review."
    if not game.moves:
        return "No moves were played in this game."
    return None


def names(game: GameRecord, viewer_id: int) -> dict[str, str]:
    """How the review names each side: "You" for the viewer, else a mention."""
    out = {}
    for side in play.SIDES:
        user_id = play.player_id(game, side)
        out[side] = "You" if user_id == viewer_id else f"<@{user_id}>"
    return out


def fit(lines: list[str], limit: int = MAX_CHARS) -> str:
    """The lines joined, cut before `limit` characters with a note of how many were left out.

    The last line (the summary) is always kept.
    """
    *body, summary = lines
    kept: list[str] = []
    room = limit - len(summary) - 40
    for line in body:
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    if len(kept) < len(body):
        kept.append(f"… and {len(body) - len(kept)} more.")
    return "\n".join([*kept, summary])


class Advice:
    """What the Hint and Review buttons do."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow

    async def hint(self, interaction: Interaction, game_id: int) -> None:
        """The best move for the player to move against the bot, and what it achieves."""
        game = await self.flow.load(game_id)
        refusal = refuse_hint(game, interaction.user.id)
        if refusal is not None:
            await self.flow.tell(interaction, refusal)
            return
        assert game is not None
        args = (list(game.moves), game.size, game.k)
        text = await self._work(interaction, game, review.hint, args, HINT_LIMIT)
        answer = f"💡 {text}" if text else too_deep(game, HINT_LIMIT, "hint")
        await self.flow.tell(interaction, answer)

    async def review(self, interaction: Interaction, game_id: int) -> None:
        """Every move that changed the result, and what would have kept it."""
        game = await self.flow.load(game_id)
        refusal = refuse_review(game)
        if refusal is not None:
            await self.flow.tell(interaction, refusal)
            return
        assert game is not None
        args = (list(game.moves), game.size, game.k, names(game, interaction.user.id))
        lines = await self._work(interaction, game, review.review, args, REVIEW_LIMIT)
        if lines is None:
            await self.flow.tell(interaction, too_deep(game, REVIEW_LIMIT, "review"))
            return
        title = f"**Review of game {game.id}** ({len(game.moves)} moves)"
        await self.flow.tell(interaction, fit([title, *lines]))

    async def _work(
        self,
        interaction: Interaction,
        game: GameRecord,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        limit: float,
    ) -> Any:
        """Run an analysis, deferring the answer first on boards where it may take a while.

        Returns the analysis' result, or None when it was stopped at its time limit.
        """
        if game.size > 3:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            return await self.flow.bot.engine.analyse(game.size, fn, *args, limit=limit)
        except AnalysisTimeout:
            log.info("analysis of game %s stopped after %g s", game.id, limit)
            return None
