"""Hints and reviews of ultimate games, in words, from the engine's search
(``engine.ultimate.analyse``). Pure and synchronous: the bot runs them in its engine workers.

Ultimate is not solved: the engine's value of a position is its search's estimate, exact only
where it sees the end of the game. A player reads it in words (``standing``: a forced win,
winning, better, even, worse, losing, a forced loss), taken from a balance from -100 to +100
(``balance``: +100 a win the player can force, -100 one the opponent can force). A hint says
where the player to move stands after its move; the review how X stood before and after the
moves that cost their player most, with the balance's numbers only where the words stay the
same.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

from bot.games.review import who
from bot.i18n import N_, NP_, Text
from engine.ultimate import UltimateBoard, analyse, cell_name
from engine.ultimate.geometry import TO_LOCAL
from engine.ultimate.search import WIN

REVIEW_DEPTH = 6  # plies searched for each move of a review (a few milliseconds a move)
MISTAKES = 5  # the most moves a review names
SLIP = 150  # the least loss of value (a line of boards held is 1,000) a review names
CERTAIN = WIN // 2  # a value past this is a win (or a loss) the search sees to the end


def balance(value: int) -> int:
    """A value for X on a scale from -100 to +100 (+100: a win X can force)."""
    if abs(value) >= CERTAIN:
        return 100 if value > 0 else -100
    return round(100 * math.tanh(value / 1500))


# Where a balance stops being even, a little better, and winning (the same below zero): a slip
# the review names (`SLIP`) moves an even balance by about 10.
BETTER, WINNING = 10, 40
WON, LOST = "won", "lost"
# How a player stands, in words: as a hint says it, and as a review's "before → after" does.
HINTS = {
    "winning": N_("Play {cell}: you are winning (the engine's estimate; no win is forced yet)."),
    "better": N_("Play {cell}: you are a little better (the engine's estimate)."),
    "even": N_("Play {cell}: the game is even (the engine's estimate)."),
    "worse": N_("Play {cell}: you are a little worse (the engine's estimate)."),
    "losing": N_("Play {cell}: you are losing (the engine's estimate; no loss is forced yet)."),
}
WORDS = {
    WON: N_("a forced win"),
    "winning": N_("winning"),
    "better": N_("a little better"),
    "even": N_("even"),
    "worse": N_("a little worse"),
    "losing": N_("losing"),
    LOST: N_("a forced loss"),
}


def standing(balance: int) -> str:
    """Where a player stands, from their balance (-100 to +100): a key of `WORDS`."""
    if abs(balance) >= 100:
        return WON if balance > 0 else LOST
    if abs(balance) >= WINNING:
        return "winning" if balance > 0 else "losing"
    if abs(balance) >= BETTER:
        return "better" if balance > 0 else "worse"
    return "even"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def hint(moves: Sequence[int], seconds: float, keyed: bool = False) -> Text:
    """The engine's move for the player to move, by name, and what the search sees."""
    board = UltimateBoard.from_moves(moves)
    found = analyse(board, deadline=time.monotonic() + seconds)
    name = cell_name(found.move)
    if keyed:  # moves by reactions: the cell's number in its small board too
        target = board.board_to_play()
        local = TO_LOCAL[found.move] % 9  # its cell in its small board, reading order
        if target is not None:
            name = f"{name} ({local + 1}\ufe0f\u20e3)"
    if found.value >= CERTAIN:
        return N_("Play {cell}: it wins by force.", cell=name)
    if found.value <= -CERTAIN:
        return N_(
            "Play {cell}: every move loses against best play; it holds out longest.", cell=name
        )
    return N_(HINTS[standing(balance(found.value))].msgid, cell=name)


def review(
    moves: Sequence[int],
    names: Mapping[str, str | Text] | None = None,
    marks: Mapping[str, str] | None = None,
    depth: int = REVIEW_DEPTH,
) -> list[Text]:
    """Lines naming the moves that cost their player most (at most `MISTAKES`, in game order),
    each with the engine's choice and how X stood before and after, then a summary line."""
    names, marks = names or {}, marks or {}
    board = UltimateBoard.from_moves(())
    slips: list[tuple[int, int, int, int, int, int]] = []  # loss, number, cell, best, before, after
    swing, swing_at = 0, 0
    for number, cell in enumerate(moves, start=1):
        sign = 1 if board.turn == "X" else -1
        found = analyse(board, depth=depth)
        after = board.play(cell)
        if after.outcome() is not None:
            played = WIN if after.outcome().winner is not None else 0  # type: ignore[union-attr]
        elif cell == found.move:
            played = found.value
        else:
            played = -analyse(after, depth=depth - 1).value
        before_x, after_x = balance(sign * found.value), balance(sign * played)
        if abs(after_x - before_x) > swing:
            swing, swing_at = abs(after_x - before_x), number
        loss = found.value - played
        if loss >= SLIP and cell != found.move:
            slips.append((loss, number, cell, found.move, before_x, after_x))
        board = after
    worst = sorted(sorted(slips, reverse=True)[:MISTAKES], key=lambda slip: slip[1])
    lines: list[Text] = []
    for _loss, number, cell, best, before_x, after_x in worst:
        side = "X" if number % 2 == 1 else "O"
        lines.append(
            N_(
                "Move {number}: {who} played {cell}; the engine preferred {best}. "
                "For {x}: {change}.",
                number=number,
                who=who(side, names, marks),
                cell=cell_name(cell),
                best=cell_name(best),
                x=marks.get("X", "X"),
                change=_change(before_x, after_x),
            )
        )
    if not lines:
        lines.append(N_("The engine found no clear mistake: no move cost its player much."))
    else:
        lines.append(
            NP_(
                "The engine's biggest swing came at move {number}; {n} move is named above.",
                "The engine's biggest swing came at move {number}; {n} moves are named above.",
                len(worst),
                number=swing_at,
            )
        )
    return lines


def _change(before: int, after: int) -> Text:
    """How X's standing changed, in words; the balances too where the words stay the same."""
    was, now = standing(before), standing(after)
    if was != now:
        return N_("{before} → {after}", before=WORDS[was], after=WORDS[now])
    return N_(
        "{standing} ({before} → {after} on a scale from −100 to +100)",
        standing=WORDS[was],
        before=_signed(before),
        after=_signed(after),
    )
