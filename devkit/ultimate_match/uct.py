"""The C UCT baseline (devkit/ultimate_match/uct.c): compiled on first use, loaded with ctypes.

The library is built with `cc -O2 -shared -fPIC` into devkit/ultimate_match/.build/, named by
the hash of the source and the compiler command, so an edit to the source builds a fresh one.
Positions are passed as cells alone (0 empty, 1 X, 2 O, global indices 0-80 in reading order of the
9x9 grid) with the side to move and the small board the last move sends to: the C side works out
which small boards are closed by itself.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

SOURCE = Path(__file__).with_name("uct.c")
BUILD_DIR = Path(__file__).with_name(".build")
FLAGS = ("-O2", "-shared", "-fPIC")
EXPLORATION = 2.0

Cells = ctypes.c_byte * 81
_loaded: dict[Path, ctypes.CDLL] = {}


class CompilerMissing(RuntimeError):
    """No C compiler (`cc`, or $CC) on this machine."""


def compiler() -> str:
    """The C compiler: $CC when set, else `cc`; raises CompilerMissing when neither is found."""
    name = os.environ.get("CC", "cc")
    found = shutil.which(name)
    if found is None:
        raise CompilerMissing(f"no C compiler named {name!r} on PATH")
    return found


def build(build_dir: Path | None = None) -> Path:
    """Compile the baseline unless a library of this source is already built; return its path."""
    cc = compiler()
    folder = build_dir or BUILD_DIR
    key = hashlib.sha256(SOURCE.read_bytes() + " ".join((cc, *FLAGS)).encode()).hexdigest()[:16]
    target = folder / f"uct-{key}.so"
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(suffix=".so", dir=folder)
    os.close(fd)
    try:
        subprocess.run(
            [cc, *FLAGS, "-o", partial, str(SOURCE), "-lm"],
            check=True,
            capture_output=True,
            text=True,
        )
        os.replace(partial, target)  # atomic: concurrent builds never load half a file
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target


def library(build_dir: Path | None = None) -> ctypes.CDLL:
    """The loaded baseline (built if needed), with its functions' signatures declared."""
    path = build(build_dir)
    if path in _loaded:
        return _loaded[path]
    lib = ctypes.CDLL(str(path))
    cells_p = ctypes.POINTER(ctypes.c_byte)
    int_p = ctypes.POINTER(ctypes.c_int)
    lib.uct_move.argtypes = [
        cells_p,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_ulonglong,
        ctypes.c_double,
    ]
    lib.uct_move.restype = ctypes.c_int
    lib.uct_legal.argtypes = [cells_p, ctypes.c_int, int_p]
    lib.uct_legal.restype = ctypes.c_int
    lib.uct_result.argtypes = [cells_p]
    lib.uct_result.restype = ctypes.c_int
    lib.uct_random_game.argtypes = [ctypes.c_ulonglong, int_p, int_p]
    lib.uct_random_game.restype = ctypes.c_int
    _loaded[path] = lib
    return lib


def forced_board(moves: Sequence[int]) -> int:
    """The small board the last move sends to (its cell within its own small board), or -1."""
    if not moves:
        return -1
    row, col = divmod(moves[-1], 9)
    return (row % 3) * 3 + col % 3


def cells_of(moves: Sequence[int]) -> list[int]:
    """The 81 cells after `moves` (X first, alternating): 0 empty, 1 X, 2 O."""
    cells = [0] * 81
    for ply, cell in enumerate(moves):
        cells[cell] = 1 if ply % 2 == 0 else 2
    return cells


class Uct:
    """The baseline's functions on positions given as the moves played from the empty board."""

    def __init__(self, build_dir: Path | None = None) -> None:
        self.path = build(build_dir)
        self.lib = library(build_dir)

    def legal(self, moves: Sequence[int]) -> list[int]:
        """Legal moves (global cells, ascending) after `moves`; empty once the game is over."""
        out = (ctypes.c_int * 81)()
        n = self.lib.uct_legal(Cells(*cells_of(moves)), forced_board(moves), out)
        return list(out[:n])

    def result(self, moves: Sequence[int]) -> int:
        """0 while the game runs, 1 when X has won, 2 when O has won, 3 for a draw."""
        return int(self.lib.uct_result(Cells(*cells_of(moves))))

    def move(
        self, moves: Sequence[int], sims: int, seed: int, exploration: float = EXPLORATION
    ) -> int:
        """UCT's move after `moves`, from a fresh tree of `sims` simulations seeded by `seed`."""
        to_move = 1 if len(moves) % 2 == 0 else 2
        cell = self.lib.uct_move(
            Cells(*cells_of(moves)),
            to_move,
            forced_board(moves),
            sims,
            seed & 0xFFFFFFFFFFFFFFFF,
            exploration,
        )
        if cell < 0:
            raise RuntimeError(f"uct_move failed ({cell}) after moves {list(moves)}")
        return int(cell)

    def random_game(self, seed: int) -> tuple[list[int], int]:
        """A uniformly random game from the empty board: its moves and its result (as `result`)."""
        out = (ctypes.c_int * 81)()
        length = ctypes.c_int()
        result = self.lib.uct_random_game(seed & 0xFFFFFFFFFFFFFFFF, out, ctypes.byref(length))
        return list(out[: length.value]), int(result)
