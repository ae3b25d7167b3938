"""What a kind of game is: the one contract the rest of the bot asks about a game's kind.

A kind says how its games are played (the position after the moves, which cells exist, why a
cell may not be played now), how its board is drawn (the emoji grid, the cell buttons as plain
component data, the words under the grid), which input it takes (the reactions a board carries
and what each means), which engine answers for it (its levels, its moves, hints and reviews, run
in the bot's engine workers) and how it is stored (its name, in the games, records and ratings
tables). Everything here is pure: no Discord, no asyncio, no I/O.

The kinds themselves are ``bot.games.kinds.classic`` and ``bot.games.kinds.ultimate``; a new
kind implements `Kind` and is added to ``bot.games.kinds.KINDS``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from bot.games.record import GameRecord, Status
from bot.i18n import N_, Text

if TYPE_CHECKING:
    from engine import Outcome, Side

# Discord's component types and the button styles the cells use.
ACTION_ROW, BUTTON, TEXT_DISPLAY = 1, 2, 10
PRIMARY, SECONDARY, SUCCESS = 1, 2, 3
# Around a labelled grid: a corner, then column letters (regional indicators, which line up with
# the square emoji; a zero-width space between two keeps them from fusing into a flag) and row
# numbers (keycaps): ``bot.games.look.LETTERS`` and ``KEYCAPS``.
CORNER = "⬛"
GAP = "\u200b"


class Position(Protocol):
    """What the bot needs of an engine position (``engine.Board``, ``UltimateBoard``)."""

    @property
    def turn(self) -> Side: ...

    def play(self, cell: int) -> Any: ...

    def legal_moves(self) -> Sequence[int]: ...

    def outcome(self) -> Outcome | None: ...


# Positions by (kind, size, k, moves), the newest kept: a click asks for its game's position
# several times (its move, the engine's reply, the board's winning line), each time after the
# last click played it. Positions are immutable, so one is shared; the oldest go first past
# `POSITIONS`.
POSITIONS = 4096
_positions: dict[tuple[str, int, int, tuple[int, ...]], Position] = {}


def _keep(key: tuple[str, int, int, tuple[int, ...]], position: Position) -> Position:
    if len(_positions) >= POSITIONS:
        del _positions[next(iter(_positions))]
    _positions[key] = position
    return position


@dataclass(frozen=True, slots=True)
class Sketch:
    """A board as a picture shows it, in plain values (``bot.pictures`` draws any sketch).

    Cells are numbered in reading order of a `size` x `size` grid; small boards set apart are
    `block` x `block` cells (`block` == `size`: one board), numbered in reading order too.
    """

    size: int  # cells a side
    block: int  # cells a side of each small board set apart
    marks: tuple[Side | None, ...]  # each cell's mark
    columns: tuple[str, ...]  # the column letters and row numbers of the cells' names
    rows: tuple[str, ...]
    last: int | None = None  # the last move's cell
    line: tuple[int, ...] = ()  # the cells of the winning line (of its small boards)
    won: tuple[Side | None, ...] = ()  # each small board's winner, where boards are set apart
    target: int | None = None  # the small board to play, while the game is on
    block_names: tuple[str, ...] = ()  # each small board's name ("A1–C3")


def labels(kind: Kind, game: GameRecord, size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The column letters and row numbers of a board, read from its cells' names (letters, then
    a number: ``Kind.cell_name``)."""
    columns = tuple(kind.cell_name(game, c).rstrip("0123456789") for c in range(size))
    rows = tuple(kind.cell_name(game, r * size)[len(columns[0]) :] for r in range(size))
    return columns, rows


def plain(key: str) -> str:
    """A reaction without variation selectors: clients send keycaps with or without one."""
    return key.replace("\ufe0f", "")


