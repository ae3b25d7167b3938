"""Classic tic-tac-toe: square boards from 3x3 to 5x5 with k in a row (``engine.Board``).

The grid is the board's marks (``GameRecord.look``) with column letters and row numbers on boards
bigger than 3x3; on a board that takes reactions, each empty cell shows the reaction that plays
it (3x3, 4x4), and on 5x5 the column letters and row numbers are the reactions (a column, then a
row: ``bot.games.look.keys``). One action row of cell buttons per board row.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import engine
from bot.games import look as looks
from bot.games import review
from bot.games.kinds.base import (
    ACTION_ROW,
    BUTTON,
    CORNER,
    GAP,
    SECONDARY,
    SUCCESS,
    Kind,
    Sketch,
    labels,
    marks,
)
from bot.games.record import Ending, GameRecord, Status
from bot.i18n import N_, Text

COLUMN_LABELS = looks.LETTERS
ROW_LABELS = looks.KEYCAPS
# Each cell's name by board size: A1, B1, ... C3 on 3x3, up to E5 on 5x5.
NAMES = {
    size: tuple(engine.cell_name(c, size) for c in range(size * size)) for size in engine.SIZES
}


class Classic(Kind):
    """Square boards, k in a row; the engine solves them exactly."""

    name: ClassVar[str] = "classic"
    levels: ClassVar[tuple[str, ...]] = engine.LEVELS
    strongest: ClassVar[str] = "unbeatable"
    # On 4x4 and 5x5 the click's response waits this long for the engine's reply
    # (docs/figures.md, "Under load"): nearly every reply needs no search and comes in well
    # under a millisecond.
    reply_wait: ClassVar[float] = 0.05
    budget: ClassVar[float] = engine.MOVE_BUDGET
    quick: ClassVar[bool] = True  # a win, a forced block, the opening book
    one_grid: ClassVar[bool] = True
    missed_wins: ClassVar[bool] = True

    def build(self, game: GameRecord) -> engine.Board:
        return engine.Board.from_moves(game.moves, size=game.size, k=game.k)

    def cells(self, game: GameRecord) -> int:
        return game.size * game.size

    def cell_name(self, game: GameRecord, cell: int) -> str:
        return engine.cell_name(cell, game.size)

    def winning_line(self, game: GameRecord) -> tuple[int, ...]:
        """The cells of the winning line, or () when there is none."""
        if game.ending is not Ending.WIN:
            return ()
        outcome = self.position(game).outcome()
        return tuple(outcome.line) if outcome is not None and outcome.line else ()

    def line_names(self, game: GameRecord) -> str:
        return ", ".join(engine.cell_name(c, game.size) for c in self.winning_line(game))

    def title(self, size: int, k: int) -> Text:
        return N_("Tic-tac-toe · {size}×{size}, {k} in a row", size=size, k=k)

    def grid(self, game: GameRecord, *, keyed: bool, picked: int | None = None) -> str:
        size, look = game.size, game.look
        keyed = keyed and looks.picks_cell(size)  # on 5x5 the labels are the keys
        joiner = GAP if keyed and size == 4 else ""  # letters side by side would make flags
        labelled = size > 3 and not keyed  # a keyed 4x4 cell names itself
        empties = looks.keys(size) if keyed else [look.empty] * (size * size)
        shown = {"X": look.x, "O": look.o}
        found = marks(game.moves, size * size)
        symbols = [shown[m] if m else empties[cell] for cell, m in enumerate(found)]
        rows = [joiner.join(symbols[r * size : (r + 1) * size]) for r in range(size)]
        if labelled:
            rows = [CORNER + GAP.join(COLUMN_LABELS[:size])] + [
                label + row for label, row in zip(ROW_LABELS, rows, strict=False)
            ]
        return "\n".join(rows)

    def sketch(self, game: GameRecord) -> Sketch:
        columns, rows = labels(self, game, game.size)
        return Sketch(
            size=game.size,
            block=game.size,
            marks=tuple(marks(game.moves, game.size**2)),
            columns=columns,
            rows=rows,
            last=game.moves[-1] if game.moves else None,
            line=self.winning_line(game),
        )

    def cell_rows(self, game: GameRecord, picked: int | None = None) -> list[dict[str, Any]]:
        # Each button is one dict literal: a click draws up to 25 of them. Every cell is named
        # as win lines, hints and puzzles name it. On 3x3 each cell shows an emoji (an empty one
        # its empty mark) and its name. On 4x4 and 5x5 (up to five buttons a row, which must fit
        # a phone's width) a button carries one thing: an empty cell its name ("C4", two
        # characters), a taken cell its mark. Both fit within the least width Discord gives a
        # button, so every button of a row is as wide and the columns line up.
        cells, line, n, look = (
            marks(game.moves, game.size**2),
            self.winning_line(game),
            game.size,
            game.look,
        )
        over, prefix, names = not _active(game), f"ttt:{game.id}:", NAMES[game.size]
        empty = looks.component_emoji(look.empty) if n == 3 else None
        rows = []
        for r in range(n):
            row: list[dict[str, Any]] = []
            for cell in range(r * n, r * n + n):
                mark = cells[cell]
                button: dict[str, Any] = {
                    "type": BUTTON,
                    "style": SUCCESS if cell in line else SECONDARY,
                    "disabled": over or mark is not None,
                    "custom_id": f"{prefix}{cell}",
                }
                if mark is not None:
                    button["emoji"] = looks.component_emoji(look.mark(mark))
                elif empty is not None:
                    button["emoji"] = empty
                if n == 3 or mark is None:
                    button["label"] = names[cell]
                row.append(button)
            rows.append({"type": ACTION_ROW, "components": row})
        return rows

    def picking(self, game: GameRecord, picked: int | None, player: str, mark: str) -> Text:
        if looks.picks_cell(game.size):
            return super().picking(game, picked, player, mark)
        if picked is None:
            return N_(
                "{player}, your move ({mark}): react with a column, then a row.",
                player=player,
                mark=mark,
            )
        return N_(
            "{player}, your move ({mark}): column {column} picked, now react with a row.",
            player=player,
            mark=mark,
            column=COLUMN_LABELS[picked],
        )

    def picks(self, game: GameRecord) -> bool:
        return not looks.picks_cell(game.size)

    def can_pick(self, game: GameRecord, index: int) -> bool:
        return not looks.picks_cell(game.size) and 0 <= index < game.size

    def keys(self, game: GameRecord) -> list[str]:
        return looks.keys(game.size)

    def live_keys(self, game: GameRecord) -> list[str]:
        # A key plays while its cell is empty (3x3, 4x4), or its column or row has an empty cell
        # (5x5: a column, then a row).
        if game.status is Status.FINISHED:
            return []
        n, found = game.size, marks(game.moves, game.size**2)
        keys = looks.keys(n)
        if looks.picks_cell(n):
            return [key for key, mark in zip(keys, found, strict=True) if mark is None]
        columns = [keys[c] for c in range(n) if any(found[r * n + c] is None for r in range(n))]
        rows = [keys[n + r] for r in range(n) if None in found[r * n : r * n + n]]
        return columns + rows

    def read_key(self, game: GameRecord, picked: int | None, key: str) -> tuple[str, int] | None:
        meaning = looks.read_key(game.size, key)
        if meaning is None or meaning[0] == "cell":
            return meaning
        if meaning[0] == "column":
            return ("pick", meaning[1])
        return None if picked is None else ("cell", meaning[1] * game.size + picked)

    def searches(self, game: GameRecord) -> bool:
        return game.size > 3  # 3x3 is solved whole: a move is a table lookup

    def best_move(
        self, position: Any, level: str, rng: random.Random | None, deadline: float | None
    ) -> int:
        return engine.best_move(position, level=level, rng=rng, deadline=deadline)

    def quick_move(self, position: Any, level: str, rng: random.Random | None) -> int | None:
        return engine.quick_move(position, level=level, rng=rng)

    def hint_job(self, game: GameRecord) -> tuple[Callable[..., Text], tuple[Any, ...]]:
        # A board moved by a reaction per cell shows each empty cell's key, not coordinates.
        keyed = game.look.reactions and looks.picks_cell(game.size)
        keys = tuple(looks.keys(game.size)) if keyed else ()
        return review.hint, (list(game.moves), game.size, game.k, keys)

    def review_job(
        self, game: GameRecord, names: dict[str, Any], marks: dict[str, str]
    ) -> tuple[Callable[..., list[Text]], tuple[Any, ...]]:
        return review.review, (list(game.moves), game.size, game.k, names, marks)


def _active(game: GameRecord) -> bool:
    return game.status is Status.ACTIVE


CLASSIC = Classic()
