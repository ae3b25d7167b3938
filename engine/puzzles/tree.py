"""A puzzle's answers, computed once and stored with it: its defence tree as text.

For every position an attempt can reach while it is still playing (the player to move), the
tree holds the hint and, for every legal move, what it leads to: a right move the defence's
reply (the one that holds out longest) or the win that ends the attempt; a wrong move its
reason (a slower win, a draw, a loss) and the defender's refutation. An attempt is then played
by lookup (engine.puzzles.attempt); engine.puzzles.answers computes the tree by the same
searches that an attempt makes without it.

The text: nodes separated by ``;``, each ``path/hint/entries``: the attempt's moves so far
joined by ``.`` (empty at the start), the hint's cell, and one entry per legal move, joined by
``,``: the cell, a letter for what it leads to (``p`` playing on, ``s`` solved, ``w`` a slower
win, ``d`` a draw, ``l`` a loss) and the reply or refutation's cell, if any.
"""

from __future__ import annotations

import re
from functools import lru_cache

STATES = {"p": "playing", "s": "solved", "w": "slower", "d": "draw", "l": "loses"}
LETTERS = {state: letter for letter, state in STATES.items()}
# The state a move leads to, and the reply (right moves) or refutation (wrong ones), if any.
Outcome = tuple[str, int | None]
Node = tuple[int, dict[int, Outcome]]  # the hint, and each legal move's outcome
Tree = dict[tuple[int, ...], Node]  # by the attempt's moves so far
_ENTRY = re.compile(r"(\d+)([pswdl])(\d*)")


class TreeError(ValueError):
    """Stored answers that are not a tree; the message says where."""


def encode(tree: Tree) -> str:
    """The tree as text (see the module's docstring), nodes in order of their moves."""
    nodes = []
    for path in sorted(tree, key=lambda p: (len(p), p)):
        hint, outcomes = tree[path]
        entries = ",".join(
            f"{cell}{LETTERS[state]}{'' if reply is None else reply}"
            for cell, (state, reply) in sorted(outcomes.items())
        )
        nodes.append(f"{'.'.join(map(str, path))}/{hint}/{entries}")
    return ";".join(nodes)


@lru_cache(maxsize=2048)
def parse(text: str) -> Tree:
    """The tree stored as `text`; TreeError if it is malformed."""
    tree: Tree = {}
    for node in text.split(";"):
        try:
            path_text, hint, entries = node.split("/")
            path = tuple(int(c) for c in path_text.split(".")) if path_text else ()
            outcomes: dict[int, Outcome] = {}
            for entry in entries.split(","):
                match = _ENTRY.fullmatch(entry)
                if match is None:
                    raise ValueError(f"bad entry {entry!r}")
                cell, letter, reply = match.groups()
                outcomes[int(cell)] = (STATES[letter], int(reply) if reply else None)
            tree[path] = (int(hint), outcomes)
        except ValueError as exc:
            raise TreeError(f"puzzle answers, node {node[:40]!r}: {exc}") from None
    return tree


def node(text: str, moves: tuple[int, ...]) -> Node | None:
    """The node for the attempt's `moves` in the stored `text` (none stored: None)."""
    return parse(text).get(moves) if text else None
