"""A puzzle attempt as a Discord message, and the custom ids its buttons carry.

The board is drawn as a game's (``bot.games.kinds``' grid and cell buttons, the puzzle's position
replayed as moves: ``bot.puzzles.model.setup_moves``), in one Components V2 layout: the text
(title, the task, the grid, what the last move did), one action row per board row, a row of
controls. Every button carries its attempt and the ply it was drawn at,
``pz:<attempt>:<cell or action>@<ply>``, so a click finds its attempt after a restart and a
click on a board the attempt has left is never played blind. ``pz:daily`` (on the posted daily
puzzle) asks for today's puzzle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import engine
from bot.discord_ui.board import LOOKS, BoardView
from bot.games import kinds
from bot.games import look as looks
from bot.games.kinds.base import ACTION_ROW, BUTTON, SECONDARY, TEXT_DISPLAY
from bot.games.record import Ending, GameRecord, Status
from bot.i18n import N_, NP_, Text, translation
from bot.puzzles.model import AttemptRecord, setup_moves

if TYPE_CHECKING:
    from engine import Outcome

PREFIX = "pz:"
CLICK = "ttt_puzzle_click"  # the event a click on a puzzle's button is handed on as
HINT = "hint"
NEXT = "next"
DAILY_ID = "pz:daily"
ID_PATTERN = re.compile(
    r"pz:(?P<attempt>[0-9]{1,19}):(?P<what>[0-9]{1,2}|hint|next)@(?P<ply>[0-9]{1,3})"
)

NEXT_LABEL = N_("Next puzzle")
START = N_("Your move: find the only move that wins this fast.")
SOLVED = N_("Solved: {cell} wins!")
# A wrong move: what the defender's reply (the refutation) does, in the reply's own words
# where it ends the game at once (a line it completes is marked on the board).
FAILED: dict[str, Text] = {
    "slower": N_("{cell} still wins, but not this fast: the reply {reply} holds out longer."),
    "draw": N_("{cell} lets the win slip to a draw: the reply {reply} holds it."),
    "loses": N_("{cell} loses: after the reply {reply}, your opponent wins by force."),
}
REPLY_WINS = N_("{cell} loses: the reply {reply} completes a line and wins at once.")
REPLY_DRAWS = N_("{cell} lets the win slip: the reply {reply} fills the board, a draw.")
DRAWN = N_("{cell} fills the board: a draw.")
# Then what would have won instead (on a later move: one of the moves that still won in time).
FIRST_WAS = N_("The winning move was {cell}.")
LATER_WAS = N_("{cell} would still have won in time.")
TOOK_IT = N_("Your opponent's reply took that very cell.")
THINKING = N_("You play {cell}; I'm looking for the longest defence…")


@dataclass(frozen=True, slots=True)
class Extras:
    """What a message says beyond the attempt itself: a hint just given, the move being
    answered (the engine still thinking), the rating before and after a finished attempt, the
    daily streak after it, and after a wrong move later than the first a move that would have
    won in time (the first's is the puzzle's solution)."""

    hint: int | None = None
    thinking: int | None = None
    rating: tuple[float, float] | None = None
    streak: int | None = None
    better: int | None = None


def parse_id(custom_id: str) -> tuple[int, str, int] | None:
    """The attempt id, the cell number or action, and the ply of a puzzle button's custom id."""
    match = ID_PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    return int(match["attempt"]), match["what"], int(match["ply"])


def as_game(record: AttemptRecord, extras: Extras = Extras()) -> GameRecord:
    """The attempt as a game to draw: the puzzle's position, the moves since (and the
    refutation of a wrong one, or the move being answered), over unless it is being played."""
    board = record.puzzle.board
    moves = setup_moves(record.puzzle) + record.moves
    if record.refutation is not None:
        moves += (record.refutation,)
    if extras.thinking is not None:
        moves += (extras.thinking,)
    playing = not record.over and extras.thinking is None
    solved = record.state == "solved"
    # A refutation that completes a line wins for the defender: its line is marked as a win's.
    ended = _reply_ends(record)
    reply_won = None if ended is None else ended.winner
    return GameRecord(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        x_id=record.user_id,
        o_id=record.user_id,
        challenger_id=record.user_id,
        size=board.size,
        k=board.k,
        moves=moves,
        status=Status.ACTIVE if playing else Status.FINISHED,
        ending=Ending.WIN if solved or reply_won else None,
        winner=board.turn if solved else reply_won,
        locale=record.locale,
        interactions_only=record.interactions_only,
    )


def _reply_ends(record: AttemptRecord) -> Outcome | None:
    """How the game ends with the refutation of a wrong move, if it ends it at once."""
    if record.refutation is None:
        return None
    return record.attempt.board.play(record.refutation).outcome()


