"""The board: an immutable, hashable, picklable game position with its text round trip."""

from __future__ import annotations

from engine.rules import SIZES, default_k, rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal

    Side = Literal["X", "O"]  # a mark; X moves first


class IllegalMoveError(ValueError):
    """A move or a board text that the rules do not allow; the message says what is wrong."""


class Outcome:
    """The end of a game: the winner ("X" or "O"; None for a draw) and the winning line's cells."""

    __slots__ = ("line", "winner")
    winner: Side | None
    line: tuple[int, ...]

    def __init__(self, winner: Side | None, line: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "line", line)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Outcome is immutable; cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self.winner == other.winner and self.line == other.line

    def __hash__(self) -> int:
        return hash((self.winner, self.line))

    def __repr__(self) -> str:
        return f"Outcome(winner={self.winner!r}, line={self.line!r})"

    def __reduce__(self) -> tuple[type[Outcome], tuple[Side | None, tuple[int, ...]]]:
        return Outcome, (self.winner, self.line)


def _cells(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _winning_lines(size: int, k: int, mask: int) -> list[int]:
    return [line for line in rules(size, k).lines if line & mask == line]


class Marks:
    """What every position of the engine shares: each side's marks as a bitmask (`x`, `o`),
    X moving first, immutability and the text form as `str`. `Board` and the ultimate board
    build on it."""

    __slots__ = ()
    x: int
    o: int

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def to_string(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.to_string()

    @property
    def turn(self) -> Side:
        """Whose turn it is, "X" or "O" (X moves first)."""
        return "X" if self.x.bit_count() == self.o.bit_count() else "O"

    @property
    def ply(self) -> int:
        """How many marks are on the board."""
        return (self.x | self.o).bit_count()


class Board(Marks):
    """A position: `x` and `o` are bitmasks of the cells each side holds (cell = row * size + col).

    Build one with `Board.empty`, `Board.from_string` or `Board.from_moves`; X always moves first.
    Immutable, hashable and picklable; boards are equal when size, k and marks are.
    """

    __slots__ = ("k", "o", "size", "x")
    size: int
    k: int
    x: int
    o: int

    def __init__(self, size: int, k: int, x: int = 0, o: int = 0) -> None:
        _validate(size, k, x, o)
        _set = object.__setattr__
        _set(self, "size", size)
        _set(self, "k", k)
        _set(self, "x", x)
        _set(self, "o", o)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.x, self.o, self.size, self.k) == (other.x, other.o, other.size, other.k)

    def __hash__(self) -> int:
        return hash((self.size, self.k, self.x, self.o))

    def __reduce__(self) -> tuple[type[Board], tuple[int, int, int, int]]:
        return Board, (self.size, self.k, self.x, self.o)

    @classmethod
    def empty(cls, size: int = 3, k: int | None = None) -> Board:
        """An empty board of `size` x `size` where `k` in a row wins (default 3 on 3x3, else 4)."""
        return cls(size, default_k(size) if k is None else k)

    @classmethod
    def from_string(cls, text: str, k: int | None = None) -> Board:
        """Read rows separated by "/" with X, O and "." (e.g. "X.O/.X./..."), as to_string gives."""
        rows = text.strip().split("/")
        size = len(rows)
        if size not in SIZES:
            raise IllegalMoveError(f"board must have 3, 4 or 5 rows, got {size}")
        x = o = 0
        for r, row in enumerate(rows):
            if len(row) != size:
                raise IllegalMoveError(f"row {r + 1} has {len(row)} cells, expected {size}")
            for c, ch in enumerate(row):
                bit = 1 << (r * size + c)
                if ch in "Xx":
                    x |= bit
                elif ch in "Oo":
                    o |= bit
                elif ch != ".":
                    raise IllegalMoveError(f"unknown character {ch!r} in row {r + 1}")
        return cls(size, default_k(size) if k is None else k, x, o)

    @classmethod
    def from_moves(cls, moves: Iterable[int], size: int = 3, k: int | None = None) -> Board:
        """The board after playing `moves` (cell numbers, X first) on an empty board.

        Raises ``IllegalMoveError`` as `play` would for each move, but checks only the lines
        through each move for a win, and builds one board, not one per move.
        """
        board = cls.empty(size, k)
        table = rules(board.size, board.k)
        marks, over = [0, 0], False
        for ply, cell in enumerate(moves):
            if not isinstance(cell, int) or not 0 <= cell < table.cells:
                raise IllegalMoveError(f"cell {cell!r} is off the board (0 to {table.cells - 1})")
            bit = 1 << cell
            if (marks[0] | marks[1]) & bit:
                raise IllegalMoveError(f"cell {cell} is already taken")
            if over:
                raise IllegalMoveError("the game is over")
            mine = marks[ply % 2] = marks[ply % 2] | bit
            over = (marks[0] | marks[1]) == table.full or any(
                line & mine == line for line in table.cell_lines[cell]
            )
        return cls(board.size, board.k, marks[0], marks[1])

    def to_string(self) -> str:
        """The board as text, rows separated by "/" (reads back with from_string)."""
        chars = []
        for cell in range(self.size * self.size):
            bit = 1 << cell
            chars.append("X" if self.x & bit else "O" if self.o & bit else ".")
        n = self.size
        return "/".join("".join(chars[r * n : (r + 1) * n]) for r in range(n))

    def __repr__(self) -> str:
        suffix = "" if self.k == default_k(self.size) else f", k={self.k}"
        return f"Board.from_string({self.to_string()!r}{suffix})"

    def cell(self, index: int) -> str:
        """The mark at `index`: "X", "O" or "."."""
        bit = 1 << index
        return "X" if self.x & bit else "O" if self.o & bit else "."

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the winner (None for a draw) and the winning line."""
        sides: tuple[tuple[Side, int], ...] = (("X", self.x), ("O", self.o))
        for mark, mask in sides:
            won = _winning_lines(self.size, self.k, mask)
            if won:
                return Outcome(mark, _cells(won[0]))
        if (self.x | self.o) == (1 << self.size * self.size) - 1:
            return Outcome(None, ())
        return None

    def legal_moves(self) -> tuple[int, ...]:
        """Empty cells in increasing order; none once the game is over."""
        if self.outcome() is not None:
            return ()
        return _cells(~(self.x | self.o) & ((1 << self.size * self.size) - 1))

    def play(self, cell: int) -> Board:
        """The board after the side to move marks `cell`."""
        if not isinstance(cell, int) or not 0 <= cell < self.size * self.size:
            raise IllegalMoveError(f"cell {cell!r} is off the board (0 to {self.size**2 - 1})")
        bit = 1 << cell
        if (self.x | self.o) & bit:
            raise IllegalMoveError(f"cell {cell} is already taken")
        if self.outcome() is not None:
            raise IllegalMoveError("the game is over")
        # A legal move from a valid board makes a valid one: it is built without `_validate`,
        # which would look for both sides' lines again (the click path plays every move).
        after = object.__new__(Board)
        _set = object.__setattr__
        _set(after, "size", self.size)
        _set(after, "k", self.k)
        x_moves = self.x.bit_count() == self.o.bit_count()
        _set(after, "x", self.x | bit if x_moves else self.x)
        _set(after, "o", self.o if x_moves else self.o | bit)
        return after


def _validate(size: int, k: int, x: int, o: int) -> None:
    if size not in SIZES:
        raise IllegalMoveError(f"size must be 3, 4 or 5, got {size!r}")
    if not isinstance(k, int) or not 3 <= k <= size:
        raise IllegalMoveError(f"k must be from 3 to {size}, got {k!r}")
    full = (1 << size * size) - 1
    if x & o or (x | o) & ~full or x < 0 or o < 0:
        raise IllegalMoveError("marks overlap or fall off the board")
    nx, no = x.bit_count(), o.bit_count()
    if nx not in (no, no + 1):
        raise IllegalMoveError(f"impossible counts: {nx} X and {no} O (X moves first)")
    x_won = _winning_lines(size, k, x)
    o_won = _winning_lines(size, k, o)
    if x_won and o_won:
        raise IllegalMoveError("both X and O have a line")
    for won, last_mover in ((x_won, nx == no + 1), (o_won, nx == no)):
        if not won:
            continue
        if not last_mover:
            raise IllegalMoveError("the winner's opponent has moved after the game ended")
        common = full
        for line in won:
            common &= line
        if not common:
            raise IllegalMoveError("the winner has lines that one last move cannot complete")
