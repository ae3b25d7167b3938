"""Hostile input: forged button ids, a thousand clicks at once, and fuzzed command options.

Every one of them gets exactly one answer (a refusal is private), no game changes that should
not, and nothing escapes as an exception (SimCord records every error the bot raises).
"""

from __future__ import annotations

import logging

import pytest
from simcord import Env, InteractionResult

from devkit.simcord_board import board_message, cells, game_id_of, guild_with, text
from tests.support.burst import click_together
from tests.support.forge import forged_click, raw_slash, user_resolved


def answered_once(result: InteractionResult) -> bool:
    """One acknowledgement, and no extra messages on top of it."""
    return result.acknowledged and len(result.followups) == 0


async def people_game(env: Env):
    """Alice (❌) against Bob (⭕), accepted, in #games; Carol watches."""
    guild, channel, (alice, bob, carol) = guild_with(env, "alice", "bob", "carol")
    await alice.slash(channel, "tictactoe", opponent=bob)
    message = board_message(channel)
    await bob.click(message, label="Accept")
    return guild, channel, alice, bob, carol, message


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> bool:
    """Nothing was logged at ERROR or above (a caught exception is logged there)."""
    return not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------ forged clicks


FORGED = {
    "unknown game": ("ttt:987654:4", "This game no longer exists"),
    "game id past SQLite's integers": ("ttt:9999999999999999999:4", "This game no longer exists"),
    "cell out of range": ("ttt:{game}:99", "not on this board"),
    "unknown action": ("ttt:{game}:explode", "That button no longer does anything"),
    "non-numeric game": ("ttt:abc:4", "not a button of mine"),
    "upper-case action": ("ttt:{game}:Resign", "not a button of mine"),
    "extra field": ("ttt:{game}:4:5", "not a button of mine"),
    "not ours at all": ("rickroll", "not a button of mine"),
    "huge cell": ("ttt:{game}:" + "9" * 40, "not a button of mine"),
}


