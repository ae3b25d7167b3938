"""The Hint and Review buttons: the engine's exact values, in words, for the clicker only.

Both run the pure functions of ``bot.games.review`` off the event loop with a time limit (see
``EngineRunner.analyse``). On 3x3 that is a table lookup and the answer comes at once; on bigger
boards the click is deferred first (acknowledged within Discord's 3 seconds, "thinking" shown)
and the answer follows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from gettext import NullTranslations
from typing import Any

import discord

from bot.compute.processes import AnalysisTimeout
from bot.compute.runner import EngineRunner
from bot.discord_ui import replies
from bot.games import kinds, may_ask, rules
from bot.games.record import GameRecord
from bot.games.rules import Refused
from bot.i18n import N_, NP_, Text, translation

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

HINT_LIMIT = 10.0  # seconds of exact analysis for a hint
REVIEW_LIMIT = 30.0  # seconds for a whole game's review
MAX_CHARS = 1900  # an ephemeral message holds 2,000 characters


def too_deep(game: GameRecord, limit: float, what: str) -> Text:
    """The answer when the exact analysis of `what` did not finish within its limit."""
    size = f"{game.size}×{game.size}"
    if what == "hint":
        return N_(
            "Sorry, this position needs a deeper analysis than I can finish in {limit} s: "
            "early in a {size} game it is still very open. Ask again a few moves on.",
            limit=f"{limit:g}",
            size=size,
        )
    return N_(
        "Sorry, reviewing this game needs a deeper analysis than I can finish in {limit} s "
        "(the opening of a {size} game is very open).",
        limit=f"{limit:g}",
        size=size,
    )


def names(game: GameRecord, viewer_id: int) -> dict[str, Any]:
    """How the review names each side: "You" for the viewer, else a mention."""
    out: dict[str, str | Text] = {}
    for side in rules.SIDES:
        user_id = rules.player_id(game, side)
        out[side] = N_("You") if user_id == viewer_id else f"<@{user_id}>"
    return out


def fit(
    lines: list[str], limit: int = MAX_CHARS, *, catalog: NullTranslations | None = None
) -> str:
    """The lines joined, cut before `limit` characters with a note (in `catalog`'s language) of
    how many were left out.

    The last line (the summary) is always kept.
    """
    *body, summary = lines
    kept: list[str] = []
    room = limit - len(summary) - 80  # room for the note in any language
    for line in body:
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    if len(kept) < len(body):
        left = len(body) - len(kept)
        kept.append(
            NP_("… and {n} more.", "… and {n} more.", left).render(catalog or translation(None))
        )
    return "\n".join([*kept, summary])


class Advice:
    """What the Hint and Review buttons do."""

    def __init__(self, engine: EngineRunner) -> None:
        self.engine = engine

    async def hint(self, interaction: Interaction, game: GameRecord | None) -> None:
        """The best move for the player to move against the bot, and what it achieves."""
        found = may_ask.hintable(game, interaction.user.id)
        if isinstance(found, Refused):
            await replies.tell(interaction, found.text)
            return
        fn, args = kinds.of(found).hint_job(found)
        text = await self._work(interaction, found, fn, args, HINT_LIMIT)
        if text is None:
            await replies.tell(interaction, too_deep(found, HINT_LIMIT, "hint"))
            return
        await replies.tell(interaction, f"💡 {replies.words(interaction, text)}")

    async def review(self, interaction: Interaction, game: GameRecord | None) -> None:
        """Every move that changed the result, and what would have kept it."""
        found = may_ask.reviewable(game)
        if isinstance(found, Refused):
            await replies.tell(interaction, found.text)
            return
        marks = {"X": found.look.x, "O": found.look.o}
        job, args = kinds.of(found).review_job(found, names(found, interaction.user.id), marks)
        lines = await self._work(interaction, found, job, args, REVIEW_LIMIT)
        if lines is None:
            await replies.tell(interaction, too_deep(found, REVIEW_LIMIT, "review"))
            return
        catalog = translation(str(interaction.locale))
        title = NP_(
            "**Review of game {game}** ({n} move)",
            "**Review of game {game}** ({n} moves)",
            len(found.moves),
            game=found.id,
        )
        words = [line.render(catalog) for line in [title, *lines]]
        await replies.tell(interaction, fit(words, catalog=catalog))

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
        search = kinds.of(game).searches(game)
        if search:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            return await self.engine.analyse(search, fn, *args, limit=limit)
        except AnalysisTimeout:
            log.info("analysis of game %s stopped after %g s", game.id, limit)
            return None
