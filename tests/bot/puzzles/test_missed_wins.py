"""Missed wins on Discord: a finished big-board game leaves its server the puzzles it missed."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from typing import Any

import pytest
from simcord import Env

from bot.compute import jobs
from bot.config import Settings
from bot.games.record import Ending, GameRecord, Status
from bot.puzzles.missed import worth_searching
from bot.puzzles.store import PuzzleStore
from bot.storage.base import Store
from devkit.simcord_board import board_message, guild_with, resign, text
from engine import Board
from engine.puzzles import Puzzle, missed_wins, prove, puzzles
from engine.puzzles.proof import wins_within


def _a_miss() -> tuple[Puzzle, list[int]]:
    """A shipped 4x4 puzzle with X to move, and a game's moves reaching it and then missing it."""
    p = next(p for p in puzzles() if p.board.size == 4 and p.board.k == 3 and p.board.turn == "X")
    xs = [c for c in range(16) if p.board.cell(c) == "X"]
    os_ = [c for c in range(16) if p.board.cell(c) == "O"]
    moves = [c for pair in zip(xs, os_, strict=True) for c in pair]
    board = Board.from_moves(moves, 4, 3)
    wrong = next(c for c in board.legal_moves() if not wins_within(board, c, p.moves))
    return p, [*moves, wrong]


async def _found(store: Store, guild_id: int, want: int) -> list[Puzzle]:
    """The server's puzzles once `want` of them are there (the search runs in the background)."""
    puzzles = PuzzleStore(store)
    for _ in range(200):
        kept = await puzzles.server_puzzles(guild_id)
        if len(kept) >= want:
            return kept
        await asyncio.sleep(0.05)
    return await puzzles.server_puzzles(guild_id)


async def _play_then_resign(env: Env, moves: list[int]) -> tuple[Any, Any]:
    """Alice (X) and Bob (O) play `moves` on 4x4 with 3 in a row, then the player to move
    resigns; the guild and the channel."""
    guild, channel, (alice, bob) = guild_with(env, "alice", "bob")
    await alice.slash(channel, "tictactoe", opponent=bob, size=4, win_length=3)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    players = [alice, bob]
    for i, cell in enumerate(moves):
        result = await players[i % 2].click(message, custom_id=f"ttt:1:{cell}")
        assert result.acknowledged and not result.ephemeral
    await resign(players[len(moves) % 2], message)
    return guild, channel


async def test_a_missed_win_becomes_a_puzzle_of_the_server(simcord_env: Env) -> None:
    """Alice lets a forced win go, then the game ends: the server keeps exactly the puzzles the
    engine finds in that game, each proven, the shipped puzzle's position among them."""
    shipped, moves = _a_miss()
    guild, _ = await _play_then_resign(simcord_env, moves)
    expected = missed_wins(4, 3, moves)
    assert any(p.board == shipped.board for p in expected)
    kept = await _found(simcord_env.bot.store, guild.id, len(expected))
    assert kept == expected
    assert all(prove(p) for p in kept)
    game = await simcord_env.bot.store.load_game(1)
    assert game is not None and game.ending is Ending.RESIGN


async def test_the_missed_win_is_served_in_that_server(simcord_env: Env) -> None:
    """After the game, /tictactoe-puzzle from the server's games offers one of its missed wins,
    the shipped puzzle's position among them."""
    shipped, moves = _a_miss()
    guild, channel = await _play_then_resign(simcord_env, moves)
    expected = missed_wins(4, 3, moves)
    kept = await _found(simcord_env.bot.store, guild.id, len(expected))
    assert any(p.board == shipped.board and p.id.startswith("m43-") for p in kept)
    carol = guild.add_member(simcord_env.create_user("carol"))
    result = await carol.slash(channel, "tictactoe-puzzle", puzzle="server")
    assert result.acknowledged
    title = text(simcord_env, board_message(channel)).split("\n")[0]
    assert any(f"Puzzle {p.id} " in title for p in kept)


async def test_a_store_that_fails_costs_the_puzzles_not_the_game(
    simcord_env: Env, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """The database is locked when the puzzles are to be kept: a debug line beside the store's
    one outage line, no traceback, and the game stays finished as it was."""
    _, moves = _a_miss()
    runner = simcord_env.bot.engine
    real_call = runner.call
    held: list[sqlite3.Connection] = []

    async def call(search: bool, fn: Any, *args: Any, later: bool = False) -> Any:
        found = await real_call(search, fn, *args, later=later)
        if fn is jobs.missed_wins:  # another process takes the database now
            other = sqlite3.connect(settings.database_path, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
            held.append(other)
        return found

    runner.call = call
    caplog.set_level(logging.DEBUG, logger="bot.puzzles.missed")
    try:
        guild, _ = await _play_then_resign(simcord_env, moves)
        for _ in range(200):
            if any("could not keep puzzle" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.05)
    finally:
        runner.call = real_call
        for other in held:
            other.execute("ROLLBACK")
            other.close()
    lines = [r for r in caplog.records if "could not keep puzzle" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.DEBUG and lines[0].exc_info is None
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in loud] == ["bot.storage.base"]  # the store's one outage line
    assert loud[0].exc_info is None and "\n" not in loud[0].getMessage()
    assert await PuzzleStore(simcord_env.bot.store).server_puzzles(guild.id) == []
    game = await simcord_env.bot.store.load_game(1)
    assert game is not None and game.status is Status.FINISHED and game.ending is Ending.RESIGN


def test_only_played_big_classic_games_in_a_server_are_searched() -> None:
    """3x3, ultimate, direct messages, games shown only through interactions and games that
    were never played (a declined challenge) leave no puzzles."""
    base = GameRecord(
        id=1,
        guild_id=5,
        channel_id=6,
        x_id=7,
        o_id=8,
        challenger_id=7,
        size=4,
        k=3,
        status=Status.FINISHED,
        ending=Ending.WIN,
        winner="X",
    )
    assert worth_searching(base)
    for other in (
        {"size": 3},
        {"kind": "ultimate", "size": 9},
        {"guild_id": None},
        {"interactions_only": True},
        {"ending": Ending.DECLINED, "winner": None},
    ):
        assert not worth_searching(GameRecord(**{**_fields(base), **other}))


def _fields(game: GameRecord) -> dict[str, Any]:
    return {name: getattr(game, name) for name in game.__dataclass_fields__}
