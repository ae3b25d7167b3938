"""A picture's alt text: the position in words, in the reader's language (the attachment's
description, at most ``LIMIT`` characters): the board's kind, the marks by cell name, the small
boards won, the last move, then whose turn it is (and where), or how the game ended. A replay's
says how many moves it shows, then its last position; a rating chart's, each line in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.games import kinds
from bot.games.look import custom_parts
from bot.games.record import Ending, GameRecord, Status
from bot.i18n import N_, NP_, Text

LIMIT = 1024  # characters of an attachment's description on Discord


def alt_text(
    game: GameRecord, locale: str | None, *, names: Mapping[str, str] | None = None
) -> str:
    """The position in words in a Discord locale; `names`: each side's player by "X" and "O"
    (else the sides are named by their marks)."""
    return fit(" ".join(text.in_locale(locale) for text in lines(game, names or {})))


def replay_alt(
    game: GameRecord, locale: str | None, *, names: Mapping[str, str] | None = None
) -> str:
    """A replay's alt text: how many moves it shows, then the last position (``alt_text``)."""
    shows = NP_(
        "A replay of {n} move, one frame a move.",
        "A replay of {n} moves, one frame a move.",
        len(game.moves),
    )
    return fit(shows.in_locale(locale) + " " + alt_text(game, locale, names=names))


def fit(words: str) -> str:
    return words if len(words) <= LIMIT else words[: LIMIT - 1] + "…"


def lines(game: GameRecord, names: Mapping[str, str]) -> list[Text]:
    """The alt text's sentences, as messages to translate."""
    kind = kinds.of(game)
    sketch = kind.sketch(game)

    def who(side: str) -> str:
        mark = spoken(game.look.mark(side))
        return f"{names[side]} ({mark})" if side in names else mark

    said = [N_("{title}.", title=kind.title(game.size, game.k))]
    for side in ("X", "O"):
        cells = [kind.cell_name(game, c) for c, mark in enumerate(sketch.marks) if mark == side]
        if cells:
            said.append(N_("{mark} on {cells}.", mark=who(side), cells=", ".join(cells)))
    if not game.moves:
        said.append(N_("No marks yet."))
    for side in ("X", "O"):
        boards = [n for n, won in zip(sketch.block_names, sketch.won, strict=False) if won == side]
        if boards:
            said.append(
                N_(
                    "{mark} won the small boards {boards}.",
                    mark=who(side),
                    boards=", ".join(boards),
                )
            )
    if sketch.last is not None:
        side = "X" if len(game.moves) % 2 else "O"
        said.append(
            N_(
                "Last move: {mark} on {cell}.",
                mark=who(side),
                cell=kind.cell_name(game, sketch.last),
            )
        )
    said.append(_end(game, kind, sketch, who))
    return said


def _end(
    game: GameRecord, kind: kinds.Kind, sketch: kinds.Sketch, name: Callable[[str], str]
) -> Text:
    """Whose turn it is and where, or how the game ended."""
    if game.status is not Status.FINISHED:
        turn = name(kind.position(game).turn)
        if sketch.target is not None:
            return N_(
                "{mark} to move, in the board {board}.",
                mark=turn,
                board=sketch.block_names[sketch.target],
            )
        return N_("{mark} to move.", mark=turn)
    if game.ending is Ending.DRAW:
        return N_("A draw.")
    if game.winner is None:
        return N_("The game is over.")
    line = kind.line_names(game) if game.ending is Ending.WIN else ""
    if line:
        return N_("{mark} won with {line}.", mark=name(game.winner), line=line)
    return N_("{mark} won.", mark=name(game.winner))


def spoken(mark: str) -> str:
    """A mark as a screen reader can say it: a Unicode emoji as it is, a custom one by its
    name (":cat:")."""
    parts = custom_parts(mark)
    return mark if parts is None else f":{parts[1]}:"
