"""A tournament in the playground's world, on the simulated clock: alice creates a Swiss in #games
and joins it, the regulars fill it to five players, alice presses Start; each game is played in
its own thread (alice's moves made by the test, the regulars' by themselves) until the standings
are final and the podium is posted."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import discord
import pytest

from bot.playground.channels import threads_under
from bot.playground.regulars import Regulars, asked, buttons, words
from bot.playground.tournaments import FIELD, join_tournaments, players
from bot.tournaments import board as tournament_board
from devkit.playground.tournament import announcement, created, podium, press
from devkit.playground.world import World, simulated
from tests.playground.test_regulars import ENDED, alice_moves, newest

TICKS = 900  # simulated seconds a whole Swiss of five may take, at most (about 150 here)
THREAD_NAME = re.compile(r"R(?P<round>[0-9]+)\.(?P<board>[0-9]+) · (?P<x>\w+) vs (?P<o>\w+)")


def regulars(world: World) -> Regulars:
    """The regulars as the playground has them: they play, and fill tournaments."""
    playing = Regulars(
        world.env, world.server.regulars, world.server.channel.id, rng=random.Random(7)
    )
    join_tournaments(playing)
    return playing


async def joined(world: World, playing: Regulars, field: int) -> set[int]:
    """Tick until the announcement lists `field` players (then a minute more: nobody else
    comes); the players listed."""
    for _ in range(120):
        if len(players(words(announcement(world)))) >= field:
            break
        await playing.play()
        await world.env.advance_time(1.0)
    for _ in range(60):
        await playing.play()
        await world.env.advance_time(1.0)
    return players(words(announcement(world)))


async def alice_plays_her_boards(world: World) -> None:
    """Alice moves on every board in a thread that asks her."""
    alice = world.member("alice").id
    for thread_id in threads_under(world.env.backend, world.server.channel.id):
        if world.env.backend.messages.get(thread_id):
            board = newest(world, thread_id)
            if asked(words(board)) == alice:
                await alice_moves(world, board)


async def test_the_bot_may_run_tournaments_in_the_playground(tmp_path: Path) -> None:
    """The bot's permissions in #games are those a tournament needs, Manage Threads too, and
    Create says nothing is missing: the announcement is posted with its buttons."""
    async with simulated(tmp_path) as world:
        games = world.bot.get_channel(world.server.channel.id)
        assert isinstance(games, discord.TextChannel)
        have = games.permissions_for(games.guild.me)
        assert have.create_public_threads and have.send_messages_in_threads
        assert have.manage_threads and have.send_messages and have.read_message_history
        await created(world)
        labels = [label for _, label in buttons(announcement(world))]
        assert labels == ["Join", "Leave", "Start"]


async def test_the_regulars_fill_a_tournament_to_five_and_no_further(tmp_path: Path) -> None:
    """Alice and bob join: three regulars join, the first three, and the fourth stays out;
    carol may still join, making six."""
    async with simulated(tmp_path) as world:
        playing = regulars(world)
        await created(world)
        await press(world, "alice", "join")
        await press(world, "bob", "join")
        listed = await joined(world, playing, FIELD)
        ids = {name: world.member(name).id for name in ("alice", "bob", "dave", "erin", "frank")}
        assert listed == set(ids.values())
        assert world.member("grace").id not in listed
        await press(world, "carol", "join")
        assert len(await joined(world, playing, FIELD + 1)) == FIELD + 1


async def test_a_swiss_of_five_runs_in_threads_to_its_podium(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice and the four regulars: every round's games in threads named for the round and the
    players, who are the thread's members; each game played to its end (none lost on time),
    each thread archived and linked from the podium; the standings rank all five; nothing
    logged."""
    caplog.set_level(logging.WARNING)
    async with simulated(tmp_path) as world:
        backend, channel = world.env.backend, world.server.channel
        playing = regulars(world)
        await created(world)
        await press(world, "alice", "join")
        field = await joined(world, playing, FIELD)
        names = {
            world.member(name).id: name for name in ("alice", "dave", "erin", "frank", "grace")
        }
        assert field == set(names)
        await press(world, "alice", "start")
        for _ in range(TICKS):
            if podium(world) is not None:
                break
            await alice_plays_her_boards(world)
            await playing.play()
            await world.env.advance_time(1.0)
        final = podium(world)
        assert final is not None, words(announcement(world))
        await world.env.advance_time(1.5)  # the announcement's last edit (one a second at most)

        threads = [backend.channels[i] for i in threads_under(backend, channel.id)]
        rounds = {int(THREAD_NAME.fullmatch(t.name)["round"]) for t in threads}  # type: ignore[index]
        assert rounds == set(range(1, max(rounds) + 1)) and max(rounds) >= 3
        assert len(threads) == 2 * len(rounds)  # two games a round, and a bye
        for thread in threads:
            named = THREAD_NAME.fullmatch(thread.name)
            assert named is not None
            pair = {named["x"], named["o"]}
            assert pair <= set(names.values()) and len(pair) == 2
            assert {world.member(name).id for name in pair} <= set(thread.thread_members)
            board = newest(world, thread.id)
            assert any(end in words(board) for end in ENDED), words(board)
            assert thread.thread_metadata.archived
            assert f"<#{thread.id}>" in words(final)
            refused = [m for m in backend.messages[thread.id].values() if m.is_ephemeral]
            assert refused == []  # no click out of turn, nobody's move refused
        assert sum("alice" in t.name for t in threads) >= len(rounds) - 1  # one bye at most

        medals = re.findall(r"(🥇|🥈|🥉) <@([0-9]+)>", words(final))
        assert [medal for medal, _ in medals] == ["🥇", "🥈", "🥉"]
        assert {int(who) for _, who in medals} <= set(names) and len(set(medals)) == 3
        table = words(announcement(world))
        ranked = re.findall(r"^([1-5])\. <@([0-9]+)>", table, re.MULTILINE)
        assert {int(who) for _, who in ranked} == set(names)
        assert [int(who) for _, who in ranked[:3]] == [int(who) for _, who in medals]
        assert not any(tournament_board.parse_id(cid) for cid, _ in buttons(announcement(world)))
        assert not world.env.errors_since(0)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_tournament_given_a_start_time_starts_then_with_the_field_filled(
    tmp_path: Path,
) -> None:
    """Created to start in two minutes on the playground's clock: the regulars have filled the
    field by then, nobody presses Start, and at that time the first round's threads are made."""
    async with simulated(tmp_path) as world:
        playing = regulars(world)
        at = int(world.env.now().timestamp()) + 120
        await world.member("alice").slash(
            world.server.channel, "tictactoe-tournament create", format="swiss", start=f"<t:{at}>"
        )
        await world.env.settle()
        await press(world, "alice", "join")
        assert len(await joined(world, playing, FIELD)) == FIELD  # within 2 minutes
        backend, channel = world.env.backend, world.server.channel
        assert threads_under(backend, channel.id) == []
        while world.env.now().timestamp() < at + 2:
            await playing.play()
            await world.env.advance_time(1.0)
        assert "Round 1 of" in words(announcement(world))
        named = [backend.channels[i].name for i in threads_under(backend, channel.id)]
        assert len(named) == 2 and all(name.startswith("R1.") for name in named)