@pytest.mark.parametrize("kind", list(FORGED))
async def test_a_forged_click_gets_a_private_refusal(
    simcord_env: Env, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever the custom id says, the clicker is answered privately and the board stays."""
    _, channel, alice, _, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    custom_id, says = FORGED[kind]
    before = text(simcord_env, message)

    result = await forged_click(
        simcord_env, alice, message, custom_id.format(game=game), channel=channel
    )

    assert answered_once(result) and result.ephemeral
    assert says in result.response.content
    assert text(simcord_env, message) == before
    assert simcord_env.errors == [] and no_errors_logged(caplog)


async def test_a_cell_of_someone_elses_game_is_refused_on_either_board(simcord_env: Env) -> None:
    """Carol forges a click on Alice and Bob's game, from their board and from her own."""
    guild, channel, alice, bob, carol, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    other = guild.create_text_channel("other")
    await carol.slash(other, "tictactoe")
    own = board_message(other)
    before = (text(simcord_env, message), text(simcord_env, own))

    on_theirs = await forged_click(simcord_env, carol, message, f"ttt:{game}:4", channel=channel)
    on_hers = await forged_click(simcord_env, carol, own, f"ttt:{game}:4", channel=other)

    assert answered_once(on_theirs) and on_theirs.ephemeral
    assert f"This game is between {alice.mention} and {bob.mention}" in on_theirs.response.content
    assert answered_once(on_hers) and on_hers.ephemeral
    assert "belongs to a game on another message" in on_hers.response.content
    assert (text(simcord_env, message), text(simcord_env, own)) == before
    assert simcord_env.errors == []


async def test_a_players_click_for_a_game_of_another_channel_is_refused(simcord_env: Env) -> None:
    """Alice plays in two channels; a click naming game A on game B's board changes neither."""
    guild, _, alice, _, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    other = guild.create_text_channel("other")
    await alice.slash(other, "tictactoe")
    second = board_message(other)
    boards = (text(simcord_env, message), text(simcord_env, second))

    result = await forged_click(simcord_env, alice, second, f"ttt:{game}:4", channel=other)

    assert answered_once(result) and result.ephemeral
    assert "belongs to a game on another message" in result.response.content
    assert (text(simcord_env, message), text(simcord_env, second)) == boards
    # The real board still takes the same move.
    ok = await alice.click(message, custom_id=f"ttt:{game}:4")
    assert not ok.ephemeral and cells(simcord_env, message, 3)[4].mark == "X"
    assert simcord_env.errors == []


# ------------------------------------------------------------- a thousand clicks


async def test_a_thousand_clicks_on_one_cell_apply_one_move_and_answer_each(
    simcord_env: Env,
) -> None:
    """Alice's 1,000 simultaneous clicks on the centre: one ❌, 999 private refusals."""
    _, _, alice, bob, _, message = await people_game(simcord_env)
    game = game_id_of(simcord_env, message)
    centre = f"ttt:{game}:4"

    results = await click_together(simcord_env, [(alice, message, centre)] * 1000, timeout=120)

    assert all(answered_once(r) for r in results)
    applied = [r for r in results if not r.ephemeral]
    assert len(applied) == 1
    refusals = {r.response.content for r in results if r.ephemeral}
    assert refusals == {f"It's not your turn: waiting for {bob.mention}."}
    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks == [None, None, None, None, "X", None, None, None, None]
    stored = await simcord_env.bot.store.load_game(game)
    assert stored is not None and stored.moves == (4,)
    assert simcord_env.errors == []


async def test_a_thousand_clicks_against_the_bot_apply_one_move_and_one_reply(
    simcord_env: Env,
) -> None:
    """Against the bot: one ❌, the bot's one ⭕, and every other click refused privately."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    await alice.slash(channel, "tictactoe")
    message = board_message(channel)
    game = game_id_of(simcord_env, message)

    clicks = [(alice, message, f"ttt:{game}:4")] * 1000
    results = await click_together(simcord_env, clicks, timeout=120)

    assert all(answered_once(r) for r in results)
    assert len([r for r in results if not r.ephemeral]) == 1
    refusals = {r.response.content for r in results if r.ephemeral}
    assert refusals <= {
        "I'm thinking about my move; one moment please.",  # before the reply is in
        "That cell is already taken; pick an empty one.",  # after it
    }
    stored = await simcord_env.bot.store.load_game(game)
    assert stored is not None and len(stored.moves) == 2 and stored.moves[0] == 4
    marks = [c.mark for c in cells(simcord_env, message, 3)]
    assert marks[4] == "X" and marks.count("X") == 1 and marks.count("O") == 1
    assert simcord_env.errors == []


# ---------------------------------------------------------- fuzzed command options

INTEGER, STRING, USER = 4, 3, 6
HUGE = 2**70

FUZZ = {
    "size 7": ([("size", INTEGER, 7)], "size must be one of 3, 4, 5"),
    "size 2": ([("size", INTEGER, 2)], "size must be one of 3, 4, 5"),
    "size 0": ([("size", INTEGER, 0)], "size must be one of 3, 4, 5"),
    "size -3": ([("size", INTEGER, -3)], "size must be one of 3, 4, 5"),
    "size huge": ([("size", INTEGER, HUGE)], "size must be one of 3, 4, 5"),
    "size as text": ([("size", STRING, "three")], "size must be one of 3, 4, 5"),
    "win_length 2": ([("win_length", INTEGER, 2)], "win_length 2 does not fit"),
    "win_length -1": ([("win_length", INTEGER, -1)], "win_length -1 does not fit"),
    "win_length 6 on 5x5": ([("size", INTEGER, 5), ("win_length", INTEGER, 6)], "does not fit"),
    "win_length huge": ([("win_length", INTEGER, HUGE)], f"win_length {HUGE} does not fit"),
    "win_length 3.5": ([("win_length", INTEGER, 3.5)], "win_length 3.5 does not fit"),
    "unknown difficulty": ([("difficulty", STRING, "godlike")], "difficulty must be one of"),
    "difficulty in capitals": ([("difficulty", STRING, "HARD")], "difficulty must be one of"),
    "empty difficulty": ([("difficulty", STRING, "")], "difficulty must be one of"),
    "huge difficulty": ([("difficulty", STRING, "x" * 6000)], "difficulty must be one of"),
    "unknown first": ([("first", STRING, "nobody")], "first must be one of me, opponent, random"),
    "first as a number": ([("first", INTEGER, 1)], "first must be one of"),
    "opponent not an id": ([("opponent", USER, "alice")], "arrived garbled"),
    "opponent negative id": ([("opponent", USER, "-42")], "arrived garbled"),
    "option without a type": ([("size", None, 3)], "arrived garbled"),
}


@pytest.mark.parametrize("case", list(FUZZ))
async def test_a_fuzzed_option_is_refused_with_a_message(
    simcord_env: Env, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Values Discord's own checks would stop: a private refusal that says which, no game."""
    _, channel, (alice,) = guild_with(simcord_env, "alice")
    options, says = FUZZ[case]

    result = await raw_slash(
        simcord_env,
        alice,
        channel,
        "tictactoe",
        [{"name": name, "type": kind, "value": value} for name, kind, value in options],
    )

    assert answered_once(result) and result.ephemeral
    assert says in result.response.content
    assert channel.last_message is None
    assert simcord_env.errors == [] and no_errors_logged(caplog)
    # Nothing was reserved: a proper command in the same channel starts a game.
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_opponent_values_a_client_could_send_are_each_answered(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Yourself, another bot, a stranger to the server, an unresolved id: refused; me: a game."""
    guild, channel, (alice,) = guild_with(simcord_env, "alice")
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    stranger = simcord_env.create_user("stranger")  # not a member of the server
    me = simcord_env.backend.bot_user.id

    async def challenge(user_id: int, *, resolve: bool = True) -> InteractionResult:
        resolved = user_resolved(simcord_env, user_id, guild_id=guild.id) if resolve else None
        option = {"name": "opponent", "type": USER, "value": str(user_id)}
        return await raw_slash(
            simcord_env, alice, channel, "tictactoe", [option], resolved=resolved
        )

    refusals = {
        "yourself": (await challenge(alice.id), "You can't challenge yourself"),
        "a bot": (await challenge(robot.id), "is a bot and can't play"),
        "a stranger": (await challenge(stranger.id), "is not a member of this server"),
        "unresolved": (await challenge(424242424242, resolve=False), "not a member"),
    }
    for who, (result, says) in refusals.items():
        assert answered_once(result) and result.ephemeral, who
        assert says in result.response.content, who
    assert channel.last_message is None

    against_me = await challenge(me)
    assert answered_once(against_me) and not against_me.ephemeral
    assert "(bot, unbeatable)" in text(simcord_env, board_message(channel))
    assert simcord_env.errors == [] and no_errors_logged(caplog)
