"""Rendering a game record: the emoji grid, the words, and the buttons, for every board size."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

import engine
from bot.discord_ui import board as render
from bot.discord_ui import readback
from bot.games import rules as play
from bot.games.kinds import CLASSIC
from bot.games.record import Ending, GameRecord, Status

ALICE, BOB, BOT = 11, 22, 99


def game(moves: list[int], *, size: int = 3, k: int | None = None, **changes: object) -> GameRecord:
    """A game between Alice (X) and Bob (O) after `moves`, finished if they end it."""
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        x_id=ALICE,
        o_id=BOB,
        challenger_id=ALICE,
        size=size,
        k=k if k is not None else engine.default_k(size),
    )
    for cell in moves:
        record = play.play(record, cell)
    return dataclasses.replace(record, **changes)


def components(record: GameRecord) -> list[dict]:
    return render.view(record).to_components()


def action_rows(record: GameRecord) -> list[list[dict]]:
    return [c["components"] for c in components(record) if c["type"] == 1]


def count(items: list[dict]) -> int:
    return sum(1 + count(c.get("components", [])) for c in items)


def test_a_3x3_grid_has_no_labels():
    """3x3: three rows of marks and empty squares, nothing else."""
    assert CLASSIC.grid(game([0, 4]), keyed=False) == "❌⬜⬜\n⬜⭕⬜\n⬜⬜⬜"


def test_bigger_grids_have_column_letters_and_row_numbers():
    """4x4: a header of A..D and a number before each row; letters never fuse into flags."""
    lines = CLASSIC.grid(game([0, 5], size=4), keyed=False).split("\n")
    assert len(lines) == 5
    assert lines[0] == "⬛🇦\u200b🇧\u200b🇨\u200b🇩"
    assert lines[1] == "1️⃣❌⬜⬜⬜"
    assert lines[2] == "2️⃣⬜⭕⬜⬜"


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_board_is_the_first_size_action_rows_then_the_controls(size: int):
    """One button per cell, row-major, custom ids ttt:<game>:<cell>; Resign under the board."""
    rows = action_rows(game([], size=size))
    assert len(rows) == size + 1
    ids = [b["custom_id"] for row in rows[:size] for b in row]
    assert ids == [f"ttt:7:{cell}" for cell in range(size * size)]
    assert [b["label"] for b in rows[size]] == ["Resign"]
    assert count(components(game([], size=size))) <= 40


def test_occupied_cells_show_their_mark_and_are_disabled():
    """X and O appear as emoji on disabled buttons; empty cells stay clickable."""
    cells = [b for row in action_rows(game([0, 4]))[:3] for b in row]
    assert cells[0]["emoji"]["name"] == "❌" and cells[0]["disabled"]
    assert cells[4]["emoji"]["name"] == "⭕" and cells[4]["disabled"]
    assert not cells[1].get("disabled")


def test_3x3_cells_carry_their_names_and_empty_ones_the_empty_mark():
    """Each 3x3 cell button is named as win lines and hints name it (A1 ... C3), and every cell
    shows an emoji (an empty one ⬜): empty and marked buttons have the same parts."""
    cells = [b for row in action_rows(game([0, 4]))[:3] for b in row]
    assert [b["label"] for b in cells] == [engine.cell_name(c, 3) for c in range(9)]
    assert [b["emoji"]["name"] for b in cells] == ["❌"] + ["⬜"] * 3 + ["⭕"] + ["⬜"] * 4


@pytest.mark.parametrize("size", [4, 5])
def test_bigger_boards_name_each_empty_cell_and_show_each_taken_cells_mark(size: int):
    """4x4 and 5x5: an empty cell's button is its name alone (A1 ... E5, as the grid's letters
    and numbers give it), a taken cell's its mark alone: one thing per button, as narrow as
    the other, so up to five a row keep their columns."""
    moves = [0, size + 1]  # A1 and B2
    cells = [b for row in action_rows(game(moves, size=size))[:size] for b in row]
    for cell, button in enumerate(cells):
        if cell in moves:
            assert "label" not in button and button["emoji"]["name"] == "❌⭕"[moves.index(cell)]
        else:
            assert "emoji" not in button and button["label"] == engine.cell_name(cell, size)
    labels = [b["label"] for b in cells if "label" in b]
    assert {len(label) for label in labels} == {2}  # a letter and a digit, no wider
    assert labels[0] == "B1" and labels[-1] == f"{'ABCDE'[size - 1]}{size}"


def test_a_win_disables_every_cell_highlights_the_line_and_says_who_won():
    """X takes the top row: green line, all disabled, the result in words, Rematch."""
    record = game([0, 3, 1, 4, 2])
    assert record.status is Status.FINISHED and record.ending is Ending.WIN
    rows = action_rows(record)
    cells = [b for row in rows[:3] for b in row]
    assert all(b.get("disabled") for b in cells)
    assert [i for i, b in enumerate(cells) if b["style"] == 3] == [0, 1, 2]
    assert [b["label"] for b in rows[3]] == ["Rematch", "Review", "Replay"]
    assert render.status(record) == f"🏆 ❌ <@{ALICE}> wins with A1, B1, C1!"


def test_a_draw_says_so():
    """A full board with no line."""
    record = game([0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert record.ending is Ending.DRAW
    assert render.status(record) == "🤝 It's a draw."


def test_resign_and_timeout_name_loser_and_winner():
    """Endings other than a line say what happened and who won."""
    resigned = play.finish(game([0]), Ending.RESIGN, "X")
    assert render.status(resigned) == f"🏳️ <@{BOB}> resigned. ❌ <@{ALICE}> wins."
    late = play.finish(game([0]), Ending.TIMEOUT, "X")
    assert render.status(late) == f"⌛ <@{BOB}> ran out of time. ❌ <@{ALICE}> wins by forfeit."


def test_the_bot_side_shows_its_level_and_thinks_on_its_turn():
    """Against the bot: its level in the header; on its turn the text says it is thinking."""
    record = game([4], o_id=BOT, ai_side="O", ai_level="hard")
    assert f"⭕ <@{BOT}> (bot, hard)" in render.header(record)
    assert render.status(record) == f"⭕ <@{BOT}> is thinking…"


def test_a_human_turn_mentions_the_player_and_the_clock():
    """The player to move is mentioned, with a relative time for the forfeit."""
    deadline = datetime(2030, 1, 1, tzinfo=UTC)
    record = game([4], deadline=deadline)
    assert render.status(record) == (
        f"<@{BOB}>, your move (⭕). Time runs out <t:{int(deadline.timestamp())}:R>."
    )


def test_a_challenge_has_no_board_and_three_answers():
    """A pending challenge mentions the opponent, with Accept, Decline and Withdraw."""
    record = game([], status=Status.CHALLENGE)
    rows = action_rows(record)
    assert [[b["label"] for b in row] for row in rows] == [["Accept", "Decline", "Withdraw"]]
    words = render.text(record)
    assert f"<@{BOB}>, <@{ALICE}> challenges you" in words
    assert "⬜" not in words


@pytest.mark.parametrize(
    ("ending", "words"),
    [
        (Ending.DECLINED, f"<@{BOB}> declined the challenge."),
        (Ending.WITHDRAWN, f"<@{ALICE}> withdrew the challenge."),
        (Ending.EXPIRED, f"The challenge expired: <@{BOB}> did not answer in time."),
    ],
)
def test_an_unanswered_challenge_ends_without_buttons(ending: Ending, words: str):
    """Declined, withdrawn or expired: the words say which, and nothing is left to click."""
    record = play.finish(game([], status=Status.CHALLENGE), ending, None)
    assert render.status(record) == words
    assert action_rows(record) == []


def test_jump_url_points_at_the_message_in_servers_and_dms():
    """The link a refusal gives to the running game."""
    assert readback.jump_url(game([], message_id=5)) == "https://discord.com/channels/1/2/5"
    assert readback.jump_url(game([], message_id=5, guild_id=None)).endswith("/@me/2/5")
