"""A whole Swiss tournament through the real bot process and the local Discord: created by a
member with Manage Server, joined with the announcement's buttons, started by its creator; each
round's games in threads of their own (the players added and pinged, the board drawn as any
game's), played to the end by clicks, each result counted, the next round paired when a round's
last game ends, the standings edited into the announcement, and a final message with the podium
and a link to every game's thread."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.assembly import sqlite_store
from bot.tournaments import standings
from bot.tournaments.board import standing_line
from bot.tournaments.tournament import Stage
from devkit.local_game import WAIT, LocalBot, Table, buttons, texts, until
from devkit.local_tournament import COMMAND, announcement, boards, public, threads
from devkit.localdiscord import Channel, FakeDiscord, User
from tests.bot.tournaments.tournament_support import (
    club,
    create,
    filled,
    play_out,
    press,
    settled,
    started,
    stored,
)
from tests.bot.user_install_support import NEEDS_PROCESSES

pytestmark = NEEDS_PROCESSES


async def play_round(
    bot: LocalBot, table: Table, fake: FakeDiscord, c: object, made: int, games: int
) -> None:
    """Wait for a round's `games` threads (after the `made` before it), check each, play each;
    after each game the announcement's standings are a recount of the games stored (the first
    game's result shown while the round's other game is still to be played)."""
    channel = c.games  # type: ignore[attr-defined]
    people = {u.id: u for u in c.members}  # type: ignore[attr-defined]
    await until(lambda: len(threads(fake, channel)) == made + games, f"{games} threads")
    for thread in threads(fake, channel)[made:]:
        await until(lambda t=thread: len(boards(fake, t.id)) == 1, f"the board in {thread.name}")
        (board,) = boards(fake, thread.id)
        text = texts(board)
        players = [uid for uid in people if f"<@{uid}>" in text]
        assert len(players) == 2, text
        assert set(players) <= set(thread.members), "both players are added to the thread"
        assert public(fake, thread.id) == [board]  # the board is the one message: one ping
        assert "hint" not in str(board["components"])  # no hints in a tournament game
        await play_out(table, fake.channels[thread.id], int(board["id"]), people)
        await until(lambda t=thread: t.archived, f"{thread.name} archived once over")
        await standings_shown(bot, fake, channel, list(people))
        await no_rematch(table, fake.channels[thread.id], int(board["id"]), people[players[0]])


async def standings_shown(
    bot: LocalBot, fake: FakeDiscord, channel: Channel, seeds: list[int]
) -> None:
    """Wait until the announcement's standings are, line for line, a recount from the stored
    games (`seeds`: the players, strongest seed first): ranks, scores, tiebreaks, games."""
    give_up = time.monotonic() + WAIT
    while True:
        (t,), games = await stored(bot)
        ranked = standings.swiss(seeds, [p.game for p in games[t.id]])
        want = [standing_line(t, row) for row in ranked]
        lines = texts(announcement(fake, channel)).splitlines()
        if all(line in lines for line in want):
            return
        assert time.monotonic() < give_up, (want, lines)
        await asyncio.sleep(0.05)


async def no_rematch(table: Table, thread: Channel, board: int, player: User) -> None:
    """A finished tournament game's board offers Replay and no Rematch (a rematch would open
    an ordinary challenge in an archived thread); a Rematch click on a board drawn with one
    is refused."""
    shown = [b["custom_id"].rsplit(":", 1)[-1] for b in buttons(table.message(board)["components"])]
    assert "replay" in shown and "review" in shown and "rematch" not in shown, shown
    asked = await table.click(player, thread, board, "rematch")
    assert "no rematch" in table.private(asked), table.private(asked)
    replay = await table.click(player, thread, board, "replay")
    assert replay.timing.ack_type == 5 and replay.timing.ephemeral  # the replay, drawn privately
    await until(lambda: replay.message_id is not None, "the replay of a tournament game")


async def test_a_swiss_of_four_from_create_to_podium(tmp_path: Path) -> None:
    fake = FakeDiscord()
    c = club(fake, 4)
    alice, bob = c.members[0], c.members[1]
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        made = await create(table, alice, c.games, format="swiss")
        assert "Tournament created" in table.private(made), table.private(made)
        board = announcement(fake, c.games)
        assert "Swiss tournament" in texts(board) and "0 players" in texts(board)
        for member in c.members:
            joined = await press(table, member, c.games, board, "join")
            assert "You're in" in table.private(joined)
        again = await press(table, bob, c.games, board, "join")
        assert "already" in table.private(again)
        await until(lambda: "4 players" in texts(announcement(fake, c.games)), "4 players shown")
        refused = await press(table, bob, c.games, board, "start")
        assert "Only <@" in table.private(refused)
        not_yours = await table.command(bob, c.games, f"{COMMAND} create", format="arena")
        assert "Manage Server" in table.private(not_yours)
        begun = await press(table, alice, c.games, board, "start")
        assert "has started" in table.private(begun)

        for round_ in range(3):  # 4 players: 3 rounds, two games each
            await play_round(bot, table, fake, c, 2 * round_, 2)
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        final = next(m for m in public(fake, c.games.id) if "is over" in texts(m))
        words = texts(final)
        assert all(medal in words for medal in "🥇🥈🥉")
        assert all(f"<#{t.id}>" in words for t in threads(fake, c.games))
        assert len(threads(fake, c.games)) == 6
        (t,), games = await settled(bot)
        assert t.stage is Stage.FINISHED and t.rounds == 3 and t.round == 3
        pairings = games[t.id]
        assert len(pairings) == 6 and all(p.result == 1.0 for p in pairings)  # ❌ wins each
        assert {p.thread_id for p in pairings} == {t.id for t in threads(fake, c.games)}
        met = {frozenset((p.x, p.o)) for p in pairings}
        assert len(met) == 6  # nobody met twice: each pair of the four once
        ranked = standings.swiss([m.id for m in c.members], [p.game for p in pairings])
        await standings_shown(bot, fake, c.games, [m.id for m in c.members])  # the last edit
        assert "Standings" in texts(announcement(fake, c.games))
        assert f"🥇 <@{ranked[0].player}>" in words

        # Rated as any game, and the win in the winner's stats.
        store = sqlite_store(bot.database)
        await store.open()
        try:
            for member in c.members:
                record = await store.player_stats(c.games.guild_id, member.id)
                assert record.rated_games == 3 and record.vs_people.games == 3
        finally:
            await store.close()
        champion = next(m for m in c.members if m.id == ranked[0].player)
        shown_stats = await table.command(champion, c.games, "tictactoe-stats")
        said = "\n".join(texts(fake.messages[m]) for m in shown_stats.answers)
        assert "Tournaments won: 1" in said
        runner_up = next(m for m in c.members if m.id == ranked[1].player)
        other = await table.command(runner_up, c.games, "tictactoe-stats")
        assert "Tournaments won" not in "\n".join(texts(fake.messages[m]) for m in other.answers)
    finally:
        await bot.stop()
        await fake.close()


async def test_joining_and_leaving_answers(tmp_path: Path) -> None:
    """Join twice, leave before the start (the entry goes), leave a running Swiss (never paired
    again), join a running Swiss (closed): each a clear private answer."""
    fake = FakeDiscord()
    c = club(fake, 4)
    alice, bob, carol, dave = c.members
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        await create(table, alice, c.games, format="swiss", rounds=2)
        board = announcement(fake, c.games)
        for member in (alice, bob, carol):
            await press(table, member, c.games, board, "join")
        left = await table.command(carol, c.games, f"{COMMAND} leave")
        assert "You left the tournament." in table.private(left)
        not_in = await press(table, carol, c.games, board, "leave")
        assert "not playing" in table.private(not_in)
        again = await table.command(bob, c.games, f"{COMMAND} join")
        assert "already" in table.private(again)
        await press(table, carol, c.games, board, "join")
        await table.command(alice, c.games, f"{COMMAND} start")
        await until(lambda: len(threads(fake, c.games)) == 1, "the first game's thread")
        await until(  # Leave only now (the announcement is edited at most once a second)
            lambda: "join" not in str(announcement(fake, c.games)["components"]), "no Join"
        )
        late = await table.command(dave, c.games, f"{COMMAND} join")
        assert "can't join it now" in table.private(late)
        quit_ = await press(table, carol, c.games, board, "leave")
        assert "won't be paired again" in table.private(quit_)
        standing = await table.command(dave, c.games, f"{COMMAND} standings")
        assert "Standings" in table.private(standing)

        # Round 1 ends; carol, who left, is not paired again: a game and a bye in round 2.
        people = {u.id: u for u in c.members}
        (thread,) = threads(fake, c.games)
        await until(lambda: len(boards(fake, thread.id)) == 1, "the first board")
        await play_out(
            table, fake.channels[thread.id], int(boards(fake, thread.id)[0]["id"]), people
        )
        await until(lambda: len(threads(fake, c.games)) == 2, "round 2's one game")
        (t,), games = await stored(bot)
        second = [p for p in games[t.id] if p.round == 2]
        assert len(second) == 1 and carol.id not in (second[0].x, second[0].o)
    finally:
        await bot.stop()
        await fake.close()


async def test_the_bot_without_thread_permissions_starts_nothing(tmp_path: Path) -> None:
    """A channel where the bot may not make threads: Create names the permission, and no
    tournament is stored; outside a server with the bot (a server without it, the bot's DM, a DM
    between people), each subcommand says where it works."""
    fake = FakeDiscord()
    c = club(fake, 2)
    c.games.denied = 1 << 35  # Create Public Threads
    elsewhere = fake.create_guild("elsewhere", with_bot=False)
    outside = elsewhere.create_text_channel("general")
    elsewhere.add_member(c.members[0])
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        refused = await table.command(c.members[0], c.games, f"{COMMAND} create", format="arena")
        assert "Create Public Threads" in table.private(refused)
        away = await table.command(c.members[0], outside, f"{COMMAND} create", format="arena")
        assert "servers that added me" in table.private(away)
        alice, bob = c.members
        for place in (fake.create_dm(alice, fake.bot_user), fake.create_dm(alice, bob)):
            for sub, options in (("create", {"format": "swiss"}), ("join", {}), ("standings", {})):
                said = await table.command(alice, place, f"{COMMAND} {sub}", **options)
                assert "servers that added me" in table.private(said)
        assert await stored(bot) == ([], {})
        assert not [m for m in public(fake, c.games.id)]
    finally:
        await bot.stop()
        await fake.close()


async def test_a_stop_right_after_the_podium_still_shows_the_end(tmp_path: Path) -> None:
    """The announcement's last edit (the tournament over: no button left) waits its turn after
    the last result's; a stop (Ctrl-C) that comes meanwhile makes it before the bot ends."""
    fake = FakeDiscord()
    c = club(fake, 2)
    people = {u.id: u for u in c.members}
    await fake.start()
    bot, table = await started(fake, tmp_path)
    try:
        board = await filled(table, c, format="swiss", rounds=1)
        await press(table, c.members[0], c.games, board, "start")
        await until(lambda: len(threads(fake, c.games)) == 1, "the game's thread")
        (thread,) = threads(fake, c.games)
        await until(lambda: len(boards(fake, thread.id)) == 1, "its board")
        await play_out(
            table, fake.channels[thread.id], int(boards(fake, thread.id)[0]["id"]), people
        )
        await until(
            lambda: any("is over" in texts(m) for m in public(fake, c.games.id)), "the podium"
        )
        await bot.stop()
        shown = announcement(fake, c.games)
        assert list(buttons(shown["components"])) == [], shown  # over: no Join, Leave or Start
        assert "**1**" in texts(shown)  # the winner's point
    finally:
        await bot.stop()
        await fake.close()
