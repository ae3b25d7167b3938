"""The playground's regulars, on the simulated clock: they accept a challenge and play their moves
after a pause, from the board's buttons alone, in #games and in a thread, classic and ultimate;
a rule added by hook has them click another button (a tournament's Join)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
from simcord.results import ResponseMessage

from bot.discord_ui.board import parse_id
from bot.playground.regulars import (
    ACCEPT,
    CELLS,
    PAUSE,
    Regulars,
    Seen,
    asked,
    buttons,
    words,
)
from devkit.playground.world import World, simulated
from devkit.simcord_board import text

ENDED = ("wins with", "draw")


def regulars(world: World) -> Regulars:
    return Regulars(
        world.env, world.server.regulars, world.server.channel.id, rng=random.Random(42)
    )


def newest(world: World, channel_id: int) -> Any:
    """The newest public message of the bot's in a channel or thread, as stored now."""
    messages = world.env.backend.messages[channel_id]
    bot_id = world.env.backend.bot_user.id
    mine = [i for i, m in messages.items() if m.author_id == bot_id and not m.is_ephemeral]
    return messages[max(mine)]


async def alice_moves(world: World, message: Any) -> bool:
    """Alice clicks the first free cell (or small board) when the board asks her; whether she
    did."""
    alice = world.member("alice")
    if asked(words(message)) != alice.id:
        return False
    for custom_id, _ in buttons(message):
        parsed = parse_id(custom_id)
        if parsed is not None and (parsed[1].isdigit() or parsed[1].startswith("pick")):
            await alice.click(ResponseMessage(world.env, message), custom_id=custom_id)
            return True
    return False


async def play_out(world: World, players: Regulars, channel_id: int, *, alice: bool) -> int:
    """Tick the simulated clock a second at a time until the newest board's game has ended;
    returns the regulars' clicks."""
    for _ in range(600):
        board = newest(world, channel_id)
        if any(end in words(board) for end in ENDED):
            return players.clicks
        if alice and await alice_moves(world, board):
            continue
        await players.play()
        await world.env.advance_time(1.0)
    raise AssertionError(f"the game did not end: {words(newest(world, channel_id))}")


async def test_a_challenged_regular_accepts_after_a_pause_and_plays_back(tmp_path: Path) -> None:
    """Alice challenges dave: nothing at once; within the pause he accepts, then every move of
    his is a legal cell (the bot refuses none), until the game ends."""
    async with simulated(tmp_path) as world:
        channel, dave = world.server.channel, world.member("dave")
        players = regulars(world)
        await world.member("alice").slash(channel, "tictactoe", opponent=dave)
        assert await players.play() == 0  # a person reads before clicking
        await world.env.advance_time(PAUSE[0] - 0.1)
        assert await players.play() == 0
        await world.env.advance_time(PAUSE[1] - PAUSE[0] + 0.2)
        assert await players.play() == 1
        assert "your move" in text(world.env, newest(world, channel.id))

        clicks = await play_out(world, players, channel.id, alice=True)

        moves = sum(mark in words(newest(world, channel.id)) for mark in ("❌", "⭕"))
        assert moves >= 2 and clicks >= 3  # the accept and at least two moves of dave's
        refused = [m for m in world.env.backend.messages[channel.id].values() if m.is_ephemeral]
        assert refused == []  # never a click out of turn or on a taken cell


async def test_two_regulars_play_ultimate_to_its_end_in_a_thread(tmp_path: Path) -> None:
    """Dave challenges erin to ultimate in a thread: they pick small boards and cells from the
    buttons alone, and finish the game there; #games is left alone."""
    async with simulated(tmp_path) as world:
        channel = world.server.channel
        thread = world.env.backend.create_thread(channel.id, "ultimate", world.member("dave").id)
        await world.env.settle()
        players = regulars(world)
        await world.member("dave").slash(
            world.handle(thread.id), "tictactoe", opponent=world.member("erin"), variant="ultimate"
        )
        clicks = await play_out(world, players, thread.id, alice=False)
        assert clicks >= 1 + 17  # the accept, then at least 9 moves each, of two clicks or one
        assert "Ultimate" in words(newest(world, thread.id))
        bot_id = world.env.backend.bot_user.id
        in_games = world.env.backend.messages[channel.id].values()
        assert not [m for m in in_games if m.author_id == bot_id]


async def test_a_rule_added_by_hook_has_every_regular_click_join(tmp_path: Path) -> None:
    """The bot posts an announcement with a Join button; with a rule for it, each regular
    clicks it once, and the bot receives each click as an interaction in #games."""
    async with simulated(tmp_path) as world:
        clicked: list[tuple[int, str, int]] = []

        async def heard(interaction: discord.Interaction) -> None:
            data = interaction.data or {}
            assert interaction.channel is not None
            clicked.append(
                (interaction.user.id, str(data.get("custom_id")), interaction.channel.id)
            )

        world.bot.add_listener(heard, "on_interaction")
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Join", custom_id="cup:1:join"))
        games = world.bot.get_channel(world.server.channel.id)
        assert isinstance(games, discord.TextChannel)
        await games.send("A tournament starts soon.", view=view)
        await world.env.settle()
        players = regulars(world)
        assert await players.play() == 0  # no rule for it yet

        players.also_click(lambda seen: seen.label == "Join")
        await players.play()
        await world.env.advance_time(PAUSE[1] + 0.1)
        assert await players.play() == len(world.server.regulars)

        joined = sorted(user for user, custom_id, _ in clicked if custom_id == "cup:1:join")
        assert joined == sorted(member.id for member in world.server.regulars)
        assert {channel for _, _, channel in clicked} == {world.server.channel.id}


def test_a_regular_is_asked_by_the_first_name_of_the_status() -> None:
    """The title's names are not a question; the status's first name is: the player to move,
    or the member challenged."""
    board = "### Tic-tac-toe\n❌ <@1> vs ⭕ <@2>\n\n⬜⬜⬜\n\n<@2>, your move (⭕)."
    challenge = "### Tic-tac-toe\n❌ <@1> vs ⭕ <@2>\n\n<@2>, <@1> challenges you to a game!"
    assert asked(board) == 2
    assert asked(challenge) == 2
    assert asked("### Tic-tac-toe\n❌ <@1> vs ⭕ <@2>\n\n<@1> wins with a row!") == 1
    assert asked("nothing for anyone") is None


def test_the_rules_built_in_click_cells_and_accept_only_when_asked() -> None:
    """A cell, a small board and Accept are clicked by the member asked; Resign, Rematch and
    another's turn never."""

    def seen(custom_id: str, *, asked: bool = True) -> Seen:
        return Seen(2, 1, 1, custom_id, "", "", asked)

    assert CELLS(seen("ttt:5:4")) and CELLS(seen("ttt:5:80@12")) and CELLS(seen("ttt:5:pick3@0"))
    assert ACCEPT(seen("ttt:5:accept"))
    for other in ("ttt:5:resign", "ttt:5:rematch", "ttt:5:decline", "ttt:5:back@4", "cup:1:4"):
        assert not CELLS(seen(other)) and not ACCEPT(seen(other))
    assert not CELLS(seen("ttt:5:4", asked=False))
    assert not ACCEPT(seen("ttt:5:accept", asked=False))
