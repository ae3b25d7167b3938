"""What the puzzle tests share: a puzzle board's puzzle and attempt, a click on one of its cells,
and a puzzle solved to the end by its stored solution and defence."""

from __future__ import annotations

from typing import Any

from simcord import Env

from devkit.simcord_board import cells, text
from engine.puzzles import Attempt, by_id, hint, play


def puzzle_of(env: Env, message: Any) -> Any:
    """The puzzle a board message shows, read from its title."""
    title = text(env, message).split("\n")[0]
    puzzle = by_id(title.split("Puzzle ")[1].split(" ")[0])
    assert puzzle is not None
    return puzzle


def attempt_id(env: Env, message: Any, size: int) -> int:
    """The attempt a board message belongs to, read from its buttons."""
    return int(cells(env, message, size)[0].custom_id.split(":")[1])


async def click_cell(env: Env, player: Any, message: Any, size: int, cell: int) -> Any:
    """Click the button of `cell` on the board (whatever ply it was drawn at)."""
    button = cells(env, message, size)[cell]
    return await player.click(message, custom_id=button.custom_id)


async def solve(env: Env, player: Any, message: Any) -> Attempt:
    """Play the puzzle's fastest line by clicking; the attempt as the engine saw it."""
    puzzle = puzzle_of(env, message)
    size = puzzle.board.size
    attempt = Attempt(puzzle)
    while attempt.state == "playing":
        _, cell = hint(attempt)
        result = await click_cell(env, player, message, size, cell)
        assert result.acknowledged and not result.ephemeral
        attempt = play(attempt, cell)
    return attempt


async def solve_rest(env: Env, player: Any, message: Any, attempt: Attempt) -> Attempt:
    """Finish an attempt already started by clicking winning moves."""
    size = attempt.puzzle.board.size
    while attempt.state == "playing":
        _, cell = hint(attempt)
        await click_cell(env, player, message, size, cell)
        attempt = play(attempt, cell)
    return attempt
