"""The floor: the least a discord.py bot can do for the load benchmark's traffic.

    python benchmarks/floors/game_bot.py PORT FOLDER [-v] [--plain] [--durable] [--picture]
                                         [--gc A,B,C]

The same `/tictactoe` command with the same options, the same board shape (a Components V2
layout: a text display, one action row of buttons per board row, a row of controls, custom ids
``ttt:<game>:<cell|action>``), one ``edit_message`` per click, and nothing else: games live in a
dict, no storage, no engine (the bot's side plays the first free cell in the same edit), no
DynamicItem, no checks beyond whose turn it is. Run by the benchmark exactly as the project's bot
(``wire/bot_process.py``: same address changes, same stdin commands), so the two can be compared on
the same workload; what the project's bot spends above this is its own cost. With ``variant:
ultimate`` the game is ultimate tic-tac-toe (`games`), its board always as plain data, and the bot's
side plays the engine's move as the bot does (`ultimate_engine`: ultimate's engine searches every
move, so a floor without it would compare a search with none).

The board is built with `discord.ui` objects, as a plain discord.py bot builds it; ``--plain``
builds it as plain component data instead (a view that hands discord.py the dicts), the least
a discord.py bot can do, and what the project's bot does. ``--durable`` is the plain floor
plus one durable save of each change before its response (a game's row in a SQLite file in
FOLDER, as the bot's store sets it up: `store`), so the price of durability is a figure
of its own. ``--picture`` is the plain floor with the board's picture above its buttons, as the
bot's picture boards show it: the same PNG bytes (drawn by ``bot.pictures`` once a position and
kept, on the loop: the least a bot can do) and alt text, uploaded with each answer and edit
in a media gallery.

Every floor runs with the bot's collector settings (its start-up heap frozen once ready, the
same thresholds, or ``--gc``'s as the bot's), so what is compared is the code, not the
collector: with Python's own thresholds a floor spent half its CPU in collections in 500-game
bursts (docs/figures.md, "Against the floor").
"""

from __future__ import annotations

import gc
import io
import itertools
import sys
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.games import MARKS, FloorGame, UltimateGame, ultimate_components
from benchmarks.floors.store import DurableMoves
from benchmarks.floors.ultimate_engine import FloorEngine
from devkit.wire import bot_process


class Layout(discord.ui.LayoutView):
    def is_finished(self) -> bool:
        return True  # clicks are routed by custom id, so discord.py keeps no view


def text(game: FloorGame) -> str:
    """The board's text: its players and the emoji grid."""
    grid = "\n".join(
        "".join(
            MARKS[c] if c is not None else "⬜" for c in game.cells[r * game.size :][: game.size]
        )
        for r in range(game.size)
    )
    return f"Tic-tac-toe <@{game.players[0]}> vs <@{game.players[1]}>\n{grid}"


def actions(game: FloorGame) -> tuple[str, ...]:
    """The controls under the board."""
    return ("accept", "decline") if game.challenge else ("rematch",) if game.over else ("resign",)


def layout(game: FloorGame) -> Layout:
    view = Layout(timeout=None)
    view.add_item(discord.ui.TextDisplay(text(game)))
    if not game.challenge:
        for r in range(game.size):
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            for c in range(game.size):
                cell = r * game.size + c
                mark = game.cells[cell]
                row.add_item(
                    discord.ui.Button(
                        custom_id=f"ttt:{game.id}:{cell}",
                        label=None if mark is not None else "\u200b",
                        emoji=MARKS[mark] if mark is not None else None,
                        disabled=mark is not None or game.over,
                    )
                )
            view.add_item(row)
    view.add_item(
        discord.ui.ActionRow(
            *(
                discord.ui.Button(custom_id=f"ttt:{game.id}:{a}", label=a.title())
                for a in actions(game)
            )
        )
    )
    return view


class PlainLayout(discord.ui.LayoutView):
    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._plain = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._plain

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True


def plain_layout(game: FloorGame) -> PlainLayout:
    """The same board as `layout`, as the component dicts Discord receives."""
    components: list[dict[str, Any]] = [{"type": 10, "content": text(game)}]
    if not game.challenge:
        for r in range(game.size):
            row = []
            for c in range(game.size):
                cell = r * game.size + c
                mark = game.cells[cell]
                button: dict[str, Any] = {
                    "type": 2,
                    "style": 2,
                    "custom_id": f"ttt:{game.id}:{cell}",
                    "disabled": mark is not None or game.over,
                }
                if mark is None:
                    button["label"] = "\u200b"
                else:
                    button["emoji"] = {"id": None, "name": MARKS[mark]}
                row.append(button)
            components.append({"type": 1, "components": row})
    components.append(
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "custom_id": f"ttt:{game.id}:{a}", "label": a.title()}
                for a in actions(game)
            ],
        }
    )
    return PlainLayout(components)


DURABLE = "--durable" in sys.argv
PICTURE = "--picture" in sys.argv
BOARD = plain_layout if "--plain" in sys.argv or DURABLE or PICTURE else layout
_pictures: dict[tuple[int, int, tuple[int, ...], bool], tuple[bytes, str]] = {}


