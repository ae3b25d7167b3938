"""The engine of the classic tutorial kind, the baseline `engine_bench.py` times the engine's 3x3
move against: a full minimax, no pruning, no memo, 10 minus depth for a win.
"""

from __future__ import annotations

from engine import Board

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def naive_minimax(cells: list[str], player: str, depth: int) -> int:
    """The tutorial minimax: score 10 - depth for an X win, depth - 10 for an O win."""
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return 10 - depth if cells[a] == "X" else depth - 10
    if "." not in cells:
        return 0
    scores = []
    for i in range(9):
        if cells[i] == ".":
            cells[i] = player
            scores.append(naive_minimax(cells, "O" if player == "X" else "X", depth + 1))
            cells[i] = "."
    return max(scores) if player == "X" else min(scores)


def naive_move(board: Board) -> int:
    """The tutorial's move: try every cell, keep the first with the best minimax score."""
    cells = list(board.to_string().replace("/", ""))
    player = board.turn
    best, best_score = -1, None
    for i in board.legal_moves():
        cells[i] = player
        score = naive_minimax(cells, "O" if player == "X" else "X", 1)
        cells[i] = "."
        if best_score is None or (score > best_score if player == "X" else score < best_score):
            best, best_score = i, score
    return best
