"""Tournaments in the playground: the regulars fill the field of a tournament announced there.

A tournament's announcement lists its players while it is open, on a line of their mentions
alone, and once it runs, one standing a line, each starting with a rank and the player
(``bot.tournaments.board``); its Join button stays while it takes players (an arena's, to
its end). The regulars
read it as a person does: while fewer than `FIELD` players are listed, as many regulars as there
are places left (the first of them not yet listed) click Join, each after their own pause; the
members the page views as join (or not) as they like, and may make the field larger. Once the
tournament starts, its games are boards like any other in threads under the channel, which the
regulars play by the rules they already have (``regulars.CELLS``); the creator presses Start.
"""

from __future__ import annotations

import re

from bot.playground.regulars import MENTION, Regulars, Rule, Seen
from bot.tournaments import board as tournament_board

FIELD = 5  # the players a tournament of the playground's has once the regulars have joined
PLAYERS_LINE = re.compile(r"(?:<@!?[0-9]+>\s*)+")
STANDING = re.compile(r"[0-9]+\. <@!?([0-9]+)>")


def players(text: str) -> set[int]:
    """The players a tournament's announcement lists: its line of mentions alone while it is
    open, its standings once it runs."""
    listed: set[int] = set()
    for line in text.splitlines():
        if PLAYERS_LINE.fullmatch(line.strip()):
            listed.update(int(found) for found in MENTION.findall(line))
        elif (standing := STANDING.match(line)) is not None:
            listed.add(int(standing.group(1)))
    return listed


def filling(regulars: Regulars, field: int = FIELD) -> Rule:
    """The rule: a regular clicks Join while the announcement lists fewer than `field` players
    and they are among the first regulars not listed, as many as there are places left."""

    def joins(seen: Seen) -> bool:
        parsed = tournament_board.parse_id(seen.custom_id)
        if parsed is None or parsed[1] != tournament_board.JOIN:
            return False
        listed = players(seen.text)
        waiting = sorted(member for member in regulars.members if member not in listed)
        return seen.member_id in waiting[: max(0, field - len(listed))]

    return joins


def join_tournaments(regulars: Regulars, field: int = FIELD) -> None:
    """Have the regulars fill each tournament announced where they read to `field` players."""
    regulars.also_click(filling(regulars, field))