class Kind(ABC):
    """One kind of game. Subclasses set the class values and implement the abstract methods."""

    name: ClassVar[str]  # as stored in the games, records and ratings tables
    levels: ClassVar[tuple[str, ...]]  # the engine's levels, gentlest first
    strongest: ClassVar[str]  # the level played when none is chosen
    reply_wait: ClassVar[float]  # seconds a click's response waits for the engine's reply
    budget: ClassVar[float]  # seconds of search for one move where the engine searches
    quick: ClassVar[bool] = False  # whether `quick_move` may find a move with no search
    # Whether its searches run in compiled code that lets go of the GIL: a thread of the bot's
    # process then runs them without slowing the event loop, with no process pool's round trip.
    native: ClassVar[bool] = False
    # Whether its picture is one grid of cells, drawn from strips ``bot.pictures.png`` keeps
    # (cheap enough for the event loop), rather than boards within a board.
    one_grid: ClassVar[bool] = False
    # Whether its finished games on the big boards are searched for wins a player missed, kept
    # as the server's puzzles (the engine's missed-win search is classic's).
    missed_wins: ClassVar[bool] = False

    # ---------------------------------------------------------------- rules

    @abstractmethod
    def build(self, game: GameRecord) -> Position:
        """The position after the game's moves, built from nothing."""

    def position(self, game: GameRecord) -> Position:
        """The position after the game's moves (shared: positions are immutable)."""
        found = _positions.get((self.name, game.size, game.k, game.moves))
        return found if found is not None else _keep(self._key(game), self.build(game))

    def after(self, game: GameRecord, cell: int) -> Position:
        """The position after the game's moves and `cell` (kept for the next click)."""
        moves = (*game.moves, cell)
        return _keep((self.name, game.size, game.k, moves), self.position(game).play(cell))

    def _key(self, game: GameRecord) -> tuple[str, int, int, tuple[int, ...]]:
        return self.name, game.size, game.k, game.moves

    @abstractmethod
    def cells(self, game: GameRecord) -> int:
        """How many cells a board of the game has (cells are numbered from 0)."""

    def refuse_cell(self, game: GameRecord, cell: int) -> Text | None:
        """Why the player to move may not play `cell` now, or None when they may."""
        if not 0 <= cell < self.cells(game) or cell in game.moves:
            return N_("That cell is already taken; pick an empty one.")
        return None

    @abstractmethod
    def cell_name(self, game: GameRecord, cell: int) -> str:
        """A cell's name as the board's labels give it (B2, E5)."""

    @abstractmethod
    def line_names(self, game: GameRecord) -> str:
        """The winning line in words of cell names ("B1, B2, B3"), or "" when there is none."""

    def engine_level(self, chosen: str) -> str:
        """The engine's level for a difficulty chosen in /tictactoe (the same name by default)."""
        return chosen

    # -------------------------------------------------------------- drawing

    @abstractmethod
    def title(self, size: int, k: int) -> Text:
        """The board's title (its kind, size and line)."""

    @abstractmethod
    def grid(self, game: GameRecord, *, keyed: bool, picked: int | None = None) -> str:
        """The board as emoji; `keyed`: cells show the reactions that play them where one does;
        `picked`: what the player to move picked first (see `read_key`)."""

    @abstractmethod
    def sketch(self, game: GameRecord) -> Sketch:
        """The board as a picture shows it: marks, labels, the last move, the winning line, the
        small boards set apart and the one to play."""

    def caption(self, game: GameRecord) -> Text | None:
        """Words under the grid (the last move, where to play), or None."""
        return None

    @abstractmethod
    def cell_rows(self, game: GameRecord, picked: int | None = None) -> list[dict[str, Any]]:
        """The action rows of cell buttons, as plain component data."""

    def extra_controls(self, game: GameRecord, picked: int | None) -> tuple[str, ...]:
        """Controls of this kind placed before the game's own (a way back from a pick)."""
        return ()

    def picks(self, game: GameRecord) -> bool:
        """Whether a move by reactions may take two keys (a first half, then the cell)."""
        return False

    def can_pick(self, game: GameRecord, index: int) -> bool:
        """Whether the player to move may pick `index` as the first half of a move."""
        return False

    def picking(self, game: GameRecord, picked: int | None, player: str, mark: str) -> Text:
        """How the player to move makes a move by reactions (the status line)."""
        return N_(
            "{player}, your move ({mark}): react with a cell's emoji.", player=player, mark=mark
        )

    # ---------------------------------------------------------------- input

    @abstractmethod
    def keys(self, game: GameRecord) -> list[str]:
        """The reactions a board of the game carries, in the order they are added."""

    def live_keys(self, game: GameRecord) -> list[str]:
        """The board's reactions that can still play something: every key while the game is on,
        none once it is over (a kind whose keys name cells keeps those that can still be played)."""
        return [] if game.status is Status.FINISHED else self.keys(game)

    @abstractmethod
    def read_key(self, game: GameRecord, picked: int | None, key: str) -> tuple[str, int] | None:
        """What a reaction means now: ("cell", cell) plays a cell, ("pick", n) picks the first
        half of a move (a 5x5 column, an ultimate board), None is no key of the board."""

    # --------------------------------------------------------------- engine

    @abstractmethod
    def searches(self, game: GameRecord) -> bool:
        """Whether the engine's move is a search (run in a worker process) rather than a lookup
        (microseconds, found on the event loop)."""

    @abstractmethod
    def best_move(
        self, position: Any, level: str, rng: random.Random | None, deadline: float | None
    ) -> int:
        """The engine's move (run in an engine worker)."""

    def quick_move(self, position: Any, level: str, rng: random.Random | None) -> int | None:
        """The engine's move where it needs no search, else None (found on the event loop)."""
        return None

    @abstractmethod
    def hint_job(self, game: GameRecord) -> tuple[Callable[..., Text], tuple[Any, ...]]:
        """The pure function and picklable arguments whose result is the hint in words."""

    @abstractmethod
    def review_job(
        self, game: GameRecord, names: dict[str, Any], marks: dict[str, str]
    ) -> tuple[Callable[..., list[Text]], tuple[Any, ...]]:
        """The pure function and picklable arguments whose result is the review's lines."""


def marks(moves: Sequence[int], cells: int) -> list[Side | None]:
    """The mark in each cell ("X", "O" or None), X having played first."""
    found: list[Side | None] = [None] * cells
    for ply, cell in enumerate(moves):
        found[cell] = "X" if ply % 2 == 0 else "O"
    return found