def picture(game: FloorGame) -> tuple[bytes, str]:
    """The board's picture and alt text, drawn once a position (with --picture)."""
    from bot.games.record import GameRecord, Status
    from bot.pictures import alt_text, board_png

    key = (game.size, game.k, tuple(game.moves), game.over)
    found = _pictures.get(key)
    if found is None:
        record = GameRecord(
            id=game.id,
            guild_id=None,
            channel_id=game.channel_id,
            x_id=game.players[0],
            o_id=game.players[1],
            challenger_id=game.challenger,
            size=game.size,
            k=game.k,
            moves=key[2],
            status=Status.FINISHED if game.over else Status.ACTIVE,
        )
        found = _pictures[key] = (board_png(record), alt_text(record, None))
    return found


def answer(game: FloorGame, *, new: bool = False) -> dict[str, Any]:
    """The keywords of the game's message: its board, and with --picture its picture."""
    view = board(game)
    if not PICTURE or game.challenge or isinstance(game, UltimateGame):
        return {"view": view}
    data, alt = picture(game)
    assert isinstance(view, PlainLayout)
    gallery = {
        "type": 12,
        "items": [{"media": {"url": "attachment://board.png"}, "description": alt}],
    }
    view._plain.insert(1, gallery)
    upload = discord.File(io.BytesIO(data), filename="board.png", description=alt)
    return {"view": view, "files" if new else "attachments": [upload]}


def board(game: FloorGame) -> discord.ui.LayoutView:
    """The game's message: ultimate's as plain data whatever the floor, else the floor's."""
    if isinstance(game, UltimateGame):
        return PlainLayout(ultimate_components(game))
    return BOARD(game)


class FloorBot(discord.Client):
    def __init__(self, folder: Path) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.games: dict[int, FloorGame] = {}
        self.ids = itertools.count(1)
        self.tree.command(name="tictactoe")(self.tictactoe)
        self.durable = DurableMoves(folder / "floor.db") if DURABLE else None
        self.engine = FloorEngine()

    async def setup_hook(self) -> None:
        if self.durable is not None:
            await self.durable.open()
        await self.tree.sync()

    async def on_ready(self) -> None:
        gc.collect()  # as the bot's own start does (`bot.client`), with the same thresholds
        gc.freeze()
        gc.set_threshold(*bot_process.collector())

    async def save(self, game: FloorGame) -> None:
        """One durable save of the game as it now is (with --durable)."""
        if self.durable is None:
            return
        status = "finished" if game.over else "challenge" if game.challenge else "active"
        moves = ",".join(map(str, game.moves))
        x, o = game.players
        row = (game.id, game.channel_id, x, o, game.challenger, game.size, game.k, moves)
        await self.durable.save(row, status)

    async def tictactoe(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        difficulty: str | None = None,
        first: str = "me",
        size: int = 3,
        win_length: int | None = None,
        variant: str | None = None,
    ) -> None:
        """Play tic-tac-toe."""
        assert self.user is not None
        me, bot_id = interaction.user.id, self.user.id
        bot_first = opponent is None and first == "opponent"
        players = (bot_id, me) if bot_first else (me, opponent.id if opponent else bot_id)
        ultimate = variant == "ultimate"  # nine 3x3 boards, stored as size 9, k 3
        size, win_length = (9, 3) if ultimate else (size, win_length)
        game = (UltimateGame if ultimate else FloorGame)(
            id=next(self.ids),
            size=size,
            k=win_length or (3 if size == 3 else 4),
            players=players,
            bot_side=None if opponent else (0 if bot_first else 1),
            challenge=opponent is not None,
            channel_id=interaction.channel_id or 0,
            challenger=me,
            cells=[None] * (size * size),
        )
        game.difficulty = difficulty
        await self.bot_moves(game)
        self.games[game.id] = game
        await self.save(game)
        await interaction.response.send_message(**answer(game, new=True))

    async def bot_moves(self, game: FloorGame) -> None:
        """The bot's side: the engine's move in ultimate, else the first free cell."""
        if not isinstance(game, UltimateGame):
            game.bot_moves()
            return
        while not game.over and not game.challenge and game.turn() == game.bot_side:
            game.play(await self.engine.move(game.moves, game.difficulty))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        _, game_id, what = str((interaction.data or {}).get("custom_id", "")).split(":")
        what, _, ply = what.partition("@")  # ultimate's buttons carry their ply
        game = self.games.get(int(game_id))
        user = interaction.user.id
        if game is None or game.over or user not in game.players:
            await interaction.response.send_message("Not yours.", ephemeral=True)
            return
        if ply and (int(ply) != len(game.moves) or game.players[game.turn()] != user):
            await interaction.response.send_message("Not your turn.", ephemeral=True)
            return
        if what == "accept" or what == "decline":
            game.challenge, game.over = False, what == "decline"
        elif what == "resign":
            game.over = True
        elif what.isdigit():
            if game.players[game.turn()] != user or not game.can_play(int(what)):
                await interaction.response.send_message("Not your turn.", ephemeral=True)
                return
            game.play(int(what))
            await self.bot_moves(game)
        elif isinstance(game, UltimateGame):  # pick<board> or back
            game.picked = int(what[4:]) if what.startswith("pick") else None
        await self.save(game)
        await interaction.response.edit_message(**answer(game))


if __name__ == "__main__":
    bot_process.main(FloorBot)
