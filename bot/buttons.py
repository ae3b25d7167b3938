"""The one kind of button on a board message, and the apology every failed click gets.

Every control carries its game in the custom id, ``ttt:<game id>:<cell>`` for a cell and
``ttt:<game id>:<action>`` for the rest, so a click finds its game after a restart without any
view kept in memory. discord.py only logs an exception raised in a dynamic item's callback
(the user would see "This interaction failed"), so the callback answers every failure itself.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

log = logging.getLogger(__name__)

ACCEPT = "accept"
DECLINE = "decline"
WITHDRAW = "withdraw"
RESIGN = "resign"
REMATCH = "rematch"
HINT = "hint"
REVIEW = "review"
ACTIONS = (ACCEPT, DECLINE, WITHDRAW, RESIGN, REMATCH, HINT, REVIEW)

SORRY = "Sorry, something went wrong on my side; it has been logged. Please try again."


class ClickHandler(Protocol):
    """What a button hands its click to (the game cog)."""

    async def on_click(
        self, interaction: discord.Interaction[Any], game_id: int, what: str
    ) -> None:
        """Handle a click on `what` (a cell number or an action) in game `game_id`."""


def custom_id(game_id: int, what: int | str) -> str:
    """The custom id of a cell (int) or a control (action name) of a game."""
    return f"ttt:{game_id}:{what}"


async def apologize(interaction: discord.Interaction[Any], text: str = SORRY) -> None:
    """Answer privately that something failed, whether or not the interaction was answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send the apology for interaction %s", interaction.id, exc_info=True)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ttt:(?P<game>[0-9]{1,19}):(?P<what>[0-9]{1,2}|[a-z]{1,16})",
):
    """A cell or a control of one game."""

    def __init__(
        self,
        game_id: int,
        what: int | str,
        *,
        label: str | None = None,
        emoji: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id(game_id, what),
                label=label,
                emoji=emoji,
                style=style,
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.what = str(what)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> GameButton:
        # The template admits only digits here, so this cannot fail (a failure would be dropped
        # silently by discord.py, leaving the click unanswered).
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ClickHandler | None = interaction.client.get_cog("GameCog")  # type: ignore[assignment]
        if handler is None:
            await apologize(interaction, "Games are not available right now; try again shortly.")
            return
        try:
            await handler.on_click(interaction, self.game_id, self.what)
        except Exception:
            log.exception("click on %s by %s failed", self.custom_id, interaction.user.id)
            await apologize(interaction)
