"""/tictactoe-history through the real bot and a simulated Discord: a player's games listed as
played (result, opponent, moves, date), privately, paged; a game opened from the menu answered
privately with its final picture and its replay, decoded and checked against the stored game,
their alt texts the position in words; a game with no moves, a game of another place, a bot."""

from __future__ import annotations

import io
import re

import discord
from PIL import Image
from simcord import Env

from bot.client import TicTacToeBot
from bot.games.record import Ending, GameRecord, Status
from bot.history import board as history
from bot.history.store import HistoryStore
from bot.pictures.words import alt_text, replay_alt
from devkit.simcord_board import board_message, guild_with, people_game, resign
from tests.bot import picture_support
from tests.support.forge import forged_click

DATE = re.compile(r"<t:\d+:d>")


def store(env: Env):
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    return bot.store


async def finish(
    env: Env,
    guild_id: int | None,
    x: int,
    o: int,
    moves: tuple[int, ...],
    winner: str | None,
    **changes: object,
) -> GameRecord:
    """A finished game saved through the bot's own store, as the game flow saves it."""
    changes.setdefault("ending", Ending.WIN if winner else Ending.DRAW)
    game = GameRecord(
        id=await store(env).next_game_id(),
        guild_id=guild_id,
        channel_id=5,
        x_id=x,
        o_id=o,
        challenger_id=x,
        moves=moves,
        status=Status.FINISHED,
        winner=winner,
        **changes,
    )  # type: ignore[arg-type]
    await store(env).save_game(game)
    return game


def attachment(env: Env, item: discord.Attachment) -> bytes:
    data = env.backend.cdn.get(item.url)
    assert data is not None
    return data


async def test_a_played_game_is_listed_and_opens_as_picture_and_replay(simcord_env: Env) -> None:
    """Alice resigns against Bob after three moves: her history lists the game as lost by
    resignation against Bob, with its moves and date; opened, it is a PNG of the final board and
    a GIF of one frame a move, both checked against the stored game, with their alt texts."""
    picture_support.needs_font()
    channel, alice, bob, _, message = await people_game(simcord_env)
    for player, label in ((alice, "A1"), (bob, "B2"), (alice, "C3")):
        await player.click(board_message(channel), label=label)
    await resign(bob, message)
    listed = await alice.slash(channel, "tictactoe-history")
    assert listed.ephemeral
    lines = listed.response.content.splitlines()
    assert f"Recent games of {alice.mention}" in lines[0] and len(lines) == 2
    assert lines[1].startswith(f"1. Won (by resignation) against {bob.mention}")
    assert "3 moves" in lines[1] and DATE.search(lines[1])
    [stored] = await HistoryStore(store(simcord_env)).player_games(channel.guild.id, alice.id)
    opened = await alice.select(listed.response.message, [str(stored.id)])
    assert opened.ephemeral
    shown = opened.response  # the deferred response, filled by the first follow-up
    assert shown.ephemeral and f"#{stored.id}" in shown.content
    png, gif = shown.attachments
    assert png.filename.endswith(".png") and gif.filename.endswith(".gif")
    assert png.description == alt_text(stored, "en-US")
    assert gif.description == replay_alt(stored, "en-US")
    assert "Last move: ❌ on C3." in png.description
    picture_support.check(picture_support.decode(attachment(simcord_env, png)), stored)
    replay = Image.open(io.BytesIO(attachment(simcord_env, gif)))
    assert replay.format == "GIF" and replay.n_frames == len(stored.moves) + 1


async def test_the_list_matches_the_games_and_pages(simcord_env: Env) -> None:
    """Twelve games: ten on the first page, newest first, each line the game's result, opponent
    and moves; Older shows the last two, Newer goes back; another player's games are not there."""
    guild, channel, (ann, bob, cy) = guild_with(simcord_env, "ann", "bob", "cy")
    me = simcord_env.bot.user.id
    made = []
    for n in range(12):
        if n % 3 == 2:  # against the bot, Hard, which wins
            made.append(
                await finish(
                    simcord_env,
                    guild.id,
                    ann.id,
                    me,
                    (0, 4, 1, 2, 6, 3, 5, 8),
                    None,
                    ai_side="O",
                    ai_level="hard",
                )
            )
        else:
            made.append(
                await finish(
                    simcord_env, guild.id, ann.id, bob.id, (0, 3, 1, 4, 2), "X" if n % 2 else "O"
                )
            )
    await finish(simcord_env, guild.id, cy.id, bob.id, (0, 3, 1, 4, 2), "X")
    listed = await bob.slash(channel, "tictactoe-history", player=ann)
    lines = listed.response.content.splitlines()[1:]
    newest = list(reversed(made))
    assert len(lines) == history.PAGE
    for number, (line, game) in enumerate(zip(lines, newest, strict=False), 1):
        won = "Won" if game.winner == "X" else "Draw" if game.winner is None else "Lost"
        against = f"<@{me}> (bot, hard)" if game.ai_side else bob.mention
        moves = f"{len(game.moves)} moves"
        assert line.startswith(f"{number}. {won} against {against} · Classic · {moves} · ")
    older = await bob.click(listed.response.message, label="Older")
    assert not older.followups
    text = older.response.content if older.response else ""
    page = [line for line in text.splitlines() if line[:1].isdigit()]
    assert [line.split(".")[0] for line in page] == ["11", "12"]
    assert f"{newest[10].moves.__len__()} moves" in page[0]
    newer = await bob.click(older.response.message, label="Newer")
    assert len(newer.response.content.splitlines()) == history.PAGE + 1


