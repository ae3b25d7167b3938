"""The message events the bot parses: a mention, a deleted board; never an edit, never a message
that is not for it (discord.py would build each one whole, components and all); and a click's
message with its components as Discord sent them."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.components import _component_factory
from discord.interactions import InteractionCallbackResponse, InteractionMessage
from simcord import Env

from bot.discord_ui import grid
from bot.games.look import Look
from devkit.simcord_board import board_message, guild_with, raw


def parsed_events(env: Env) -> list[tuple[str, Any]]:
    """Every message event discord.py dispatches to the bot from now on, as (name, payload)."""
    seen: list[tuple[str, Any]] = []

    def listener(name: str) -> Any:
        async def note(*payload: Any) -> None:
            seen.append((name, payload[-1]))

        return note

    for name in ("raw_message_edit", "message_edit", "message"):
        env.bot.add_listener(listener(name), f"on_{name}")
    return seen


def sent(env: Env, event: str) -> list[Any]:
    """The payloads of every `event` Discord has sent the bot on the gateway."""
    return [entry[2] for entry in env.backend.transcript if entry[:2] == ("GATEWAY", event)]


async def test_the_boards_own_edits_are_not_parsed(simcord_env: Env) -> None:
    """Each click edits the board, and Discord sends the edit back: the bot builds nothing from
    it (no edit event reaches any listener), and the game goes on."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    seen = parsed_events(simcord_env)
    updates = len(sent(simcord_env, "MESSAGE_UPDATE"))

    result = await alice.click(message, custom_id="ttt:1:4")

    assert result.acknowledged and not result.ephemeral
    assert len(sent(simcord_env, "MESSAGE_UPDATE")) > updates  # Discord did send the edit back
    assert seen == []
    assert list(simcord_env.bot.cached_messages) == []  # and nothing is kept


async def test_only_a_message_that_mentions_the_bot_is_parsed(simcord_env: Env) -> None:
    """Chatter in a channel is not built into messages; a mention is, and gets its one line."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    bot_id = simcord_env.backend.bot_user.id
    seen = parsed_events(simcord_env)

    await alice.send(channel, "hello everyone")
    said = await alice.send(channel, f"<@{bot_id}> hello")

    assert [(name, payload.id) for name, payload in seen] == [("message", said.id)]
    replies = [m for m in channel.history() if m.author.id == bot_id]
    assert len(replies) == 1 and "/tictactoe" in replies[0].content


async def test_a_response_keeps_its_message_id_and_builds_no_message(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answers each interaction response with the message it made or edited: the bot
    keeps the new board's id (its game is played on it) and builds no message from it."""
    came_back: list[bool] = []  # whether each response's answer carried its message
    built: list[Any] = []
    answer, make = InteractionCallbackResponse.__init__, InteractionMessage.__init__

    def noted(self: InteractionCallbackResponse, **kwargs: Any) -> None:
        came_back.append("message" in (kwargs["data"].get("resource") or {}))
        answer(self, **kwargs)

    def counted(self: InteractionMessage, **kwargs: Any) -> None:
        built.append(kwargs["data"])
        make(self, **kwargs)

    monkeypatch.setattr(InteractionCallbackResponse, "__init__", noted)
    monkeypatch.setattr(InteractionMessage, "__init__", counted)
    _, channel, (alice,) = guild_with(simcord_env, "alice")

    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    result = await alice.click(message, custom_id="ttt:1:4")

    assert result.acknowledged and not result.ephemeral
    assert came_back == [True, True]  # the new board, then the board after the click
    assert built == []
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and stored.message_id == message.id and len(stored.moves) == 2


async def test_a_clicks_message_keeps_its_components_as_discord_sent_them(simcord_env: Env) -> None:
    """A click arrives with its board, whose buttons discord.py would build into objects: they
    stay the dicts Discord sent, read as the built ones would be."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    clicked: list[discord.Message | None] = []

    async def note(interaction: discord.Interaction) -> None:
        clicked.append(interaction.message)

    simcord_env.bot.add_listener(note, "on_interaction")
    components = raw(simcord_env, message).components  # as Discord holds the board
    await alice.click(message, custom_id="ttt:1:4")

    (seen,) = clicked
    assert seen is not None and seen.components == components
    assert all(isinstance(c, dict) for c in seen.components)
    built = [_component_factory(c) for c in components]  # the board as discord.py builds it
    assert grid.buttons_in(seen.components) == grid.buttons_in(built)
    assert len(grid.buttons_in(built)) >= 9
    played = await simcord_env.bot.store.load_game(1)
    assert played is not None
    free = next(cell for cell in range(9) if cell not in played.moves)
    await alice.click(message, custom_id=f"ttt:1:{free}")  # read from the dicts: the game goes on
    stored = await simcord_env.bot.store.load_game(1)
    assert stored is not None and len(stored.moves) == 4


def test_a_buttons_emoji_reads_alike_in_both_forms() -> None:
    """A Unicode mark, a server's custom mark and an animated one read as discord.py writes
    them, whether the button is a dict or built: as the look writes its marks."""
    look = Look(x="<:cross:123456789012345678>", o="<a:ring:223456789012345678>", empty="⬜")
    emojis = (
        {"id": "123456789012345678", "name": "cross", "animated": False},
        {"id": "223456789012345678", "name": "ring", "animated": True},
        {"id": None, "name": "⬜"},
    )
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 2, "custom_id": f"ttt:7:{i}", "emoji": e}
            for i, e in enumerate(emojis)
        ]
        + [{"type": 2, "style": 2, "custom_id": "ttt:7:resign", "label": "Resign"}],
    }
    built = [_component_factory(row)]
    assert grid.buttons_in([row]) == grid.buttons_in(built)
    assert [b.emoji for b in grid.buttons_in([row])][:3] == [look.x, look.o, look.empty]
