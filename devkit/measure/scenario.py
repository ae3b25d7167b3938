"""The load benchmark's scenario, whichever Discord the bot talks to: games, players, modes.

A `Players` object emits the players' actions and waits for the bot's answers; its subclasses
speak to SimCord (`simcord_runs`) or to the local fake Discord (`wire/client.py`). The world
(`build_world`) and the traffic patterns (`measure.traffic`) are the same for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from devkit.measure import instruments as kit
from devkit.measure.boards import Board, read_board
from devkit.measure.run import Run  # noqa: F401  (re-exported: each driver builds its runs)

LEVELS = ("easy", "medium", "hard", "unbeatable")
CHANNELS_PER_GUILD = 450  # Discord allows 500 channels in a guild
SETTLE = 600.0  # seconds an answer may take before a game is counted stuck
ULTIMATE = "ultimate"
AGAINST = {"mixed": None, "bot": True, "friend": False}  # --against: which games are played


@dataclass
class Game:
    """One channel's game as the players see it."""

    channel: Any
    human: Any  # the member who runs /tictactoe (plays X, or O when the bot starts)
    opponent: Any | None  # the challenged member; None against the bot
    size: int
    k: int
    level: str | None = None
    bot_first: bool = False
    message_id: int | None = None
    game_id: int | None = None
    plies: int = 0
    over: bool = False
    stuck: bool = False  # refused, or no answer in time
    variant: str = "classic"  # or "ultimate": nine boards in one (size 9, k 3)
    last: str = ""  # the kind of the last click ("cell", "pick", "accept", "resign")

    @property
    def vs_bot(self) -> bool:
        return self.opponent is None

    def slash_options(self) -> dict[str, Any]:
        options: dict[str, Any] = (
            {"variant": self.variant}
            if self.variant == ULTIMATE
            else {"size": self.size, "win_length": self.k}
        )
        if self.vs_bot:
            options["difficulty"] = self.level
            options["first"] = "opponent" if self.bot_first else "me"
        else:
            options["opponent"] = self.opponent
        return options

    def to_move(self, board: Board) -> Any | None:
        """The member whose click comes next, or None (over, waiting, or the bot's turn)."""
        if board.over or board.challenge or (board.cells == 0 and not board.picks):
            return None
        x_turn = board.taken % 2 == 0
        if self.vs_bot:
            return self.human if x_turn != self.bot_first else None
        return self.human if x_turn else self.opponent


def world_options(args: Any) -> dict[str, Any]:
    """`build_world`'s options from the command line (--bot-k5, --variant, --level)."""
    variant, level = getattr(args, "variant", "classic"), getattr(args, "level", None)
    return {"bot_k5": args.bot_k5, "variant": variant, "level": level}


