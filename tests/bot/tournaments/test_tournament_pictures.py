"""A server whose boards are pictures: a tournament game's board in its thread is a picture
too, drawn as any board (every cell as the game stored holds it), from its first post to its
end."""

from __future__ import annotations

from pathlib import Path

from bot.assembly import sqlite_store
from bot.games.settings import ServerSettings
from bot.tournaments.tournament import Stage
from devkit.local_game import until
from devkit.local_tournament import announcement, boards, threads
from devkit.localdiscord import FakeDiscord
from tests.bot.picture_support import check, needs_font
from tests.bot.test_user_install_pictures import board_png
from tests.bot.tournaments.tournament_support import club, create, play_out, press, settled, started
from tests.bot.user_install_support import NEEDS_PROCESSES, stored

pytestmark = NEEDS_PROCESSES


async def test_a_tournament_game_in_a_picture_server_is_a_picture(tmp_path: Path) -> None:
    needs_font()
    fake = FakeDiscord()
    c = club(fake, 2)
    await fake.start()
    bot, table = await started(fake, tmp_path)
    await bot.stop()  # the database made; the server's settings written as an admin would
    store = sqlite_store(bot.database)
    await store.open()
    try:
        await store.save_server_settings(c.games.guild_id, ServerSettings(board_style="picture"))
    finally:
        await store.close()
    await bot.start()
    try:
        await create(table, c.members[0], c.games, format="swiss")
        board = announcement(fake, c.games)
        for member in c.members:
            await press(table, member, c.games, board, "join")
        await press(table, c.members[0], c.games, board, "start")
        await until(lambda: threads(fake, c.games) != [], "the game's thread")
        (thread,) = threads(fake, c.games)
        await until(lambda: boards(fake, thread.id) != [], "the board in its thread")
        message = int(boards(fake, thread.id)[0]["id"])
        image, alt = board_png(fake, message)
        assert alt, "the picture says what it shows"
        game = await stored(bot, table.game_id(message))
        assert game is not None and not game.moves and game.look.picture
        assert check(image, game) == 9
        people = {u.id: u for u in c.members}
        await play_out(table, fake.channels[thread.id], message, people)
        await until(lambda: thread.archived, "the thread archived once the game is over")
        (t,), pairings = await settled(bot)
        assert t.stage is Stage.FINISHED and [p.result for p in pairings[t.id]] == [1.0]
    finally:
        await bot.stop()
    game = await stored(bot, table.game_id(message))
    assert game is not None and len(game.moves) == 7 and game.winner == "X"
    image, _ = board_png(fake, message)  # the end, drawn as a picture too
    assert check(image, game) == 9
