"""The shipped 3x3 table: it is the solved game, and a missing or damaged file falls back safely."""

from __future__ import annotations

from pathlib import Path

from engine import small


def test_shipped_table_is_the_built_table() -> None:
    """The data file reads back exactly as solving the game gives (values, moves, weights)."""
    shipped = small.read(small.DATA)
    assert shipped is not None
    assert shipped == small.build()


def test_missing_or_damaged_file_reads_as_none(tmp_path: Path) -> None:
    """A missing, truncated or foreign file is not taken for a table."""
    assert small.read(str(tmp_path / "absent.bin")) is None
    good = Path(small.DATA).read_bytes()
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(good[: len(good) // 2])
    assert small.read(str(damaged)) is None
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(b"not a table")
    assert small.read(str(foreign)) is None


def test_dump_then_read_round_trip(tmp_path: Path) -> None:
    """dump writes what read returns."""
    path = str(tmp_path / "table.bin")
    small.dump(path)
    assert small.read(path) == small.build()
