"""The ultimate board: an immutable, hashable, picklable position with its text round trip."""

from __future__ import annotations

from engine.board import IllegalMoveError, Marks, Outcome
from engine.ultimate.geometry import (
    FULL,
    LINE_CELLS,
    LINES,
    TO_GLOBAL,
    TO_LOCAL,
    WON,
    cell_name,
    parse_cell,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.board import Side


class UltimateBoard(Marks):
    """A position: the marks of each side and the last move, which says where the next goes.

    `x` and `o` are 81-bit masks in the engine's board-major numbering (bit ``9 * b + c`` is
    cell c of small board b, see `engine.ultimate.geometry`); `last` is the global cell of the
    last move, or None where the side to move may choose any open small board (the start, or a
    position read from text without one). Build one with `empty`, `from_moves` or `from_string`;
    the public cell numbers are global (reading order of the 9x9 grid).
    """

    __slots__ = ("_state", "last", "o", "x")
    x: int
    o: int
    last: int | None
    _state: tuple[int, int, int]  # `_status(x, o)`, worked out once

    def __init__(self, x: int = 0, o: int = 0, last: int | None = None) -> None:
        _validate(x, o, last)
        self._set(x, o, last)

    def _set(self, x: int, o: int, last: int | None) -> None:
        _set = object.__setattr__
        _set(self, "x", x)
        _set(self, "o", o)
        _set(self, "last", last)
        _set(self, "_state", _status(x, o))

    @classmethod
    def _after(cls, x: int, o: int, last: int) -> UltimateBoard:
        """A board reached by a legal move (`play` has checked it): not validated again."""
        board = cls.__new__(cls)
        board._set(x, o, last)
        return board

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UltimateBoard):
            return NotImplemented
        return (self.x, self.o, self.last) == (other.x, other.o, other.last)

    def __hash__(self) -> int:
        return hash((self.x, self.o, self.last, 81))

    def __reduce__(self) -> tuple[type[UltimateBoard], tuple[int, int, int | None]]:
        return UltimateBoard, (self.x, self.o, self.last)

    @classmethod
    def empty(cls) -> UltimateBoard:
        """The empty board: X to move, anywhere."""
        return cls()

    @classmethod
    def from_moves(cls, moves: Iterable[int]) -> UltimateBoard:
        """The board after playing `moves` (global cells, X first); IllegalMoveError as `play`."""
        board = cls()
        for cell in moves:
            board = board.play(cell)
        return board

    @classmethod
    def from_string(cls, text: str) -> UltimateBoard:
        """Read nine rows of nine cells separated by "/" (X, O or "."), then, after a space, the
        last move's name or "-" (none); `to_string` gives this form."""
        parts = text.split()
        if len(parts) not in (1, 2):
            raise IllegalMoveError('expected 9 rows separated by "/", a space, then the last move')
        rows = parts[0].split("/")
        if len(rows) != 9:
            raise IllegalMoveError(f"the board must have 9 rows, got {len(rows)}")
        x = o = 0
        for r, row in enumerate(rows):
            if len(row) != 9:
                raise IllegalMoveError(f"row {r + 1} has {len(row)} cells, expected 9")
            for c, ch in enumerate(row):
                bit = 1 << TO_LOCAL[9 * r + c]
                if ch in "Xx":
                    x |= bit
                elif ch in "Oo":
                    o |= bit
                elif ch != ".":
                    raise IllegalMoveError(f"unknown character {ch!r} in row {r + 1}")
        last = None
        if len(parts) == 2 and parts[1] != "-":
            try:
                last = parse_cell(parts[1])
            except ValueError as error:
                raise IllegalMoveError(str(error)) from None
        return cls(x, o, last)

    def to_string(self) -> str:
        """Nine rows separated by "/", a space and the last move (reads back with from_string)."""
        chars = [self.cell(cell) for cell in range(81)]
        rows = "/".join("".join(chars[9 * r : 9 * r + 9]) for r in range(9))
        return f"{rows} {'-' if self.last is None else cell_name(self.last)}"

    def __repr__(self) -> str:
        return f"UltimateBoard.from_string({self.to_string()!r})"

    def cell(self, index: int) -> str:
        """The mark at global cell `index`: "X", "O" or "."."""
        bit = 1 << TO_LOCAL[index]
        return "X" if self.x & bit else "O" if self.o & bit else "."

    def small(self, board: int) -> tuple[int, int]:
        """The 9-bit masks of X's and O's marks in small board `board` (0-8)."""
        return self.x >> 9 * board & FULL, self.o >> 9 * board & FULL

    def small_winner(self, board: int) -> Side | None:
        """Who won small board `board`, or None."""
        xs, os = self.small(board)
        return "X" if WON[xs] else "O" if WON[os] else None

    def closed(self) -> int:
        """A 9-bit mask of the closed small boards: won, or full."""
        return self._state[2]

    def board_to_play(self) -> int | None:
        """The small board (0-8) the side to move must play in, or None where any open one may
        be chosen (the start, a closed target, and after the end of the game)."""
        if self.last is None or self.outcome() is not None:
            return None
        target = TO_LOCAL[self.last] % 9
        return None if self.closed() >> target & 1 else target

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the winner (None for a draw) and, as `line`, the small
        boards (0-8) of the winning line."""
        won_x, won_o, closed = self._state
        if not won_x and not won_o and closed != FULL:
            return None
        for mark, won in (("X", won_x), ("O", won_o)):
            for line, cells in zip(LINES, LINE_CELLS, strict=True):
                if won & line == line:
                    return Outcome(mark, cells)  # type: ignore[arg-type]
        return Outcome(None, ()) if closed == FULL else None

    def legal_moves(self) -> tuple[int, ...]:
        """The global cells the side to move may play, in increasing order; none once over."""
        if self.outcome() is not None:
            return ()
        closed = self.closed()
        target = self.board_to_play()
        boards = [target] if target is not None else [b for b in range(9) if not closed >> b & 1]
        taken = self.x | self.o
        return tuple(
            sorted(
                TO_GLOBAL[9 * b + c] for b in boards for c in range(9) if not taken >> 9 * b + c & 1
            )
        )

    def play(self, cell: int) -> UltimateBoard:
        """The board after the side to move marks global cell `cell`."""
        if not isinstance(cell, int) or not 0 <= cell < 81:
            raise IllegalMoveError(f"cell {cell!r} is off the board (0 to 80)")
        if self.outcome() is not None:
            raise IllegalMoveError("the game is over")
        local = TO_LOCAL[cell]
        bit = 1 << local
        name = cell_name(cell)
        if (self.x | self.o) & bit:
            raise IllegalMoveError(f"{name} is already taken")
        board = local // 9
        if self.closed() >> board & 1:
            raise IllegalMoveError(f"{name} is in a small board that is closed")
        target = self.board_to_play()
        if target is not None and board != target:
            raise IllegalMoveError(f"{name} is not in the small board to play")
        if self.turn == "X":
            return UltimateBoard._after(self.x | bit, self.o, cell)
        return UltimateBoard._after(self.x, self.o | bit, cell)


def _status(x: int, o: int) -> tuple[int, int, int]:
    """9-bit masks of the small boards won by X, won by O, and closed (won or full)."""
    won_x = won_o = closed = 0
    for b in range(9):
        xs, os = x >> 9 * b & FULL, o >> 9 * b & FULL
        if WON[xs]:
            won_x |= 1 << b
        elif WON[os]:
            won_o |= 1 << b
        if WON[xs] or WON[os] or xs | os == FULL:
            closed |= 1 << b
    return won_x, won_o, closed


def _validate(x: int, o: int, last: int | None) -> None:
    if not isinstance(x, int) or not isinstance(o, int) or x < 0 or o < 0 or x & o:
        raise IllegalMoveError("marks overlap or fall off the board")
    if (x | o) >> 81:
        raise IllegalMoveError("marks overlap or fall off the board")
    nx, no = x.bit_count(), o.bit_count()
    if nx not in (no, no + 1):
        raise IllegalMoveError(f"impossible counts: {nx} X and {no} O (X moves first)")
    for b in range(9):
        if WON[x >> 9 * b & FULL] and WON[o >> 9 * b & FULL]:
            raise IllegalMoveError(f"both X and O have a line in small board {b + 1}")
    won_x, won_o, _ = _status(x, o)
    if WON[won_x] and WON[won_o]:
        raise IllegalMoveError("both X and O have a line of small boards")
    if last is not None:
        if not isinstance(last, int) or not 0 <= last < 81:
            raise IllegalMoveError(f"last move {last!r} is off the board (0 to 80)")
        mover = x if nx == no + 1 else o
        if not mover >> TO_LOCAL[last] & 1:
            raise IllegalMoveError(
                f"the last move {cell_name(last)} must hold the mark of the side that moved last"
            )
    for won, mover in ((won_x, nx == no + 1), (won_o, nx == no)):
        if WON[won] and not mover:
            raise IllegalMoveError("the winner's opponent has moved after the game ended")