async def test_an_arena_is_joined_once_by_each_regular_and_played_to_its_end(
    tmp_path: Path,
) -> None:
    """An arena of three minutes keeps its Join button while it runs: the four regulars join it
    once each (no second click on the edited standings), play game after game in their threads,
    and the podium is posted at its end."""
    async with simulated(tmp_path) as world:
        playing = regulars(world)
        await world.member("alice").slash(
            world.server.channel, "tictactoe-tournament create", format="arena", minutes=3
        )
        await world.env.settle()
        assert len(await joined(world, playing, len(world.server.regulars))) == 4
        await press(world, "alice", "start")
        for _ in range(TICKS):
            if podium(world) is not None:
                break
            await playing.play()
            await world.env.advance_time(1.0)
        assert podium(world) is not None
        answers = [
            words(m)
            for m in world.env.backend.messages[world.server.channel.id].values()
            if m.is_ephemeral
        ]
        assert sum(answer.startswith("You're in. ") for answer in answers) == 4
        assert not [answer for answer in answers if "already" in answer]
        threads = threads_under(world.env.backend, world.server.channel.id)
        assert len(threads) > 2 * 2  # more than one game each of two pairs


def test_the_players_of_an_announcement_are_its_line_of_mentions() -> None:
    """The creator named in "Starts when … presses Start" is not a player; the line of
    mentions alone lists them."""
    text = "🏆 **Swiss**\nStarts when <@1> presses Start.\n2 players\n<@2> <@3>"
    assert players(text) == {2, 3}
    assert players("🏆 **Swiss**\nStarts when <@1> presses Start.\n0 players") == set()
    running = "🏆 **Arena**\nEnds <t:1:R>.\n\n**Standings**\n1. <@3> **4** 🔥 · 2\n2. <@2> **0**"
    assert players(running) == {2, 3}
