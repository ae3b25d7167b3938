"""The tournament floor: the least a discord.py bot can do for `tournament_swiss.py`'s traffic.

    python benchmarks/floors/tournament_bot.py PORT FOLDER [-v]

The same Discord calls as the project's bot makes for each game of a Swiss, and nothing else:
at the start of each round every game its own thread (made without a message, its two players
added, the board posted in it: `game_bot.plain_layout`, the games floor's board as plain data),
each click one ``edit_message``; a game's end archives its thread and edits the announcement's
standings (score, games played; 30 lines at most, as the bot's); after the last round a final
message with the podium and the threads (as many as fit in a message, as the bot's). Before the
start it does less than the bot: ``/tictactoe-tournament create`` is answered with the
announcement itself (its Join and Start buttons, the count of players), and each Join and the
Start with an edit of it (the bot answers each privately and edits the announcement apart).
Pairing is the least that keeps Swiss's first rule: players by score, each with the next one
they have not met (else the next one), the one who played ❌ less often as ❌; no bye (the
benchmark's fields are even), the rounds asked for. Everything lives in dicts: no storage, no
checks beyond whose turn it is, no tiebreaks, no clock, no translation. Run by the benchmark
exactly as the project's bot (``wire/bot_process.py``), with the bot's collector settings, so
that what the project's bot spends above it is its own cost. ``--durable`` adds what a bot that
keeps its games across a crash cannot do without, as ``game_bot.py --durable`` does: one durable
save of each game's row (`store.DurableMoves`: a SQLite file on a thread of its own) when its
thread is made and after each move, before the board shows it.

    python benchmarks/floors/tournament_bot.py PORT FOLDER [-v] [--durable]
"""

from __future__ import annotations

import gc
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.floors.game_bot import PlainLayout, plain_layout
from benchmarks.floors.games import FloorGame
from benchmarks.floors.store import DurableMoves
from devkit.wire import bot_process

PUBLIC_THREAD = 11
SHOWN, TEXT_LIMIT = 30, 3900  # the bot's limits: lines of standings, characters of a message


@dataclass
class Swiss:
    """One tournament: its players (by join order), their scores, who met whom, the round."""

    channel_id: int
    rounds: int
    message_id: int = 0
    names: dict[int, str] = field(default_factory=dict)
    score: dict[int, float] = field(default_factory=dict)
    played: dict[int, int] = field(default_factory=dict)
    crosses: dict[int, int] = field(default_factory=dict)  # games played as ❌
    met: set[frozenset[int]] = field(default_factory=set)
    round: int = 0
    live: set[int] = field(default_factory=set)  # the round's games still being played
    threads: list[int] = field(default_factory=list)

    def pairs(self) -> list[tuple[int, int]]:
        """The next round's pairs (❌ first)."""
        left = sorted(self.names, key=lambda p: -self.score[p])
        pairs = []
        while len(left) > 1:
            first = left.pop(0)
            other = next((p for p in left if frozenset((first, p)) not in self.met), left[0])
            left.remove(other)
            x, o = sorted((first, other), key=lambda p: self.crosses[p])
            pairs.append((x, o))
        return pairs

    def standings(self) -> list[int]:
        return sorted(self.names, key=lambda p: -self.score[p])


def announcement(t: Swiss, *, open_: bool) -> PlainLayout:
    lines = [f"**Swiss tournament**, {t.rounds} rounds: {len(t.names)} players"]
    lines += [
        f"{rank}. <@{p}> {t.score[p]:g} ({t.played[p]} games)"
        for rank, p in enumerate(t.standings()[:SHOWN], 1)
        if t.round
    ]
    components: list[dict[str, Any]] = [{"type": 10, "content": "\n".join(lines)}]
    if open_:
        buttons = [
            {"type": 2, "style": 1, "custom_id": f"tt:{t.channel_id}:{what}", "label": what.title()}
            for what in ("join", "start")
        ]
        components.append({"type": 1, "components": buttons})
    return PlainLayout(components)