def build_world(
    world: Any,
    n: int,
    size: int,
    *,
    bot_k5: int,
    variant: str = "classic",
    level: str | None = None,
) -> list[Game]:
    """N channels (in as many guilds as needed), each with its players; half play the bot (at
    `level`, else the four levels in turn); ultimate (`variant`) is stored as size 9, k 3."""
    games: list[Game] = []
    guild = None
    for i in range(n):
        if i % CHANNELS_PER_GUILD == 0:
            guild = world.create_guild(f"load-{i // CHANNELS_PER_GUILD}")
        assert guild is not None
        channel = guild.create_text_channel(f"game-{i}")
        human = guild.add_member(world.create_user(f"p{i}a"))
        k = 3 if size == 3 else 4
        if i % 2 == 0:
            chosen = level or LEVELS[(i // 2) % len(LEVELS)]
            game = Game(channel, human, None, size, bot_k5 if size == 5 else k, chosen)
            game.bot_first = (i // 2) % 2 == 1
        else:
            game = Game(channel, human, guild.add_member(world.create_user(f"p{i}b")), size, k)
        if variant == ULTIMATE:
            game.size, game.k, game.variant = 9, 3, ULTIMATE
        games.append(game)
    return games


class Players:
    """Emits the players' actions and notices when the bot has answered them.

    Waiting is on per-channel events that the answers set (never by polling or settling).
    Subclasses say how to emit an action and read the world: `_emit_slash`, `_emit_click`,
    `_components`, `_response_message` and `timings`.
    """

    def __init__(self, *, max_plies: int) -> None:
        self.max_plies = max_plies
        self.listeners: dict[int, asyncio.Event] = {}

    # what a subclass provides
    timings: dict[int, kit.Timing]

    async def _emit_slash(self, game: Game) -> int:
        raise NotImplementedError

    async def _emit_click(self, game: Game, player: Any, custom_id: str, kind: str) -> int:
        raise NotImplementedError

    def _components(self, game: Game) -> list[Any]:
        """The components of the game's board message as the world stores them."""
        raise NotImplementedError

    def _response_message(self, interaction_id: int) -> int | None:
        """The board message an interaction's (public) response created, if any."""
        raise NotImplementedError

    def tidy(self) -> None:
        """Drop whatever the world logs between waves (nothing by default)."""

    # the players' logic

    def refresh(self, game: Game) -> Board | None:
        """Read the game's board from the world (None before the board exists)."""
        if game.message_id is None:
            return None
        board = read_board(self._components(game))
        game.game_id = board.game_id or game.game_id
        game.plies = max(game.plies, board.taken)  # an ended ultimate board stamps no ply
        game.over = board.over
        return board

    async def answered(self, game: Game, ready: Any, timeout: float = SETTLE) -> Board | None:
        """Wait until the game's board satisfies `ready` (or `timeout` passes)."""
        event = self.listeners.setdefault(game.channel.id, asyncio.Event())
        deadline = time.perf_counter() + timeout
        while True:
            event.clear()
            board = self.refresh(game)
            if board is not None and ready(board):
                return board
            left = deadline - time.perf_counter()
            if left <= 0:
                game.stuck = True
                return board
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), left)

    async def start(self, game: Game) -> int:
        """Emit the game's /tictactoe."""
        self.listeners.setdefault(game.channel.id, asyncio.Event())
        return await self._emit_slash(game)

    async def opened(self, game: Game, interaction_id: int) -> Board | None:
        """Wait for the board (after the bot's first move, when it starts)."""
        event = self.listeners.setdefault(game.channel.id, asyncio.Event())
        while game.message_id is None:
            event.clear()
            game.message_id = self._response_message(interaction_id)
            if self.timings[interaction_id].ephemeral:
                game.stuck = True  # refused: a bug in the bot or this driver, counted
                return None
            if game.message_id is None:
                await event.wait()
        board = await self.answered(
            game, lambda b: b.challenge or b.over or game.to_move(b) is not None
        )
        if board is not None and game.vs_bot and game.bot_first and board.taken:
            self.timings[interaction_id].replied = True
        return board

    async def click(
        self, game: Game, board: Board, rng: random.Random
    ) -> Callable[[Board], bool] | None:
        """Emit the game's next click; returns the condition its answer fulfils, or None."""
        click = next_click(game, board, rng, self.max_plies)
        if click is None:
            return None
        player, custom_id, kind = click
        before, resigns = board.taken, board.resigns
        timing: kit.Timing | None = None

        def moved(b: Board) -> bool:
            done = b.over or (
                not b.challenge
                and game.to_move(b) is not None
                and (
                    kind == "accept"
                    or (kind == "pick" and bool(b.free))
                    or (kind == "resign" and b.resigns != resigns)  # asked, or resigned
                    or b.taken > before
                )
            )
            if done and game.vs_bot and b.taken > before + 1 and timing is not None:
                timing.replied = True  # the board shows the bot's move after the player's
            return done

        game.last = kind
        timing = self.timings[await self._emit_click(game, player, custom_id, kind)]
        return moved

    async def move(self, game: Game, ready: Callable[[Board], bool], rng: random.Random) -> None:
        """Wait for a click's answer; after an ultimate board picked, click a cell of it too."""
        board = await self.answered(game, ready)
        if game.last == "pick" and board is not None and not game.stuck:
            then = await self.click(game, board, rng)
            if then is not None:
                await self.answered(game, then)


def next_click(
    game: Game, board: Board, rng: random.Random, max_plies: int
) -> tuple[Any, str, str] | None:
    """(member, custom_id, kind) of the game's next click, or None."""
    if board.challenge and game.opponent is not None:
        return game.opponent, f"ttt:{board.game_id}:accept", "accept"
    player = game.to_move(board)
    if player is None or not (board.free or board.picks):
        return None
    if board.taken >= max_plies:  # Resign, then (the board asking) its Confirm resign
        return player, f"ttt:{board.game_id}:{board.resigns or 'resign'}", "resign"
    ply = f"@{board.taken}" if game.variant == ULTIMATE else ""  # the ply its buttons carry
    if not board.free:  # ultimate, free to choose: a small board first
        return player, f"ttt:{board.game_id}:pick{rng.choice(board.picks)}{ply}", "pick"
    return player, f"ttt:{board.game_id}:{rng.choice(board.free)}{ply}", "cell"