async def test_a_game_without_moves_says_so_privately(simcord_env: Env) -> None:
    """A game resigned before any move: opening it is one private line."""
    guild, channel, (ann, bob) = guild_with(simcord_env, "ann", "bob")
    game = await finish(simcord_env, guild.id, ann.id, bob.id, (), "O", ending=Ending.RESIGN)
    listed = await ann.slash(channel, "tictactoe-history")
    assert "0 moves" in listed.response.content
    opened = await ann.select(listed.response.message, [str(game.id)])
    assert opened.ephemeral and "no moves stored" in opened.response.content
    assert not opened.response.attachments


async def test_nothing_yet_and_bots(simcord_env: Env) -> None:
    """A player with no games is told so; a bot has no history."""
    guild, channel, (ann,) = guild_with(simcord_env, "ann")
    empty = await ann.slash(channel, "tictactoe-history")
    assert empty.ephemeral and "has no finished games" in empty.response.content
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    refused = await ann.slash(channel, "tictactoe-history", player=robot)
    assert refused.ephemeral and "is a bot" in refused.response.content


async def test_direct_messages_show_only_games_played_together(simcord_env: Env) -> None:
    """Outside servers, someone else's history shows only the games the asker played in."""
    ann, bob, cy = (simcord_env.create_user(name) for name in ("ann", "bob", "cy"))
    together = await finish(simcord_env, None, ann.id, bob.id, (0, 3, 1, 4, 2), "X")
    await finish(simcord_env, None, ann.id, cy.id, (0, 3, 1, 4, 2), "O")
    listed = await bob.slash("tictactoe-history", player=ann)
    lines = listed.response.content.splitlines()
    assert "in direct messages" in lines[0] and len(lines) == 2
    assert bob.mention in lines[1] and cy.mention not in lines[1]
    opened = await bob.select(listed.response.message, [str(together.id)])
    assert len(opened.response.attachments) == 2


async def test_an_ultimate_game_by_variant_opens_as_its_picture(simcord_env: Env) -> None:
    """variant ultimate lists only ultimate games; a won one opens as its board (the small
    boards, the winning line) and a replay of a frame a move."""
    picture_support.needs_font()
    guild, channel, (ann, bob) = guild_with(simcord_env, "ann", "bob")
    shape = picture_support.won("ultimate", 9, 3, least=30)
    await finish(simcord_env, guild.id, ann.id, bob.id, (0, 3, 1, 4, 2), "X")
    ultimate = await finish(
        simcord_env,
        guild.id,
        ann.id,
        bob.id,
        shape.moves,
        shape.winner,
        kind="ultimate",
        size=9,
        k=3,
    )
    listed = await ann.slash(channel, "tictactoe-history", variant="ultimate")
    lines = listed.response.content.splitlines()
    assert len(lines) == 2 and f"· Ultimate · {len(shape.moves)} moves ·" in lines[1]
    opened = await ann.select(listed.response.message, [str(ultimate.id)])
    png, gif = opened.response.attachments
    assert "won the small boards" in (png.description or "")
    picture_support.check(picture_support.decode(attachment(simcord_env, png)), ultimate)
    assert Image.open(io.BytesIO(attachment(simcord_env, gif))).n_frames == len(shape.moves) + 1


async def test_forged_history_ids_get_one_private_line(simcord_env: Env) -> None:
    """A page id past Discord's ids, or one of no shape the history knows: a private line."""
    guild, channel, (ann, bob) = guild_with(simcord_env, "ann", "bob")
    await finish(simcord_env, guild.id, ann.id, bob.id, (0, 3, 1, 4, 2), "X")
    listed = await ann.slash(channel, "tictactoe-history")
    for forged in ("tth:p:99999999999999999999:-:0", "tth:p:9223372036854775808:-:0", "tth:x"):
        answered = await forged_click(
            simcord_env, ann, listed.response.message, forged, channel=channel
        )
        assert answered.ephemeral and "can't find that game" in answered.response.content
