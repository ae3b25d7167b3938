"""The kinds of game on their own (pure): ultimate's grid, buttons and keys, classic's keys, and
what each refuses, on positions where the answer is known."""

from __future__ import annotations

import dataclasses
import random

from bot.discord_ui import board
from bot.games.kinds import CLASSIC, KINDS, ULTIMATE, of
from bot.games.look import KEYCAPS, Look
from bot.games.record import Ending, GameRecord, Status
from engine.ultimate import UltimateBoard
from engine.ultimate.geometry import board_cells

# X takes the top-left small board with row 3 (B3, C3, A3), O playing D7 and G7 between.
TOP_LEFT_WON = (19, 57, 20, 60, 18)


def ultimate(moves: tuple[int, ...] = (), **changes: object) -> GameRecord:
    game = GameRecord(
        id=9,
        guild_id=1,
        channel_id=2,
        x_id=3,
        o_id=4,
        challenger_id=3,
        size=9,
        k=3,
        kind="ultimate",
        moves=moves,
    )
    return dataclasses.replace(game, **changes)  # type: ignore[arg-type]


def test_every_kind_is_registered_by_its_stored_name() -> None:
    assert KINDS == {"classic": CLASSIC, "ultimate": ULTIMATE}
    assert (
        of(ultimate()) is ULTIMATE
        and of(dataclasses.replace(ultimate(), kind="classic")) is CLASSIC
    )


def test_the_grid_sets_boards_apart_fills_a_won_one_and_marks_the_board_to_play() -> None:
    position = UltimateBoard.from_moves(TOP_LEFT_WON)
    assert position.small_winner(0) == "X"
    lines = ULTIMATE.grid(ultimate(TOP_LEFT_WON), keyed=False).split("\n")
    assert len(lines) == 1 + 9 + 2  # the letters, nine rows, two empty lines between boards
    assert lines[1].startswith("1️⃣❌❌❌ ") and lines[3].startswith("3️⃣❌❌❌ ")
    target = position.board_to_play()
    assert target is not None
    assert ULTIMATE.grid(ultimate(TOP_LEFT_WON), keyed=False).count("🟨") == sum(
        position.cell(c) == "." for c in board_cells(target)
    )


def test_a_keyed_grid_shows_the_keycaps_of_the_board_to_play() -> None:
    game = ultimate((40,))  # E5: O is sent to the centre board
    grid = ULTIMATE.grid(game, keyed=True)
    assert all(key in grid for i, key in enumerate(KEYCAPS) if i != 4)  # E5 itself is taken
    assert "🟨" not in grid


def test_long_custom_marks_fall_back_to_the_default_marks_in_the_grid() -> None:
    long = Look(
        x="<:" + "x" * 32 + ":123456789012345678901>",
        o="<:" + "o" * 32 + ":123456789012345678902>",
        empty="<:" + "e" * 32 + ":123456789012345678903>",
    )
    game = ultimate(TOP_LEFT_WON, look=long)
    assert "⬜" in ULTIMATE.grid(game, keyed=False)
    assert len(board.text(game)) < 4000
    assert len(board.text(ultimate(TOP_LEFT_WON, look=Look(x="🐱")))) < 1000


def test_free_to_choose_the_buttons_are_the_open_boards_then_a_boards_cells() -> None:
    # O's A7 (cell 0 of the bottom-left board) sends X to the top-left board, which X has won:
    # X may choose.
    moves = (*TOP_LEFT_WON, 54)
    game = ultimate(moves, status=Status.ACTIVE)
    assert UltimateBoard.from_moves(moves).board_to_play() is None
    rows = ULTIMATE.cell_rows(game)
    picks = [b for row in rows for b in row["components"]]
    assert [b["custom_id"] for b in picks] == [f"ttt:9:pick{b}@6" for b in range(9)]
    assert picks[0]["disabled"] and "emoji" in picks[0]  # won by X
    assert not any(b["disabled"] for b in picks[1:])
    cells = [b for row in ULTIMATE.cell_rows(game, picked=4) for b in row["components"]]
    assert [b["custom_id"] for b in cells] == [f"ttt:9:{c}@6" for c in board_cells(4)]
    assert ULTIMATE.extra_controls(game, 4) == (board.BACK,)
    assert ULTIMATE.extra_controls(game, None) == ()
    assert ULTIMATE.can_pick(game, 4) and not ULTIMATE.can_pick(game, 0)


