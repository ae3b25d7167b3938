"""The soak's players and their history: tables of people at people's pace, each click or
reaction recorded with what it was answered.

Each table is one channel with a fixed kind of game (against the bot at a level, or between two
friends; 3x3 to 5x5; in a server that takes reactions too, some moves by reaction); when its
game ends, the next starts. A player reads the board as the local Discord stores it (the only
truth a person has), thinks, and clicks a free cell when it is their turn; an action that gets
no answer in 3 seconds failed, as "This interaction failed" tells a person, and the player tries
again a moment later from whatever the board shows then. At a patient table (every other one)
the players are people who wait: after a click that failed, or while the bot (or the friend)
is to move, they wait for the board to change, up to `PATIENCE`, without clicking again; so a
board that never catches up with its game by itself is left as it is, for the checks to find.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks.chaos.tables import Action, Table, marks_of
from bot.games import look as looks
from devkit.localdiscord import FakeDiscord, User
from devkit.measure.boards import Board, read_board

ANSWER = 3.0  # seconds Discord gives a first response
PATIENCE = 30.0  # seconds a patient player waits for a board to change before clicking again


class Players:
    """Every table's players, and the history of what they did."""

    def __init__(self, fake: FakeDiscord, tables: list[Table], *, think: tuple[float, float]):
        self.fake = fake
        self.tables = tables
        self.think = think
        self.history: list[Action] = []
        self.stopping = asyncio.Event()

    # ------------------------------------------------------------ reading the world

    def board(self, table: Table) -> tuple[Board, dict[int, str]] | None:
        if table.message_id is None:
            return None
        components = self.fake.messages[table.message_id]["components"]
        return read_board(components), marks_of(components)

    def mover(self, table: Table, board: Board, marks: dict[int, str]) -> User | None:
        """Who clicks next (None: the game is over, or the bot is to move)."""
        if board.over:
            return None
        if board.challenge:
            return table.friend
        if not board.free:
            return None
        x_turn = len(marks) % 2 == 0
        if table.kind.level is not None:
            return table.human if x_turn != table.kind.bot_first else None
        return table.human if x_turn else table.friend

    async def until(self, table: Table, check: Callable[[], bool], seconds: float) -> bool:
        """Wait (woken by the channel's answers) until `check()` or `seconds` pass."""
        event = self.fake.listeners.setdefault(table.channel.id, asyncio.Event())
        give_up = time.perf_counter() + seconds
        while True:
            event.clear()
            if check():
                return True
            left = give_up - time.perf_counter()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, 0.5))

    # ------------------------------------------------------------------- actions

    async def slash(self, table: Table) -> None:
        """Start the table's next game; its board, once answered."""
        kind = table.kind
        options: dict[str, Any] = {"size": kind.size, "win_length": kind.k}
        if kind.level is None:
            options["opponent"] = table.friend
        else:
            options.update(difficulty=kind.level, first="opponent" if kind.bot_first else "me")
        action = self._note(table, "slash")
        action.iid = await self.fake.slash(table.human, table.channel, "tictactoe", **options)
        interaction = self.fake.interactions[action.iid]
        await self._answered(table, action, lambda: interaction.message_id is not None)
        if action.outcome == "played":
            table.message_id = interaction.message_id
            table.blocked = 0
            shown = self.board(table)
            if shown is not None and shown[0].game_id is not None:
                action.game_id = shown[0].game_id
                table.boards[shown[0].game_id] = interaction.message_id or 0
        elif action.outcome == "refused":
            table.blocked += 1

    async def click(self, table: Table, user: User, what: int | str, kind: str) -> Action:
        """Click a cell (or a control) of the table's board."""
        shown = self.board(table)
        assert shown is not None and table.message_id is not None
        board, marks = shown
        action = self._note(table, kind, board.game_id, what, user)
        custom_id = f"ttt:{board.game_id}:{what}"
        action.iid = await self.fake.click(kind, user, table.channel, table.message_id, custom_id)
        await self._answered(table, action, self._shows(table, action, len(marks)))
        return action

    async def react(self, table: Table, user: User, cell: int) -> Action:
        """Play a cell by its reaction (one reaction names a cell on 3x3 and 4x4)."""
        shown = self.board(table)
        assert shown is not None and table.message_id is not None
        action = self._note(table, "react", shown[0].game_id, cell, user)
        key = looks.keys(table.kind.size)[cell]
        await self.fake.react(user, table.channel, table.message_id, key)
        shows = self._shows(table, action, len(shown[1]))
        action.outcome = "played" if await self.until(table, shows, ANSWER) else "unanswered"
        if action.played:
            action.answered = time.perf_counter()
            action.ack = action.answered - action.sent
        return action

    def _note(
        self,
        table: Table,
        kind: str,
        game_id: int | None = None,
        what: int | str | None = None,
        user: User | None = None,
    ) -> Action:
        action = Action(table.index, kind, time.perf_counter(), time.time(), game_id)
        if isinstance(what, int):
            action.cell = what
            action.mark = table.mark_of(user) if user is not None else None
        self.history.append(action)
        return action

    def _shows(self, table: Table, action: Action, before: int) -> Callable[[], bool]:
        """Whether the board shows what the action asked for."""

        def check() -> bool:
            shown = self.board(table)
            if shown is None:
                return False
            board, marks = shown
            if action.cell is not None:
                return marks.get(action.cell) == action.mark
            return not board.challenge or board.over  # accept

        return check

    async def _answered(self, table: Table, action: Action, shows: Callable[[], bool]) -> None:
        """Wait for the interaction's first response (3 s), then say what it was."""
        assert action.iid is not None
        timing = self.fake.timings[action.iid]
        if not await self.until(table, lambda: timing.acked is not None, ANSWER):
            action.outcome = "unanswered"
            return
        action.answered, action.ack = timing.acked, timing.ack_latency
        if timing.ephemeral:
            action.outcome = "refused"
        elif shows() or await self.until(table, shows, ANSWER):  # a deferred answer: its edit
            action.outcome = "played"
        else:
            action.outcome = "stale"

    # --------------------------------------------------------------------- play

    async def play(self, table: Table, seed: int) -> None:
        """The table's players, until the soak stops them."""
        rng = random.Random(seed)
        await asyncio.sleep(rng.uniform(0, self.think[1]))
        while not self.stopping.is_set():
            await self.turn(table, rng)

    async def turn(self, table: Table, rng: random.Random) -> None:
        """One step of a table: a new game, an accept, a move, or a wait for the bot."""
        shown = self.board(table)
        if shown is None or shown[0].over:
            await asyncio.sleep(rng.uniform(*self.think))
            await self.slash(table)
            if table.message_id is None or table.blocked:
                await asyncio.sleep(1.0 + rng.random())
            return
        board, marks = shown
        user = self.mover(table, board, marks)
        if user is None:  # the bot's move: wait for the board to change
            await self.until(table, lambda: self.board(table) != shown, 5.0)
            return
        await asyncio.sleep(rng.uniform(*self.think))
        if self.stopping.is_set():
            return
        if board.challenge:
            action = await self.click(table, user, "accept", "accept")
        else:
            cell = rng.choice(board.free)
            by_reaction = table.reactions and table.kind.size <= 4 and rng.random() < 0.5
            if by_reaction:
                action = await self.react(table, user, cell)
            else:
                action = await self.click(table, user, cell, "cell")
        if action.played:
            return
        if table.patient:  # "This interaction failed": wait and see whether the move shows

            def changed() -> bool:
                return self.board(table) != shown or self.stopping.is_set()

            await self.until(table, changed, PATIENCE)
        else:
            await asyncio.sleep(1.0 + rng.random())  # "This interaction failed": again soon

    async def run(self, seed: int) -> None:
        rng = random.Random(seed)
        await asyncio.gather(*(self.play(t, rng.getrandbits(32)) for t in self.tables))

    # ------------------------------------------------------------------ the probe

    async def probe(self, table: Table) -> str | None:
        """After the faults: the table's live game must answer its next click within 3 s.
        None if it did (or the game is over), else what went wrong."""
        shown = self.board(table)
        if table.blocked:
            return "/tictactoe refused: a game the players cannot see holds the channel"
        if shown is None or shown[0].over:
            return None
        board, marks = shown
        user = self.mover(table, board, marks)
        if user is None and not await self.until(table, lambda: self.board(table) != shown, ANSWER):
            return f"game {board.game_id}: the bot's move never came"
        shown = self.board(table)
        assert shown is not None
        board, marks = shown
        user = self.mover(table, board, marks)
        if board.over or user is None:
            return None
        if board.challenge:
            action = await self.click(table, user, "accept", "probe")
        else:
            action = await self.click(table, user, board.free[0], "probe")
        if not action.played:
            return f"game {board.game_id}: the probe's click was {action.outcome}"
        return None
