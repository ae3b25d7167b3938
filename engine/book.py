"""The opening books: exact values and the engine's moves for early big-board positions.

The file engine/data/book.txt is written by scripts/build_book.py; engine/data/traps.txt, the
trap book, by scripts/build_traps.py: the moves `unbeatable` plays in every position it can
face early in a game on every big board, weighed for traps without a time budget (what
engine.trapsearch would play given the time), so that those moves are lookups; its positions are
as they stand, not canonical (`trap_moves`). Each line of either reads
``size k board-text value moves``: the board in canonical form (the least of its eight symmetric
images), its exact value (engine.evaluate's scale) and the engine's optimal moves in that frame,
separated by commas, the first the one it plays without `rng`; or ``-`` in place of the moves
where the book keeps only the value (the engine's opponent is to move, or the position is off
the engine's lines). Lines starting with ``#`` are comments (the builder states the coverage
there). It is read lazily, once per process; a malformed file raises BookError naming the line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from engine.board import Board
from engine.rules import rules

DATA = os.path.join(os.path.dirname(__file__), "data", "book.txt")
TRAPS = os.path.join(os.path.dirname(__file__), "data", "traps.txt")
Entry = tuple[int, tuple[int, ...]]  # (value, moves in the canonical frame, maybe none)
Entries = dict[tuple[int, int, int, int], Entry]
_BOOK: Entries | None = None
_MAX_PLY: dict[tuple[int, int], int] = {}  # (size, k) -> the highest ply the book holds
_TRAP_BOOK: Entries | None = None


class BookError(ValueError):
    """The book file is malformed; the message names the line and what is wrong with it."""


def canonical(board: Board) -> tuple[Board, int]:
    """The least of the board's eight symmetric images, and the index of the symmetry used."""
    canon, ts = _canonical(board)
    return canon, ts[0]


def _canonical(board: Board) -> tuple[Board, list[int]]:
    """The canonical image and every symmetry that maps the board onto it (the first least)."""
    r = rules(board.size, board.k)
    best: tuple[int, int] | None = None
    best_ts: list[int] = []
    for t, perm in enumerate(r.perms):
        x = o = 0
        for cell in range(r.cells):
            if board.x >> cell & 1:
                x |= 1 << perm[cell]
            elif board.o >> cell & 1:
                o |= 1 << perm[cell]
        if best is None or (x, o) < best:
            best, best_ts = (x, o), [t]
        elif (x, o) == best:
            best_ts.append(t)
    assert best is not None
    return Board(board.size, board.k, best[0], best[1]), best_ts


def parse(text: str) -> Entries:
    """The entries of a book file's text: (size, k, x, o) -> (value, move or -1)."""
    entries: Entries = {}
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
    cells = () if move == "-" else tuple(int(m) for m in move.split(","))
    taken = board.x | board.o
    for cell in cells:
        if not 0 <= cell < size * size or taken >> cell & 1:
            raise ValueError(f"move {cell} is not a legal move")
    if len(set(cells)) != len(cells):
        raise ValueError("a move is listed twice")
    return (size, k, board.x, board.o), (value, cells)


def shipped(path: str) -> str:
    """The text of a data file the engine ships ("" if it is missing)."""
    if not os.path.isfile(path):
        return ""
    with open(path, encoding="ascii") as f:
        return f.read()


def highest_plies(keys: Iterable[tuple[int, int, int, int]]) -> dict[tuple[int, int], int]:
    """(size, k) -> the highest ply among `keys`, boards as (size, k, x, o)."""
    plies: dict[tuple[int, int], int] = {}
    for size, k, x, o in keys:
        plies[size, k] = max(x.bit_count() + o.bit_count(), plies.get((size, k), -1))
    return plies


def replies(board: Board) -> set[Board]:
    """The canonical positions after every legal move of `board` that does not end the game."""
    children = (board.play(cell) for cell in board.legal_moves())
    return {canonical(child)[0] for child in children if child.outcome() is None}


def openings(size: int, k: int, max_ply: int) -> list[Board]:
    """Every running position up to `max_ply` up to symmetry (canonical), ply by ply."""
    out: list[Board] = []
    level = {Board.empty(size, k)}
    for _ in range(max_ply + 1):
        out += sorted(level, key=lambda b: (b.x, b.o))
        level = {child for board in level for child in replies(board)}
    return out


def _load() -> Entries:
    global _BOOK
    if _BOOK is None:
        _BOOK = parse(shipped(DATA))
        _MAX_PLY.update(highest_plies(_BOOK))
    return _BOOK


def _load_traps() -> Entries:
    global _TRAP_BOOK
    if _TRAP_BOOK is None:
        _TRAP_BOOK = read_traps(shipped(TRAPS))
    return _TRAP_BOOK


_XS = str.maketrans({"X": "1", "O": "0", ".": "0", "/": None})
_OS = str.maketrans({"X": "0", "O": "1", ".": "0", "/": None})


def read_traps(text: str) -> Entries:
    """The trap book's entries as `parse` reads them, without building and checking a board for
    each of its 67,000 lines (in less than half the time: every engine process reads it as it
    warms up). The shipped file passes `parse`'s checks (tests/engine/test_trap_book.py); a line
    it cannot read at all still raises BookError."""
    entries: Entries = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw or raw.startswith("#"):
            continue
        try:
            size, k, board, value, moves = raw.split()
            x, o = (int(board.translate(side)[::-1], 2) for side in (_XS, _OS))
            cells = () if moves == "-" else tuple(map(int, moves.split(",")))
            entries[int(size), int(k), x, o] = (int(value), cells)
        except ValueError as exc:
            raise BookError(f"trap book line {number}: {exc}: {raw!r}") from None
    return entries


def _find(board: Board) -> tuple[Entry, list[int]] | None:
    if board.size == 3:
        return None  # the 3x3 game is solved whole (engine.small); the book has no 3x3 lines
    book = _load()
    if board.ply > _MAX_PLY.get((board.size, board.k), -1):
        return None
    canon, ts = _canonical(board)
    entry = book.get((board.size, board.k, canon.x, canon.o))
    return None if entry is None else (entry, ts)


def value(board: Board) -> int | None:
    """The exact value of `board` if the book holds it."""
    found = _find(board)
    return None if found is None else found[0][0]


def lookup(board: Board) -> list[int]:
    """The book's moves for `board` in the board's own frame, or an empty list.

    Each stored move is mapped back through every symmetry that takes the board onto its
    canonical form, so a symmetric position offers every equivalent cell. The first is the move
    to play without `rng`.
    """
    found = _find(board)
    if found is None:
        return []
    (_, moves), ts = found
    perms = rules(board.size, board.k).perms
    out: list[int] = []
    for move in moves:
        for t in ts:
            # perm maps original -> canonical; undo it for the stored move.
            cell = perms[t].index(move)
            if cell not in out:
                out.append(cell)
    return out


def trap_moves(board: Board) -> list[int]:
    """The trap book's moves for `board`: `unbeatable`'s equally good choices, or an empty list.

    The trap book holds positions as they stand, not up to symmetry: the weighing models the
    gentler levels' natural move, whose ties fall by cell, so a position and its mirror image
    may get different moves.
    """
    if board.size == 3:
        return []
    entry = _load_traps().get((board.size, board.k, board.x, board.o))
    return [] if entry is None else list(entry[1])


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
