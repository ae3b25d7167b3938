"""Geometry of a k-in-a-row board: winning lines as bitmasks, and the board's eight symmetries."""

from __future__ import annotations

from functools import cache

SIZES = (3, 4, 5)
# The value scale of `evaluate`: a win whose last move is n plies away is WIN - n.
WIN = 100


class Rules:
    """Precomputed tables for one (size, k): lines, lines through each cell, symmetries.

    One shared instance per (size, k) (see `rules`); treat it as read-only.
    """

    __slots__ = ("cell_lines", "cells", "full", "k", "lines", "perms", "row_maps", "size")

    def __init__(
        self,
        size: int,
        k: int,
        cells: int,
        full: int,
        lines: tuple[int, ...],
        cell_lines: tuple[tuple[int, ...], ...],
        perms: tuple[tuple[int, ...], ...],
        row_maps: tuple[tuple[tuple[int, ...], ...], ...],
    ) -> None:
        self.size = size
        self.k = k
        self.cells = cells
        self.full = full
        self.lines = lines
        self.cell_lines = cell_lines
        self.perms = perms
        self.row_maps = row_maps


def default_k(size: int) -> int:
    """The default k: 3 on 3x3, 4 on bigger boards."""
    return 3 if size == 3 else 4


def _lines(size: int, k: int) -> tuple[int, ...]:
    out: list[int] = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * size + c + dc * i)
                    out.append(mask)
    return tuple(out)


def _perms(size: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square, each as perm[cell] = image cell (identity first)."""
    n = size - 1
    perms = []
    for t in range(8):
        perm = []
        for cell in range(size * size):
            r, c = divmod(cell, size)
            for _ in range(t % 4):
                r, c = c, n - r  # a quarter turn
            if t >= 4:
                c = n - c  # then a mirror
            perm.append(r * size + c)
        perms.append(tuple(perm))
    return tuple(perms)


@cache
def rules(size: int, k: int) -> Rules:
    """The tables for a `size` x `size` board where `k` in a row wins (validated by Board)."""
    lines = _lines(size, k)
    cells = size * size
    cell_lines = tuple(tuple(m for m in lines if m >> c & 1) for c in range(cells))
    perms = _perms(size)
    # row_maps[s][r][bits]: image under symmetry s of the cells `bits` of row r.
    row_maps = []
    for perm in perms:
        per_row = []
        for r in range(size):
            table = []
            for bits in range(1 << size):
                img = 0
                for c in range(size):
                    if bits >> c & 1:
                        img |= 1 << perm[r * size + c]
                table.append(img)
            per_row.append(tuple(table))
        row_maps.append(tuple(per_row))
    return Rules(size, k, cells, (1 << cells) - 1, lines, cell_lines, perms, tuple(row_maps))
