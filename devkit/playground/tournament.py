"""A tournament in the playground's world: alice announces a Swiss, a member presses the
announcement's buttons, and the announcement and the podium as #games shows them."""

from __future__ import annotations

from typing import Any

from simcord.results import ResponseMessage

from bot.playground.regulars import buttons, words
from bot.tournaments import board as tournament_board
from devkit.playground.world import World


def announcement(world: World) -> Any:
    """The tournament's announcement in #games: the bot's message with its buttons or table."""
    messages = world.env.backend.messages[world.server.channel.id].values()
    return next(
        m
        for m in messages
        if not m.is_ephemeral
        and (
            any(tournament_board.parse_id(custom_id) for custom_id, _ in buttons(m))
            or "Standings" in words(m)
        )
    )


async def press(world: World, name: str, what: str) -> None:
    """A member presses one of the announcement's buttons (Join, Leave, Start)."""
    message = announcement(world)
    wanted = next(cid for cid, _ in buttons(message) if cid.endswith(f":{what}"))
    await world.member(name).click(ResponseMessage(world.env, message), custom_id=wanted)


async def created(world: World) -> None:
    """Alice announces a Swiss of 3x3 in #games, to start when she presses Start."""
    await world.member("alice").slash(
        world.server.channel, "tictactoe-tournament create", format="swiss"
    )
    await world.env.settle()


def podium(world: World) -> Any | None:
    """The final message in #games, once posted."""
    messages = world.env.backend.messages[world.server.channel.id].values()
    return next((m for m in messages if "🥇" in words(m)), None)
