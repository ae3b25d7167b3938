"""Tiny runs of the load benchmark on ultimate tic-tac-toe, and of the count of its largest
board message: the machinery works on the real bot (speed is not checked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.games.settings import BOARD_LANGUAGES
from tests.benchmarks.running import figures

TINY = ("--window", "0.2", "--think", "0.01,0.05", "--max-plies", "20")
FLOORS = ("floor", "plain_floor", "durable_floor")


def check_runs(result: dict[str, object], games: int) -> None:
    runs = result["runs"]
    assert isinstance(runs, list) and runs
    for run in runs:
        assert run["size"] == 9, run
        assert run["finished"] == run["games"] == (2 if run["mode"] == "alone" else games), run
        assert run["stuck"] == 0 and run["unanswered"] == 0 and run["refused"] == 0, run
        assert not run["errors"], run
        # Resigned at 20 plies, unless won sooner: a win takes at least 17.
        assert run["moves"] >= run["games"] * 17, run
        assert run["picks"] > 0, run  # the first move of a game is always a free choice
        assert run["ack_ms"]["n"] == run["interactions"] > 0


def bot_figures(board: dict[str, Any]) -> tuple[float, float]:
    """After checking that every bot finished the 4 games of the floor's one round: the
    project bot's CPU ms per interaction, of its whole process tree and without its engine."""
    (pair,) = board["pairs"]
    for side in ("bot", *FLOORS):
        assert pair[side]["finished"] == 4 and pair[side]["errors"] == 0, pair
    mine = pair["bot"]
    return mine["cpu_ms_per_interaction"], mine["cpu_ms_per_interaction_without_engine"]


def test_ultimate_games_through_simcord_finish_in_each_mode(tmp_path: Path) -> None:
    """Through SimCord, players pick a small board when free, then a cell, in every mode; every
    game finishes and every interaction is answered."""
    result = figures(
        "load/load.py",
        tmp_path,
        *[
            "--variant",
            "ultimate",
            "--discord",
            "simcord",
            "--modes",
            "alone,burst,spread,memory",
            "--alone",
            "2",
            "--games",
            "3",
            "--dir",
            str(tmp_path),
            *TINY,
        ],
    )
    assert [r["mode"] for r in result["runs"]] == ["alone", "burst", "spread"]
    check_runs(result, 3)
    (memory,) = result["memory"]
    assert memory["size"] == 9 and memory["live"] == 3 and memory["bot_side_bytes"] > 0


def test_ultimate_against_the_local_discord_and_the_floor(tmp_path: Path) -> None:
    """With the bot in a process of its own, ultimate games (against the bot at its strongest
    level) finish in every mode; the floor plays them too, and the bot's figures without its
    engine workers are given beside its whole process tree's."""
    result = figures(
        "load/load.py",
        tmp_path,
        *[
            "--variant",
            "ultimate",
            "--modes",
            "burst,spread,memory,floor",
            "--games",
            "4",
            "--pairs",
            "1",
            "--against",
            "bot",
            "--level",
            "unbeatable",
            "--dir",
            str(tmp_path),
            *TINY,
        ],
    )
    check_runs(result, 4)
    (memory,) = result["memory"]
    assert memory["live"] == memory["live_rss"] == 4 and not memory["errors"], memory
    assert [(f["size"], f["pattern"]) for f in result["floor"]] == [(9, "burst"), (9, "eager")]
    for board in result["floor"]:
        whole, alone = bot_figures(board)
        assert 0 < alone < whole, board  # the strongest level searches in the engine's workers
        assert set(board["medians"]) == {"bot", "bot without engine"}


def test_ultimate_between_people_against_the_floor(tmp_path: Path) -> None:
    """Between people the engine plays no move: the bot's figure without its workers is its
    whole figure, near enough (idle workers)."""
    result = figures(
        "load/load.py",
        tmp_path,
        *[
            "--variant",
            "ultimate",
            "--modes",
            "floor",
            "--games",
            "4",
            "--pairs",
            "1",
            "--against",
            "friend",
            "--dir",
            str(tmp_path),
            *TINY,
        ],
    )
    for board in result["floor"]:
        whole, alone = bot_figures(board)
        assert 0.9 * whole <= alone <= whole, board


def test_the_largest_board_message_is_counted_for_every_look(tmp_path: Path) -> None:
    """Every look gets its largest message counted, in one of the 17 languages; the custom
    marks of the longest form are among them, and the limits are Discord's."""
    options = ("--games", "1", "--top", "1", "--quick")
    result = figures("ultimate/ultimate_message.py", tmp_path, *options)
    looks = result["looks"]
    assert "custom X and O of 58 characters, both" in looks
    assert {"default, buttons", "default, reactions", "default, both"} <= set(looks)
    for measured in looks.values():
        assert measured["text"] <= measured["text_utf16"]
        # The text, then rows of buttons (the controls at least), each row counted with them.
        assert measured["components"] > measured["top_level"] >= 2
        assert measured["locale"] in BOARD_LANGUAGES
    assert result["limits"]["text"] == 4000 and result["limits"]["components"] == 40
