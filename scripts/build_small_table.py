"""Write engine/data/small3.bin: the solved 3x3 table the engine reads on its first 3x3 move.

python scripts/build_small_table.py
"""

from __future__ import annotations

from engine import small


def main() -> None:
    """Build the table and write it where the engine reads it."""
    small.dump(small.DATA)
    table = small.read(small.DATA)
    assert table == small.build(), "the written table does not read back equal"
    print(f"wrote {len(table)} positions to {small.DATA}")


if __name__ == "__main__":
    main()