def test_a_finished_game_has_no_cell_buttons_and_names_its_line_of_boards() -> None:
    game = ultimate(TOP_LEFT_WON, status=Status.FINISHED, ending=Ending.RESIGN, winner="X")
    assert ULTIMATE.cell_rows(game) == []
    assert ULTIMATE.line_names(game) == ""  # resigned: no line


def test_ultimates_keys_and_refusals() -> None:
    sent = ultimate((40,))  # O must play in the centre board
    assert ULTIMATE.read_key(sent, None, KEYCAPS[0]) == ("cell", 30)  # D4
    assert ULTIMATE.read_key(sent, None, "🇦") is None
    free = ultimate()
    assert ULTIMATE.read_key(free, None, KEYCAPS[8]) == ("pick", 8)
    assert ULTIMATE.read_key(free, 8, KEYCAPS[0]) == ("cell", 60)  # G7
    assert ULTIMATE.refuse_cell(sent, 40) is not None  # taken
    wrong = ULTIMATE.refuse_cell(sent, 0)
    assert wrong is not None and "D4–F6" in wrong.in_locale(None)
    assert ULTIMATE.refuse_cell(sent, 30) is None
    assert (
        ULTIMATE.engine_level("unbeatable") == "expert" and ULTIMATE.engine_level("easy") == "easy"
    )


def test_classics_5x5_keys_are_a_column_then_a_row() -> None:
    game = GameRecord(id=1, guild_id=1, channel_id=2, x_id=3, o_id=4, challenger_id=3, size=5, k=4)
    assert CLASSIC.read_key(game, None, "🇨") == ("pick", 2)
    assert CLASSIC.read_key(game, None, "2️⃣") is None  # a row with no column picked
    assert CLASSIC.read_key(game, 2, "2️⃣") == ("cell", 7)
    three = dataclasses.replace(game, size=3, k=3)
    assert CLASSIC.read_key(three, None, KEYCAPS[4]) == ("cell", 4)
    assert CLASSIC.picks(game) and not CLASSIC.picks(three)


def test_a_won_game_names_its_line_of_small_boards() -> None:

    rng, position, moves = random.Random(2), UltimateBoard.empty(), []
    while position.outcome() is None:
        moves.append(rng.choice(position.legal_moves()))
        position = position.play(moves[-1])
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is not None  # this seed's game is won
    game = ultimate(tuple(moves), status=Status.FINISHED, ending=Ending.WIN, winner=outcome.winner)
    names = ULTIMATE.line_names(game)
    assert names.count("–") == 3
    assert f"wins with {names}!" in board.text(game)


def test_the_keys_that_still_play_drop_taken_cells_full_lines_and_all_at_the_end() -> None:
    """3x3: the keys of empty cells; 5x5: columns and rows with an empty cell; ultimate: every
    key while the game is on; none once a game is over."""
    classic = GameRecord(
        id=9,
        guild_id=1,
        channel_id=2,
        x_id=3,
        o_id=4,
        challenger_id=3,
        size=3,
        k=3,
        moves=(0, 4),
        status=Status.ACTIVE,
    )
    assert CLASSIC.live_keys(classic) == [KEYCAPS[c] for c in (1, 2, 3, 5, 6, 7, 8)]
    column_a = dataclasses.replace(classic, size=5, k=4, moves=(0, 5, 10, 15, 20))
    keys = CLASSIC.keys(column_a)
    assert CLASSIC.live_keys(column_a) == keys[1:5] + keys[5:]  # column A is full; no row is
    assert ULTIMATE.live_keys(ultimate(TOP_LEFT_WON, status=Status.ACTIVE)) == list(KEYCAPS)
    for over in (classic, column_a, ultimate(TOP_LEFT_WON)):
        assert of(over).live_keys(dataclasses.replace(over, status=Status.FINISHED)) == []
