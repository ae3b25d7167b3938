"""/tictactoe-stats' rating chart through the real bot: a PNG with one line per kind the player
was rated in (their colours found in the picture, the higher rating drawn higher), its key and
its alt text in the reader's language; none before a rated game; the puzzle rating."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image
from simcord import Env

from bot.client import TicTacToeBot
from bot.history import chart
from bot.history.board import KIND_NAMES
from bot.history.chart import chart_alt
from bot.history.store import HistoryStore
from bot.puzzles.model import AttemptRecord
from bot.puzzles.store import PuzzleStore
from devkit.simcord_board import guild_with
from engine.puzzles import play, puzzles
from tests.bot.history.test_stats_cog import finish
from tests.bot.store_support import finished
from tests.bot.test_locales import client_locales as client_locales  # the fixture


def colour_rows(image: Image.Image, colour: tuple[int, int, int]) -> list[int]:
    """The rows (y) of the plot where a pixel has this colour."""
    left, top, right, bottom = chart.PLOT
    found = []
    for y in range(top, bottom):
        for x in range(left, right, 2):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if all(abs(a - b) <= 6 for a, b in zip(pixel, colour, strict=True)):
                found.append(y)
                break
    return found


def rightmost_row(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """The row of the rightmost pixel of this colour in the plot (a line's last point)."""
    left, top, right, bottom = chart.PLOT
    for x in range(right - 1, left, -1):
        for y in range(top, bottom):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if all(abs(a - b) <= 6 for a, b in zip(pixel, colour, strict=True)):
                return y
    raise AssertionError(f"no {colour} in the chart")


async def test_the_chart_has_a_line_per_kind(simcord_env: Env) -> None:
    """Ann wins three classic games and loses two ultimate ones: the chart draws both lines,
    classic's last point above ultimate's, and says both in its key and alt text."""
    guild, channel, (ann, bob) = guild_with(simcord_env, "ann", "bob")
    for _ in range(3):
        await finish(
            simcord_env, guild_id=guild.id, channel_id=channel.id, x=ann.id, o=bob.id, winner="X"
        )
    bot = simcord_env.bot
    assert isinstance(bot, TicTacToeBot)
    for _ in range(2):
        game = finished(
            await bot.store.next_game_id(),
            ann.id,
            bob.id,
            "O",
            kind="ultimate",
            size=9,
            k=3,
            guild_id=guild.id,
            moves=(40,),
        )
        await bot.store.save_game(game)
    result = await bob.slash(channel, "tictactoe-stats", user=ann)
    text = result.response.content
    assert "Elo over time: 🟦 Classic · 🟧 Ultimate" in text
    assert "Puzzle rating" not in text  # never tried a puzzle
    [picture] = result.response.attachments
    assert picture.filename == "rating.png"
    data = simcord_env.backend.cdn.get(picture.url)
    assert data is not None
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (chart.WIDTH, chart.HEIGHT)
    image = image.convert("RGB")
    classic, ultimate = chart.LINES["classic"], chart.LINES["ultimate"]
    assert len(colour_rows(image, classic)) > 20 and len(colour_rows(image, ultimate)) > 10
    assert rightmost_row(image, classic) < rightmost_row(image, ultimate)  # higher is up
    series = await HistoryStore(bot.store).rating_history(guild.id, ann.id)
    assert [len(series["classic"]), len(series["ultimate"])] == [3, 2]
    assert picture.description == chart_alt(series, KIND_NAMES, "en-US")
    assert "Classic: 3 rated games, from 15" in picture.description


async def test_no_chart_before_a_rated_game(simcord_env: Env) -> None:
    """Games against the bot only: the record, and no chart."""
    guild, channel, (ann,) = guild_with(simcord_env, "ann")
    me = simcord_env.bot.user.id
    await finish(
        simcord_env,
        guild_id=guild.id,
        channel_id=channel.id,
        x=ann.id,
        o=me,
        winner="X",
        ai_side="O",
        level="easy",
    )
    result = await ann.slash(channel, "tictactoe-stats")
    assert "Easy: 1W 0D 0L" in result.response.content
    assert not result.response.attachments and "Elo over time" not in result.response.content


async def test_the_chart_and_puzzle_rating_in_french(
    simcord_env: Env, client_locales: dict[int, str]
) -> None:
    """A French reader gets the key, the puzzle rating and the alt text in French."""
    guild, channel, (marie, bob) = guild_with(simcord_env, "marie", "bob")
    client_locales[marie.id] = "fr"
    await finish(
        simcord_env, guild_id=guild.id, channel_id=channel.id, x=marie.id, o=bob.id, winner="X"
    )
    bot = simcord_env.bot
    assert isinstance(bot, TicTacToeBot)
    puzzle_store = PuzzleStore(bot.store)
    started = await puzzle_store.start_attempt(
        AttemptRecord(0, guild.id, channel.id, marie.id, puzzles()[0], locale="fr")
    )
    assert started is not None
    solved = started.moved(play(started.attempt, started.puzzle.solution))
    assert await puzzle_store.finish_attempt(dataclasses.replace(solved, state="solved"), started)
    result = await marie.slash(channel, "tictactoe-stats")
    text = result.response.content
    assert "Elo au fil du temps : 🟦 Classique" in text
    assert "Classement aux énigmes : **" in text and "(1 énigme)" in text
    [picture] = result.response.attachments
    series = await HistoryStore(bot.store).rating_history(guild.id, marie.id)
    assert picture.description == chart_alt(series, KIND_NAMES, "fr")
    assert picture.description.startswith("Un graphique du classement Elo")
    assert "Classique : 1 partie classée, de 15" in picture.description
