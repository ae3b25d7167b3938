"""The compiled search (csearch.c, bound by _core.c); see `engine.ultimate.search.run`."""

from collections.abc import Sequence

def root(
    x_marks: Sequence[int],
    o_marks: Sequence[int],
    side: int,
    target: int,
    moves: Sequence[int],
    max_depth: int,
    seconds: float | None,
    weights: tuple[float, float, float],
    /,
) -> tuple[int, int, int, int, list[int]]: ...
def set_table(table: object, /) -> None: ...