def text(record: AttemptRecord, extras: Extras = Extras(), game: GameRecord | None = None) -> str:
    """Everything the message says, above the buttons (`game`: the attempt `as_game`, if drawn
    already)."""
    catalog = translation(record.locale)
    puzzle, board = record.puzzle, record.puzzle.board
    title = N_(
        "Puzzle {id} · {size}×{size}, {k} in a row", id=puzzle.id, size=board.size, k=board.k
    )
    lines = [f"### 🧩 {title.render(catalog)}"]
    if record.day is not None:
        when = date.fromordinal(record.day).isoformat()
        lines.append(N_("Daily puzzle of {date}", date=when).render(catalog))
    mark = looks.DEFAULT.mark(board.turn)
    task = NP_(
        "{player} plays {mark} and wins in {n} move.",
        "{player} plays {mark} and wins in {n} moves.",
        puzzle.moves,
        player=f"<@{record.user_id}>",
        mark=mark,
    )
    lines.append(task.render(catalog))
    game = as_game(record, extras) if game is None else game
    parts = ["\n".join(lines), kinds.CLASSIC.grid(game, keyed=False)]
    parts.append(" ".join(s.render(catalog) for s in _status(record, extras)))
    return "\n\n".join(parts)


def _status(record: AttemptRecord, extras: Extras) -> list[Text]:
    """What the last move did, the hint, and after the end the rating and streak."""
    size = record.puzzle.board.size

    def name(cell: int) -> str:
        return f"**{engine.cell_name(cell, size)}**"

    said: list[Text] = []
    if extras.thinking is not None:
        said.append(N_(THINKING.msgid, cell=name(extras.thinking)))
    elif record.state == "solved":
        said.append(N_(SOLVED.msgid, cell=name(record.moves[-1])))
    elif record.over:
        said += _failed(record, extras, name)
    elif record.moves:
        said.append(
            NP_(
                "{cell} is right. I answer {reply}: win in {n} more move.",
                "{cell} is right. I answer {reply}: win in {n} more moves.",
                record.attempt.left,
                cell=name(record.moves[-2]),
                reply=name(record.moves[-1]),
            )
        )
    else:
        said.append(START)
    if extras.hint is not None:
        said.append(
            N_(
                "💡 {cell} wins in time (a solve with a hint does not raise your rating).",
                cell=name(extras.hint),
            )
        )
    if extras.rating is not None:
        before, after = (f"{r:.0f}" for r in extras.rating)
        said.append(N_("Your puzzle rating: {before} → {after}.", before=before, after=after))
    if extras.streak is not None:
        said.append(N_("Daily streak: {n}.", n=extras.streak))
    return said


def _failed(record: AttemptRecord, extras: Extras, name: Callable[[int], str]) -> list[Text]:
    """What a wrong move came to, then the move that would have won (where it is known)."""
    cell, reply = name(record.moves[-1]), record.refutation
    if reply is None:  # the move ended the game: a draw
        said = [N_(DRAWN.msgid, cell=cell)]
    else:
        ended = _reply_ends(record)
        how = FAILED[record.state]
        if ended is not None:
            how = REPLY_DRAWS if ended.winner is None else REPLY_WINS
        said = [N_(how.msgid, cell=cell, reply=name(reply))]
    first = len(record.moves) == 1
    better = record.puzzle.solution if first else extras.better
    if better is not None:
        said.append(N_((FIRST_WAS if first else LATER_WAS).msgid, cell=name(better)))
        if better == reply:
            said.append(TOOK_IT)
    return said


def view(record: AttemptRecord, extras: Extras = Extras()) -> BoardView:
    """The whole message: text, the board's cells (clickable while the attempt is played and
    not being answered), then Hint while it is played, or Next puzzle after a puzzle that is
    not the daily one."""
    game = as_game(record, extras)
    rows = kinds.CLASSIC.cell_rows(game)
    stamp = f"@{record.ply}"
    for row in rows:
        for button in row["components"]:
            cell = button["custom_id"].rpartition(":")[2]
            button["custom_id"] = f"pz:{record.id}:{cell}{stamp}"
    parts: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": text(record, extras, game)}]
    parts += rows
    catalog = translation(record.locale)
    control: dict[str, Any] | None = None
    if game.status is Status.ACTIVE:
        label, emoji, _ = LOOKS[HINT]
        control = _control(record, HINT, label.render(catalog), looks.component_emoji(emoji or ""))
    elif record.over and record.day is None:
        control = _control(record, NEXT, NEXT_LABEL.render(catalog), None)
    if control is not None:
        parts.append({"type": ACTION_ROW, "components": [control]})
    return BoardView(parts)


def _control(
    record: AttemptRecord, action: str, label: str, emoji: dict[str, Any] | None
) -> dict[str, Any]:
    button: dict[str, Any] = {
        "type": BUTTON,
        "style": SECONDARY,
        "label": label,
        "custom_id": f"pz:{record.id}:{action}@{record.ply}",
    }
    if emoji is not None:
        button["emoji"] = emoji
    return button
