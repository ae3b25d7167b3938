"""The opening book: optimal moves for the early positions of the big boards, computed offline.

The file engine/data/book.txt is written by scripts/build_book.py; each line reads
``size k board-text value cell,cell,...`` with the board in canonical form (the least of its eight
symmetric images), its exact value (engine.evaluate's scale) and every optimal move in that
frame. It is read lazily, once per process.
"""

from __future__ import annotations

from engine.board import Board
from engine.rules import rules

Entry = tuple[int, tuple[int, ...]]
_BOOK: dict[tuple[int, int, int, int], Entry] | None = None
_MAX_PLY = -1


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


def _load() -> dict[tuple[int, int, int, int], Entry]:
    global _BOOK, _MAX_PLY
    if _BOOK is None:
        entries: dict[tuple[int, int, int, int], Entry] = {}
        from importlib import resources  # here, not at import: only big boards need the book

        path = resources.files("engine") / "data" / "book.txt"
        if path.is_file():
            for raw in path.read_text(encoding="ascii").splitlines():
                if not raw or raw.startswith("#"):
                    continue
                size, k, text, value, moves = raw.split()
                b = Board.from_string(text, int(k))
                cells = tuple(int(m) for m in moves.split(","))
                entries[(int(size), int(k), b.x, b.o)] = (int(value), cells)
        _BOOK = entries
        _MAX_PLY = max((x.bit_count() + o.bit_count() for _, _, x, o in entries), default=-1)
    return _BOOK


def value(board: Board) -> int | None:
    """The exact value of `board` if the book holds it."""
    if board.size == 3 or board.ply > _max_ply():
        return None
    canon, _ = canonical(board)
    entry = _load().get((board.size, board.k, canon.x, canon.o))
    return None if entry is None else entry[0]


def _max_ply() -> int:
    _load()
    return _MAX_PLY


def lookup(board: Board) -> list[int]:
    """The optimal moves of `board` if the book holds it, else an empty list."""
    if board.size == 3 or board.ply > _max_ply():
        return []
    canon, t = canonical(board)
    entry = _load().get((board.size, board.k, canon.x, canon.o))
    if entry is None:
        return []
    moves = entry[1]
    inverse = rules(board.size, board.k).perms[t]
    # perm maps original -> canonical; undo it for each stored move.
    back = {image: cell for cell, image in enumerate(inverse)}
    return sorted(back[m] for m in moves)
