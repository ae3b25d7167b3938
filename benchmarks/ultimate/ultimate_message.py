"""The largest ultimate board message against Discord's limits (counted, not asserted).

    python benchmarks/ultimate/ultimate_message.py [--games 20] [--top 4] [--seed 1] [--quick]
                                                   [--json FILE]

Draws ultimate boards with the bot's own `bot.discord_ui.board.view` and counts what Discord
limits in a Components V2 message: characters of text across its text displays (4,000; counted
as code points and as UTF-16 units, whichever Discord counts), components, nested ones included
(40), top-level components (10), buttons in a row (5), a custom id's length (100) and a button
label's (80).

Worst cases, in two steps. First every position of --games random games (seeded), each drawn
for every look below as the player to move sees it (free to choose: before a pick and after
each open board picked) and as it ended, in English; then the --top longest positions of each
look, and the ends of two games, drawn in every state (a challenge, the player's move, the bot
thinking, won, drawn, resigned, timed out), against the bot and between people, in a channel
and through interactions only, with and without a clock, in each of the 17 board languages.
Looks: the default marks with buttons, reactions (cells keyed) and both; the longest Unicode
emoji marks; custom emoji marks (``<a:name:id>``: names of 2 to 32 characters, ids of 17 to 21
digits) of every length from 24 to 58 characters, X and O alone and with a custom empty mark,
each with reactions keyed. Players' ids and the game's id are as long as Discord's ids get.
The grid is drawn in the default marks past `GRID_LIMIT` characters, so the longest grid and the
longest text beside it, added, bound every message.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import emoji

from bot.discord_ui import board
from bot.games import look as looks
from bot.games.kinds import ultimate as kind
from bot.games.record import Ending, GameRecord, Status
from bot.games.settings import BOARD_LANGUAGES
from engine.ultimate import UltimateBoard

LIMITS = {"text": 4000, "components": 40, "top_level": 10, "row": 5, "custom_id": 100, "label": 80}
TEXT_DISPLAY, ACTION_ROW = 10, 1
PLAYER_X, PLAYER_O = 18446744073709551615, 18446744073709551614  # 20 digits, as long as ids get
GAME_ID = 9223372036854775807  # 19 digits: the longest a stored game id gets
DEADLINE = datetime(2286, 11, 20, tzinfo=UTC)  # a clock shown as <t:9999999999:R>


def custom(name_length: int, id_length: int, *, animated: bool = True, n: int = 1) -> str:
    """A custom emoji's text (``<a:name:id>``) with a name and id of the given lengths."""
    return f"<{'a' if animated else ''}:{'e' * (name_length - 1)}{n}:{n}{'9' * (id_length - 1)}>"


def longest_unicode(count: int) -> list[str]:
    """The `count` longest Unicode emoji a mark may be (in UTF-16 units, then code points)."""
    found = sorted(emoji.EMOJI_DATA, key=lambda e: (-len(e.encode("utf-16-le")), -len(e), e))
    return [e for e in found if looks.is_mark(e)][:count]


def all_looks(quick: bool = False) -> dict[str, looks.Look]:
    """Every look measured, by name (`quick`: the custom marks of the longest form only)."""
    found = {f"default, {mode}": looks.Look(input=mode) for mode in looks.INPUTS}
    x, o, empty = longest_unicode(3)
    found["longest Unicode marks, both"] = looks.Look(x=x, o=o, empty=empty, input="both")
    for name_length in [32] if quick else range(2, 33):
        for id_length in [21] if quick else range(17, 22):
            marks = [custom(name_length, id_length, n=i) for i in (1, 2, 3)]
            length = len(marks[0])
            for empty in (looks.DEFAULT.empty, marks[2]):
                look = looks.Look(x=marks[0], o=marks[1], empty=empty, input="both")
                assert looks.valid(look), look
                which = "X, O and empty" if empty != looks.DEFAULT.empty else "X and O"
                found[f"custom {which} of {length} characters, both"] = look
    return found


