"""Ultimate tic-tac-toe: nine small boards in one (``engine.ultimate``), stored as size 9, k 3.

The grid is the 9x9 board with the small boards set apart (a space between columns of boards,
an empty line between rows of them), column letters A to I and row numbers 1 to 9 around it, so
every cell has the name hints and reviews use (E5); a won small board shows its winner's mark in
all nine cells, and the empty cells of the small board to play stand out (🟨). Under the grid:
the last move, and where the next one goes (before the first move: that any board may be
chosen).

Buttons: when the small board to play is set, its nine cells (taken ones disabled); when the
player may choose, the open small boards first, then the chosen board's cells with a way back.
The choice lives only in the message (nothing is stored), and every button carries the ply it
was drawn at (``ttt:<game>:<what>@<ply>``), so a click on a position the game has left is
refused, never played. Reactions: nine keycaps, the cells of the board to play in reading order;
when the player may choose, a board's number first, then a cell's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, cast

from bot.games import look as looks
from bot.games.kinds import ultimate_advice as advice
from bot.games.kinds.base import (
    ACTION_ROW,
    BUTTON,
    CORNER,
    GAP,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    Kind,
    Sketch,
    labels,
    marks,
    plain,
)
from bot.games.record import GameRecord, Status
from bot.i18n import N_, Text
from engine import ultimate
from engine.ultimate import UltimateBoard
from engine.ultimate.geometry import COLUMNS, board_cells

COLUMN_LABELS = looks.LETTERS
ROW_LABELS = looks.KEYCAPS
PLAYABLE = "🟨"  # an empty cell of the small board to play
GRID_LIMIT = 3000  # characters: past this (long custom emoji) the grid uses the default marks
BACK = "back"
PICK = "pick"  # a control "pick<board>": the small board chosen first


def board_range(board: int) -> str:
    """A small board by the names of its corner cells: "A1–C3" is the top-left one."""
    row, column = divmod(board, 3)
    first = f"{COLUMNS[3 * column]}{3 * row + 1}"
    return f"{first}–{COLUMNS[3 * column + 2]}{3 * row + 3}"


class Ultimate(Kind):
    """Nine boards in one; the engine searches (``engine.ultimate``)."""

    name: ClassVar[str] = "ultimate"
    levels: ClassVar[tuple[str, ...]] = ultimate.LEVELS
    strongest: ClassVar[str] = "expert"
    # The strongest level searches deeper and deeper until its budget is spent; the click's
    # response waits for it (one board update per click), queueing included.
    budget: ClassVar[float] = 0.2
    reply_wait: ClassVar[float] = 0.5
    native: ClassVar[bool] = ultimate.NATIVE

    def build(self, game: GameRecord) -> UltimateBoard:
        return UltimateBoard.from_moves(game.moves)

    def position(self, game: GameRecord) -> UltimateBoard:
        return cast("UltimateBoard", super().position(game))

    def cells(self, game: GameRecord) -> int:
        return 81

    def refuse_cell(self, game: GameRecord, cell: int) -> Text | None:
        taken = super().refuse_cell(game, cell)
        if taken is not None or cell in self.position(game).legal_moves():
            return taken
        target = self.position(game).board_to_play()
        if target is None:
            return N_("That small board is closed; pick a cell in an open one.")
        return N_(
            "That cell is not in the board to play: play in {board}.", board=board_range(target)
        )

    def cell_name(self, game: GameRecord, cell: int) -> str:
        return ultimate.cell_name(cell)

    def line_names(self, game: GameRecord) -> str:
        outcome = self.position(game).outcome()
        if outcome is None or outcome.winner is None:
            return ""
        return ", ".join(board_range(b) for b in outcome.line)

    def engine_level(self, chosen: str) -> str:
        return self.strongest if chosen == "unbeatable" else chosen

    # -------------------------------------------------------------- drawing

    def title(self, size: int, k: int) -> Text:
        return N_("Ultimate tic-tac-toe · nine boards in one")

    def _shown(self, game: GameRecord, picked: int | None) -> int | None:
        """The small board whose cells are playable and shown: the board to play, else the one
        picked (only while the player may choose)."""
        if game.status is not Status.ACTIVE:
            return None
        target = self.position(game).board_to_play()
        return target if target is not None else picked

    def grid(self, game: GameRecord, *, keyed: bool, picked: int | None = None) -> str:
        text = self._grid(game, game.look, keyed, picked)
        if len(text) > GRID_LIMIT:  # custom marks too long for Discord's limit
            text = self._grid(game, looks.Look(input=game.look.input), keyed, picked)
        return text

    def _grid(self, game: GameRecord, look: looks.Look, keyed: bool, picked: int | None) -> str:
        position = self.position(game)
        symbols = [look.empty] * 81
        for ply, cell in enumerate(game.moves):
            symbols[cell] = look.x if ply % 2 == 0 else look.o
        for board in range(9):
            winner = position.small_winner(board)
            if winner is not None:
                for cell in board_cells(board):
                    symbols[cell] = look.mark(winner)
        shown = self._shown(game, picked)
        if shown is not None:
            for index, cell in enumerate(board_cells(shown)):
                if symbols[cell] == look.empty:
                    symbols[cell] = looks.KEYCAPS[index] if keyed else PLAYABLE
        top = CORNER + " ".join(GAP.join(COLUMN_LABELS[3 * i : 3 * i + 3]) for i in range(3))
        lines = [top]
        for row in range(9):
            if row and row % 3 == 0:
                lines.append(GAP)
            cells = symbols[9 * row : 9 * row + 9]
            lines.append(
                ROW_LABELS[row] + " ".join("".join(cells[3 * i : 3 * i + 3]) for i in range(3))
            )
        return "\n".join(lines)

    def sketch(self, game: GameRecord) -> Sketch:
        position = self.position(game)
        outcome = position.outcome()
        boards = outcome.line if outcome is not None and outcome.winner is not None else ()
        columns, rows = labels(self, game, 9)
        return Sketch(
            size=9,
            block=3,
            marks=tuple(marks(game.moves, 81)),
            columns=columns,
            rows=rows,
            last=game.moves[-1] if game.moves else None,
            line=tuple(cell for b in boards for cell in board_cells(b)),
            won=tuple(position.small_winner(b) for b in range(9)),
            target=self._shown(game, None),
            block_names=tuple(board_range(b) for b in range(9)),
        )

    def caption(self, game: GameRecord) -> Text | None:
        if game.status is not Status.ACTIVE:
            return None
        if not game.moves:  # the buttons are the nine boards: say that any may be chosen
            return N_("First move: choose any of the nine boards, then a cell in it.")
        ply = len(game.moves) - 1
        mark = game.look.x if ply % 2 == 0 else game.look.o
        target = self.position(game).board_to_play()
        where = (
            N_("Play in any open board.")
            if target is None
            else N_("Play in the board {board}.", board=board_range(target))
        )
        return N_(
            "Last move: {mark} {cell}. {where}",
            mark=mark,
            cell=ultimate.cell_name(game.moves[-1]),
            where=where,
        )

    def cell_rows(self, game: GameRecord, picked: int | None = None) -> list[dict[str, Any]]:
        if game.status is not Status.ACTIVE:
            return []  # the grid shows the end; the buttons would only repeat it
        position, look = self.position(game), game.look
        prefix, ply = f"ttt:{game.id}:", f"@{len(game.moves)}"
        shown = self._shown(game, picked)
        buttons: list[dict[str, Any]] = []
        if shown is None:
            closed = position.closed()
            for board in range(9):
                button: dict[str, Any] = {
                    "type": BUTTON,
                    "style": PRIMARY,
                    "disabled": bool(closed >> board & 1),
                    "custom_id": f"{prefix}{PICK}{board}{ply}",
                }
                winner = position.small_winner(board)
                if winner is not None:
                    button["emoji"] = looks.component_emoji(look.mark(winner))
                else:
                    button["label"] = board_range(board)
                buttons.append(button)
        else:
            last = game.moves[-1] if game.moves else None
            for cell in board_cells(shown):
                mark = position.cell(cell)
                button = {
                    "type": BUTTON,
                    "style": SUCCESS if cell == last else SECONDARY,
                    "disabled": mark != ".",
                    "custom_id": f"{prefix}{cell}{ply}",
                }
                if mark != ".":
                    button["emoji"] = looks.component_emoji(look.mark(mark))
                else:
                    button["label"] = ultimate.cell_name(cell)
                buttons.append(button)
        return [{"type": ACTION_ROW, "components": buttons[i : i + 3]} for i in (0, 3, 6)]

    def extra_controls(self, game: GameRecord, picked: int | None) -> tuple[str, ...]:
        free = game.status is Status.ACTIVE and self.position(game).board_to_play() is None
        return (BACK,) if free and picked is not None else ()

    def picks(self, game: GameRecord) -> bool:
        return True

    def can_pick(self, game: GameRecord, index: int) -> bool:
        position = self.position(game)
        return (
            game.status is Status.ACTIVE
            and 0 <= index < 9
            and position.board_to_play() is None
            and not position.closed() >> index & 1
        )

    def picking(self, game: GameRecord, picked: int | None, player: str, mark: str) -> Text:
        shown = self._shown(game, picked)
        if shown is None:
            return N_(
                "{player}, your move ({mark}): react with a board's number (1 to 9, in "
                "reading order), then a cell's.",
                player=player,
                mark=mark,
            )
        return N_(
            "{player}, your move ({mark}): react with a cell's number in the board {board}.",
            player=player,
            mark=mark,
            board=board_range(shown),
        )

    # ---------------------------------------------------------------- input

    def keys(self, game: GameRecord) -> list[str]:
        return list(looks.KEYCAPS)

    def read_key(self, game: GameRecord, picked: int | None, key: str) -> tuple[str, int] | None:
        found = [plain(k) for k in looks.KEYCAPS]
        if plain(key) not in found:
            return None
        index = found.index(plain(key))
        shown = self._shown(game, picked)
        if shown is None:
            return ("pick", index)
        return ("cell", board_cells(shown)[index])

    # --------------------------------------------------------------- engine

    def searches(self, game: GameRecord) -> bool:
        return True

    def best_move(
        self, position: Any, level: str, rng: random.Random | None, deadline: float | None
    ) -> int:
        return ultimate.best_move(position, level=level, rng=rng, deadline=deadline)

    def hint_job(self, game: GameRecord) -> tuple[Callable[..., Text], tuple[Any, ...]]:
        return advice.hint, (list(game.moves), self.budget * 5, game.look.reactions)

    def review_job(
        self, game: GameRecord, names: dict[str, Any], marks: dict[str, str]
    ) -> tuple[Callable[..., list[Text]], tuple[Any, ...]]:
        return advice.review, (list(game.moves), names, marks)


ULTIMATE = Ultimate()