class TournamentFloor(discord.Client):
    def __init__(self, folder: Path) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="tictactoe-tournament", description="Tournaments")
        group.command(name="create")(self.create)
        self.tree.add_command(group)
        self.tournaments: dict[int, Swiss] = {}  # by channel
        self.games: dict[int, tuple[FloorGame, Swiss]] = {}
        self.ids = itertools.count(1)
        self.durable = DurableMoves(folder / "floor.db") if "--durable" in sys.argv else None

    async def setup_hook(self) -> None:
        if self.durable is not None:
            await self.durable.open()
        await self.tree.sync()

    async def save(self, game: FloorGame) -> None:
        """One durable save of the game as it now is (with --durable)."""
        if self.durable is not None:
            x, o = game.players
            row = (game.id, game.channel_id, x, o, x, 3, 3, ",".join(map(str, game.moves)))
            await self.durable.save(row, "finished" if game.over else "active")

    async def on_ready(self) -> None:
        gc.collect()  # as the bot's own start does (`bot.client`), with the same thresholds
        gc.freeze()
        gc.set_threshold(*bot_process.collector())

    async def create(
        self, interaction: discord.Interaction[Any], format: str = "swiss", rounds: int = 3
    ) -> None:
        """Create a tournament."""
        channel = interaction.channel_id or 0
        t = self.tournaments[channel] = Swiss(channel, rounds)
        answer = await interaction.response.send_message(view=announcement(t, open_=True))
        t.message_id = answer.message_id or 0

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        kind, ident, what = str((interaction.data or {}).get("custom_id", "")).split(":")
        if kind == "tt":
            await self.entry(interaction, self.tournaments[int(ident)], what)
            return
        game, t = self.games[int(ident)]
        user = interaction.user.id
        if game.over or game.players[game.turn()] != user or not game.can_play(int(what)):
            await interaction.response.send_message("Not your turn.", ephemeral=True)
            return
        game.play(int(what))
        await self.save(game)
        await interaction.response.edit_message(view=plain_layout(game))
        if game.over:
            await self.ended(game, t)

    async def entry(self, interaction: discord.Interaction[Any], t: Swiss, what: str) -> None:
        """Join (once, before the start) or Start."""
        user = interaction.user
        if what == "join" and not t.round and user.id not in t.names:
            t.names[user.id] = user.display_name
            t.score[user.id], t.played[user.id], t.crosses[user.id] = 0.0, 0, 0
        elif what == "start" and not t.round:
            await interaction.response.edit_message(view=announcement(t, open_=False))
            await self.next_round(t)
            return
        await interaction.response.edit_message(view=announcement(t, open_=not t.round))

    async def next_round(self, t: Swiss) -> None:
        """Each pair's thread, its players, its board; after the last round, the podium."""
        if t.round == t.rounds:
            podium = " ".join(f"{m} <@{p}>" for m, p in zip("🥇🥈🥉", t.standings(), strict=False))
            links = " ".join(f"<#{thread}>" for thread in t.threads)
            text = f"The tournament is over. {podium}\n{links}"[:TEXT_LIMIT]
            await self.get_partial_messageable(t.channel_id).send(
                view=PlainLayout([{"type": 10, "content": text}])
            )
            return
        t.round += 1
        games = []
        for x, o in t.pairs():  # every game of the round live before the first call
            t.met.add(frozenset((x, o)))
            t.crosses[x] += 1
            game = FloorGame(next(self.ids), 3, 3, (x, o), None, False, 0, x, [None] * 9)
            self.games[game.id] = (game, t)
            t.live.add(game.id)
            games.append(game)
        for game in games:
            x, o = game.players
            made = await self.http.start_thread_without_message(
                t.channel_id,
                name=f"Round {t.round}: {t.names[x]} vs {t.names[o]}",
                auto_archive_duration=1440,
                type=PUBLIC_THREAD,
            )
            game.channel_id = int(made["id"])
            t.threads.append(game.channel_id)
            await self.save(game)
            for player in (x, o):
                await self.http.add_user_to_thread(game.channel_id, player)
            await self.get_partial_messageable(game.channel_id).send(view=plain_layout(game))

    async def ended(self, game: FloorGame, t: Swiss) -> None:
        """The result counts, the thread is archived, the standings are edited."""
        winner = game.cells[game.moves[-1]] if game.won(game.moves[-1]) else None
        for side, player in enumerate(game.players):
            t.played[player] += 1
            t.score[player] += 0.5 if winner is None else float(winner == side)
        t.live.discard(game.id)
        last = not t.live  # the round's last game: known before any call, so only once
        await self.http.edit_channel(game.channel_id, archived=True)
        with discord.http.handle_message_parameters(view=announcement(t, open_=False)) as edit:
            await self.http.edit_message(t.channel_id, t.message_id, params=edit)
        if last:
            await self.next_round(t)


if __name__ == "__main__":
    bot_process.main(TournamentFloor)