def positions(games: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    """Every position of `games` random games, the empty board and each end included."""
    yield ()
    for _ in range(games):
        position, moves = UltimateBoard.empty(), []
        while position.outcome() is None:
            cell = rng.choice(position.legal_moves())
            position = position.play(cell)
            moves.append(cell)
            yield tuple(moves)


def record(moves: tuple[int, ...], look: looks.Look, **fields: Any) -> GameRecord:
    """An ultimate game at `moves`, X to play by the ply; `fields` replace the defaults."""
    base = GameRecord(
        id=GAME_ID,
        guild_id=PLAYER_X,
        channel_id=PLAYER_X,
        x_id=PLAYER_X,
        o_id=PLAYER_O,
        challenger_id=PLAYER_X,
        size=9,
        k=3,
        moves=moves,
        look=look,
        kind=kind.ULTIMATE.name,
    )
    return replace(base, **fields)


def states(moves: tuple[int, ...], look: looks.Look, *, every: bool) -> Iterator[tuple[str, Any]]:
    """(state, picked) of the position: the player's move (each pick when free) or its end;
    `every`: each other state too (challenge, the bot thinking, resigned, timed out), each
    against the bot and between people, in a channel and through interactions only, with and
    without a clock."""
    position = UltimateBoard.from_moves(moves)
    outcome = position.outcome()
    to_move = position.turn
    other = "O" if to_move == "X" else "X"
    if outcome is not None:
        ending = Ending.WIN if outcome.winner is not None else Ending.DRAW
        base = [("ended", dict(status=Status.FINISHED, ending=ending, winner=outcome.winner))]
    else:
        base = [("move", dict(status=Status.ACTIVE))]
        if every:
            base += [
                ("bot thinking", dict(status=Status.ACTIVE, ai_side=to_move, ai_level="expert")),
                ("resigned", dict(status=Status.FINISHED, ending=Ending.RESIGN, winner=other)),
                ("timed out", dict(status=Status.FINISHED, ending=Ending.TIMEOUT, winner=other)),
            ]
            if not moves:
                base.append(("challenge", dict(status=Status.CHALLENGE)))
    variants = [{}]
    if every:
        variants = [
            dict(ai_side=side, ai_level=level, interactions_only=only, deadline=clock)
            for side, level in ((None, None), (other, "expert"))
            for only in (False, True)
            for clock in (None, DEADLINE)
        ]
    free = outcome is None and position.board_to_play() is None
    open_boards = [b for b in range(9) if free and not position.closed() >> b & 1]
    for name, fields in base:
        for variant in variants:
            if name == "challenge" and variant["ai_side"] is not None:
                continue  # no challenge against the bot
            game = record(moves, look, **{**variant, **fields})
            for picked in [None, *open_boards] if name == "move" else [None]:
                yield (
                    f"{name}{'' if picked is None else f' (board {picked + 1} picked)'}",
                    (game, picked),
                )


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from walk(component.get("components") or [])


def count(game: GameRecord, picked: int | None) -> dict[str, Any]:
    """What Discord limits, in the message the bot sends for `game`."""
    components = board.view(game, picked).to_components()
    every = list(walk(components))
    texts = [c["content"] for c in every if c["type"] == TEXT_DISPLAY]
    rows = [c for c in every if c["type"] == ACTION_ROW]
    keyed = game.look.reactions and game.status is Status.ACTIVE and not game.interactions_only
    drawn = kind.ULTIMATE._grid(game, game.look, keyed, picked)  # before any fallback
    shown = kind.ULTIMATE.grid(game, keyed=keyed, picked=picked) if board.has_board(game) else ""
    return {
        "text": sum(len(t) for t in texts),
        "text_utf16": sum(len(t.encode("utf-16-le")) // 2 for t in texts),
        "components": len(every),
        "top_level": len(components),
        "row": max((len(r["components"]) for r in rows), default=0),
        "custom_id": max((len(c.get("custom_id", "")) for c in every), default=0),
        "label": max((len(c.get("label", "")) for c in every), default=0),
        # Past GRID_LIMIT the grid is drawn with the default marks instead of the look's.
        "grid_fell_back": len(drawn) > kind.GRID_LIMIT,
        "beside_grid": sum(len(t) for t in texts) - len(shown),  # code points
    }


def measure(games: int, top: int, seed: int, *, quick: bool = False) -> dict[str, Any]:
    """The largest message of each look, and of all."""
    sample = list(positions(games, random.Random(seed)))
    # Two ends of games too, in every state: the text beside the grid is longest at an end.
    ends = [m for m in sample if UltimateBoard.from_moves(m).outcome() is not None][:2]
    largest: dict[str, dict[str, Any]] = {}
    beside = 0
    for name, look in all_looks(quick).items():
        scored = []
        for moves in sample:
            for _, (game, picked) in states(moves, look, every=False):
                scored.append((count(game, picked)["text_utf16"], moves))
        scored.sort(reverse=True)
        ranked = list(dict.fromkeys(moves for _, moves in scored))[:top]
        tops = ranked + [m for m in ends if m not in ranked]
        best: dict[str, Any] = {}
        for moves in tops:
            for locale in BOARD_LANGUAGES:
                for state, (game, picked) in states(moves, look, every=True):
                    counted = count(replace(game, locale=locale), picked)
                    beside = max(beside, counted["beside_grid"])
                    key = (counted["text_utf16"], counted["components"])
                    if not best or key > (best["text_utf16"], best["components"]):
                        best = {
                            **counted,
                            "state": state,
                            "locale": locale,
                            "plies": len(moves),
                            "mark_length": len(look.x),
                        }
        largest[name] = best
    return {"positions": len(sample), "limits": LIMITS, "looks": largest, "beside_grid": beside}


def print_table(result: dict[str, Any]) -> None:
    """The largest message of each look, then the largest of all against the limits."""
    looks_ = result["looks"]
    print(f"{result['positions']} positions; the largest message of each look:\n")
    print(
        "| look | state | language | plies | text (code points) | text (UTF-16) | components "
        "| grid in default marks |"
    )
    print("|---|---|---|---:|---:|---:|---:|---|")
    for name, m in looks_.items():
        print(
            f"| {name} | {m['state']} | {m['locale']} | {m['plies']} | {m['text']} | "
            f"{m['text_utf16']} | {m['components']} | {m['grid_fell_back']} |"
        )
    beside = result["beside_grid"]
    print(
        f"\nThe grid is at most {kind.GRID_LIMIT} characters (past that, the default marks), "
        f"the rest of the text at most {beside} here: at most {kind.GRID_LIMIT + beside} in "
        "all (code points)."
    )
    print("\n| limit | largest | Discord's | share |\n|---|---:|---:|---:|")
    for limit, allowed in LIMITS.items():
        field = "text_utf16" if limit == "text" else limit
        most = max(m[field] for m in looks_.values())
        print(f"| {limit} | {most} | {allowed} | {most / allowed:.0%} |")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games sampled")
    parser.add_argument("--top", type=int, default=4, help="positions of each look in every state")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="custom marks of 58 characters only")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    result = measure(args.games, args.top, args.seed, quick=args.quick)
    print_table(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
