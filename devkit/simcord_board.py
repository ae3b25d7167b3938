"""Reading a SimCord board message the way a player sees it: its text, its cells, its controls;
and the SimCord servers and games the tests and the kill driver start from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from simcord import Env
from simcord.builders import ChannelHandle, GuildHandle
from simcord.components import walk_components

TEXT_DISPLAY = 10
ACTION_ROW = 1
BUTTON = 2


@dataclass(frozen=True)
class Cell:
    """One board button as shown."""

    custom_id: str
    mark: str | None  # "X", "O" or None
    disabled: bool
    style: int


def raw(env: Env, message: Any) -> Any:
    """The message as Discord stores it now (after every edit)."""
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return env.backend.get_message(channel_id, message.id)


def text(env: Env, message: Any) -> str:
    """Everything the message says: its content and every text display."""
    stored = raw(env, message)
    parts = [stored.content] if stored.content else []
    parts += [c["content"] for c in walk_components(stored.components) if c["type"] == TEXT_DISPLAY]
    return "\n".join(parts)


def rows(env: Env, message: Any) -> list[list[dict[str, Any]]]:
    """The buttons of each action row, top to bottom."""
    stored = raw(env, message)
    return [
        [b for b in c["components"] if b["type"] == BUTTON]
        for c in walk_components(stored.components)
        if c["type"] == ACTION_ROW
    ]


def cells(env: Env, message: Any, size: int) -> list[Cell]:
    """The board: the first `size` action rows, row-major."""
    out = []
    for row in rows(env, message)[:size]:
        assert len(row) == size
        for button in row:
            emoji = (button.get("emoji") or {}).get("name")
            mark = {"❌": "X", "⭕": "O"}.get(emoji or "")
            out.append(
                Cell(button["custom_id"], mark, bool(button.get("disabled")), button["style"])
            )
    return out


def game_id_of(env: Env, message: Any, size: int = 3) -> int:
    """The game a board message belongs to, read from its buttons."""
    return int(cells(env, message, size)[0].custom_id.split(":")[1])


def controls(env: Env, message: Any, size: int) -> dict[str, dict[str, Any]]:
    """The buttons below the board, by label."""
    return {b["label"]: b for row in rows(env, message)[size:] for b in row}


def challenge_buttons(env: Env, message: Any) -> dict[str, dict[str, Any]]:
    """The buttons of a message without a board, by label."""
    return {b["label"]: b for row in rows(env, message) for b in row}


def free(env: Env, message: Any, size: int) -> list[Cell]:
    """The cells a player can still click."""
    return [c for c in cells(env, message, size) if not c.disabled]


def board_message(channel: ChannelHandle) -> discord.Message:
    """The newest message in the channel (the board or the challenge)."""
    message = channel.last_message
    assert message is not None
    return message


def guild_with(env: Env, *names: str) -> tuple[GuildHandle, ChannelHandle, list[Any]]:
    """A server with a #games channel and one member per name."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in names]
    return guild, channel, members


async def people_game(env: Env) -> tuple[ChannelHandle, Any, Any, Any, Any]:
    """Alice (❌) against Bob (⭕), accepted, in #games, Carol watching; channel, players, board."""
    _, channel, (alice, bob, carol) = guild_with(env, "alice", "bob", "carol")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    return channel, alice, bob, carol, message


async def resign(player: Any, message: Any) -> Any:
    """Resign in the board's two clicks: Resign, which asks on the board itself, then Confirm
    resign; the second click's result."""
    asked = await player.click(message, label="Resign")
    assert asked.acknowledged and not asked.ephemeral
    return await player.click(message, label="Confirm resign")
