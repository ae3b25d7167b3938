"""The opening book: exact values and the engine's moves for early big-board positions.

The file engine/data/book.txt is written by scripts/build_book.py. Each line reads
``size k board-text value move``: the board in canonical form (the least of its eight symmetric
images), its exact value (engine.evaluate's scale) and the engine's optimal move in that frame,
or ``-`` in place of the move for a position where the engine's opponent is to move (the book
keeps only its value). Lines starting with ``#`` are comments (the builder states the coverage
there). It is read lazily, once per process; a malformed file raises BookError naming the line.
"""

from __future__ import annotations

import os

from engine.board import Board
from engine.rules import rules

DATA = os.path.join(os.path.dirname(__file__), "data", "book.txt")
Entry = tuple[int, int]  # (value, move in the canonical frame or -1)
_BOOK: dict[tuple[int, int, int, int], Entry] | None = None
_MAX_PLY: dict[tuple[int, int], int] = {}  # (size, k) -> the highest ply the book holds


class BookError(ValueError):
    """The book file is malformed; the message names the line and what is wrong with it."""


def canonical(board: Board) -> tuple[Board, int]:
    """The least of the board's eight symmetric images, and the index of the symmetry used."""
    r = rules(board.size, board.k)
    best: tuple[int, int] | None = None
    best_t = 0
    for t, perm in enumerate(r.perms):
        x = o = 0
        for cell in range(r.cells):
            if board.x >> cell & 1:
                x |= 1 << perm[cell]
            elif board.o >> cell & 1:
                o |= 1 << perm[cell]
        if best is None or (x, o) < best:
            best, best_t = (x, o), t
    assert best is not None
    return Board(board.size, board.k, best[0], best[1]), best_t


def parse(text: str) -> dict[tuple[int, int, int, int], Entry]:
    """The entries of a book file's text: (size, k, x, o) -> (value, move or -1)."""
    entries: dict[tuple[int, int, int, int], Entry] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw or raw.startswith("#"):
            continue
        try:
            key, entry = _entry(raw)
        except (ValueError, IndexError) as exc:
            raise BookError(f"book line {number}: {exc}: {raw!r}") from None
        entries[key] = entry
    return entries


def _entry(raw: str) -> tuple[tuple[int, int, int, int], Entry]:
    fields = raw.split()
    if len(fields) != 5:
        raise ValueError(f"expected 5 fields, got {len(fields)}")
    size, k, value = int(fields[0]), int(fields[1]), int(fields[3])
    text, move = fields[2], fields[4]
    board = Board.from_string(text, k)
    if board.size != size:
        raise ValueError(f"board is {board.size}x{board.size}, line says {size}")
    if board.outcome() is not None:
        raise ValueError("the game is over")
    if not -100 < value < 100:
        raise ValueError(f"value {value} out of range")
    cell = -1 if move == "-" else int(move)
    if cell != -1 and cell not in board.legal_moves():
        raise ValueError(f"move {cell} is not a legal move")
    return (size, k, board.x, board.o), (value, cell)


def _load() -> dict[tuple[int, int, int, int], Entry]:
    global _BOOK
    if _BOOK is None:
        text = ""
        if os.path.isfile(DATA):
            with open(DATA, encoding="ascii") as f:
                text = f.read()
        _BOOK = parse(text)
        for size, k, x, o in _BOOK:
            ply = x.bit_count() + o.bit_count()
            _MAX_PLY[size, k] = max(ply, _MAX_PLY.get((size, k), -1))
    return _BOOK


def _find(board: Board) -> tuple[Entry, int] | None:
    if board.size == 3:
        return None  # the 3x3 game is solved whole (engine.small); the book has no 3x3 lines
    book = _load()
    if board.ply > _MAX_PLY.get((board.size, board.k), -1):
        return None
    canon, t = canonical(board)
    entry = book.get((board.size, board.k, canon.x, canon.o))
    return None if entry is None else (entry, t)


def value(board: Board) -> int | None:
    """The exact value of `board` if the book holds it."""
    found = _find(board)
    return None if found is None else found[0][0]


def lookup(board: Board) -> list[int]:
    """The book's move for `board` (in the board's own frame) as a list, or an empty list."""
    found = _find(board)
    if found is None or found[0][1] < 0:
        return []
    (_, move), t = found
    # perm maps original -> canonical; undo it for the stored move.
    return [rules(board.size, board.k).perms[t].index(move)]


def move_values(board: Board) -> dict[int, int] | None:
    """Every legal move's exact value (engine.evaluate's scale) if the book holds every result.

    A move that ends the game needs no entry: a win is 99, a full board 0.
    """
    if board.size == 3:
        return None
    _load()
    if board.ply + 1 > _MAX_PLY.get((board.size, board.k), -1):
        return None
    out = {}
    for cell in board.legal_moves():
        child = board.play(cell)
        outcome = child.outcome()
        if outcome is not None:
            out[cell] = 0 if outcome.winner is None else 99
            continue
        known = value(child)
        if known is None:
            return None
        # The child's value for the opponent, one ply further: flip it and add the move.
        out[cell] = -known + (known > 0) - (known < 0)
    return out
