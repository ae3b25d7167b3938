"""The message events the bot parses: a mention, a deleted board; never an edit, never a message
that is not for it (discord.py would build each one whole, components and all)."""

from __future__ import annotations

from typing import Any

import pytest
from discord.interactions import InteractionCallbackResponse, InteractionMessage
from simcord import Env

from devkit.simcord_board import board_message, guild_with


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
