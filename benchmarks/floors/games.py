"""The floor's games (`game_bot.py`): k in a row on a square board, and ultimate tic-tac-toe.

Ultimate is the least a discord.py bot does for it: the rules in a few lines (a move sends the
opponent to the small board of the cell's place; a won or full small board is closed, and a
player sent there picks any open one; three won small boards in a row win), its board as plain
component data in the project's shape (a text display with the 9x9 grid, three rows of three
buttons: the cells of the small board to play, or the open small boards to pick first, then a
row of controls), every button stamped with the ply it was drawn at (``@<ply>``), and the bot's
side playing the engine's move (`ultimate_engine`; ``bot_moves`` here, the first legal cell, is
what the floor played before). The pick is kept in the game (one pick per position).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MARKS = ("❌", "⭕")


@dataclass
class FloorGame:
    id: int
    size: int
    k: int
    players: tuple[int, int]  # X, O (the bot's own id for its side)
    bot_side: int | None  # 0 (X) or 1 (O) against the bot
    challenge: bool
    channel_id: int = 0
    challenger: int = 0
    cells: list[int | None] = field(default_factory=list)  # 0 X, 1 O, None empty
    moves: list[int] = field(default_factory=list)  # the cells played, in order
    over: bool = False

    def turn(self) -> int:
        return sum(c is not None for c in self.cells) % 2

    def play(self, cell: int) -> None:
        self.cells[cell] = self.turn()
        self.moves.append(cell)
        self.over = self.won(cell) or all(c is not None for c in self.cells)

    def won(self, cell: int) -> bool:
        size, mark = self.size, self.cells[cell]
        row, col = divmod(cell, size)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < size and 0 <= c < size and self.cells[r * size + c] == mark:
                    run, r, c = run + 1, r + sign * dr, c + sign * dc
            if run >= self.k:
                return True
        return False

    def can_play(self, cell: int) -> bool:
        return self.cells[cell] is None

    def bot_moves(self) -> None:
        while not self.over and not self.challenge and self.turn() == self.bot_side:
            self.play(self.cells.index(None))


# The cells of each small board (reading order of the boards, then of their cells), numbered
# as the project numbers them: row r and column c of the 9x9 grid is 9 * r + c.
CELLS = tuple(
    tuple(9 * (3 * (b // 3) + r) + 3 * (b % 3) + c for r in range(3) for c in range(3))
    for b in range(9)
)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@dataclass
class UltimateGame(FloorGame):
    small: list[int | None] = field(default_factory=lambda: [None] * 9)  # each board's winner
    picked: int | None = None  # the small board picked first, when free to choose
    difficulty: str | None = None  # /tictactoe's, for the engine (`ultimate_engine`)

    def closed(self, board: int) -> bool:
        return self.small[board] is not None or all(self.cells[c] is not None for c in CELLS[board])

    def target(self) -> int | None:
        """The small board to play, None when free to choose."""
        if not self.moves:
            return None
        last = self.moves[-1]
        board = 3 * (last // 9 % 3) + last % 3
        return None if self.closed(board) else board

    def legal(self) -> list[int]:
        target = self.target()
        boards = [target] if target is not None else [b for b in range(9) if not self.closed(b)]
        return [c for b in boards for c in CELLS[b] if self.cells[c] is None]

    def can_play(self, cell: int) -> bool:
        return cell in self.legal()

    def play(self, cell: int) -> None:
        mark = self.turn()
        self.cells[cell] = mark
        self.moves.append(cell)
        self.picked = None
        board = 3 * (cell // 27) + cell % 9 // 3
        own = CELLS[board]
        if any(all(self.cells[own[i]] == mark for i in line) for line in LINES):
            self.small[board] = mark
        won = any(all(self.small[i] == mark for i in line) for line in LINES)
        self.over = won or all(self.closed(b) for b in range(9))

    def bot_moves(self) -> None:
        while not self.over and not self.challenge and self.turn() == self.bot_side:
            self.play(self.legal()[0])


def ultimate_text(game: UltimateGame) -> str:
    """The board's text: its players and the 9x9 grid, the small boards set apart."""
    marks = [MARKS[c] if c is not None else "⬜" for c in game.cells]
    rows = [
        " ".join("".join(marks[9 * r + 3 * i : 9 * r + 3 * i + 3]) for i in range(3))
        for r in range(9)
    ]
    grid = "\n\n".join("\n".join(rows[3 * band : 3 * band + 3]) for band in range(3))
    return f"Ultimate tic-tac-toe <@{game.players[0]}> vs <@{game.players[1]}>\n{grid}"


def ultimate_components(game: UltimateGame) -> list[dict[str, Any]]:
    """The whole message as Discord receives it."""
    components: list[dict[str, Any]] = [{"type": 10, "content": ultimate_text(game)}]
    prefix, ply = f"ttt:{game.id}:", f"@{len(game.moves)}"
    target = game.target()
    if not game.challenge and not game.over:
        shown = target if target is not None else game.picked
        buttons: list[dict[str, Any]] = []
        if shown is None:
            for b in range(9):
                buttons.append(
                    {
                        "type": 2,
                        "style": 1,
                        "custom_id": f"{prefix}pick{b}{ply}",
                        "disabled": game.closed(b),
                        "label": str(b + 1),
                    }
                )
        else:
            for cell in CELLS[shown]:
                mark = game.cells[cell]
                button = {
                    "type": 2,
                    "style": 2,
                    "custom_id": f"{prefix}{cell}{ply}",
                    "disabled": mark is not None,
                }
                if mark is None:
                    button["label"] = str(cell)
                else:
                    button["emoji"] = {"id": None, "name": MARKS[mark]}
                buttons.append(button)
        components += [{"type": 1, "components": buttons[i : i + 3]} for i in (0, 3, 6)]
    actions = ["accept", "decline"] if game.challenge else ["rematch"] if game.over else ["resign"]
    if not game.challenge and not game.over and target is None and game.picked is not None:
        actions.insert(0, f"back{ply}")
    components.append(
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 2,
                    "custom_id": f"{prefix}{a}",
                    "label": a.split("@")[0].title(),
                }
                for a in actions
            ],
        }
    )
    return components
