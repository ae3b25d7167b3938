"""Languages through SimCord: private replies in the clicker's own language, the shared board in
one language stored with the game, command names and descriptions localised in the sync.

SimCord sends every interaction as from an English (en-US) client; the ``client_locales``
fixture makes its simulated Discord send each user's own client language instead, as Discord
does (the interaction's ``locale`` field), and discord.py reads it as usual.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord.interactions
from simcord import Env

from bot.client import TicTacToeBot
from devkit.simcord_board import board_message, controls, guild_with, text
from tests.support.burst import click_together
from tests.support.forge import raw_slash


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each user's Discord client language, by user id (default en-US)."""
    locales: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_locale(backend: Any, **fields: Any) -> Any:
        record, payload = original(backend, **fields)
        payload["locale"] = locales.get(fields["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return locales


async def test_a_french_member_gets_french_replies_on_a_board_in_the_servers_language(
    simcord_env: Env, client_locales: dict[int, str]
) -> None:
    """The server chose German boards: a French member's refusals are French, an English
    member's English, and the board everyone sees stays German."""
    guild, channel, (alice, bob, marie) = guild_with(simcord_env, "alice", "bob", "marie")
    admin = guild.add_member(
        simcord_env.create_user("admin"),
        roles=[guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))],
    )
    client_locales[marie.id] = "fr"
    await admin.slash(channel, "tictactoe-settings set", language="de")
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Annehmen")

    french = await marie.click(board, custom_id="ttt:1:0")
    english = await bob.click(board, custom_id="ttt:1:0")
    shown = text(simcord_env, board)

    assert french.ephemeral
    assert french.response.content == (
        f"Cette partie oppose <@{alice.id}> et <@{bob.id}> ; lancez la vôtre avec /morpion."
    )
    assert english.response.content == f"It's not your turn: waiting for <@{alice.id}>."
    assert "Tic-Tac-Toe · 3×3, 3 in einer Reihe" in shown
    assert f"<@{alice.id}>, du bist am Zug (❌)." in shown
    assert set(controls(simcord_env, board, 3)) == {"Aufgeben"}


async def test_without_a_server_language_the_board_speaks_its_starters(
    simcord_env: Env, client_locales: dict[int, str]
) -> None:
    """No setting and no Community language: the board is in the language of who started it,
    and keeps it for everyone, the opponent's clicks included."""
    _, channel, (marie, bob) = guild_with(simcord_env, "marie", "bob")
    client_locales[marie.id] = "fr"
    await marie.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)

    assert "vous défie" in text(simcord_env, board)
    await bob.click(board, label="Accepter")
    assert f"<@{marie.id}>, à vous de jouer (❌)." in text(simcord_env, board)


async def test_a_language_without_catalog_falls_back_to_english(
    simcord_env: Env, client_locales: dict[int, str]
) -> None:
    """A locale the bot has no words for (Swedish) gets English; a regional variant gets its
    base language (Latin American Spanish: the Spanish catalog)."""
    _, channel, (sven, lucia, bob) = guild_with(simcord_env, "sven", "lucia", "bob")
    client_locales[sven.id] = "sv-SE"
    client_locales[lucia.id] = "es-419"
    await bob.slash(channel, "tictactoe")
    board = board_message(channel)

    swedish = await sven.click(board, custom_id="ttt:1:8")
    spanish = await lucia.click(board, custom_id="ttt:1:8")

    assert swedish.response.content.startswith("This game is between")
    assert spanish.response.content.startswith("Esta partida es entre")


async def test_the_language_is_stored_with_the_game_across_a_restart(
    simcord_env: Env, client_locales: dict[int, str], make_bot: Callable[..., TicTacToeBot]
) -> None:
    """A board edited with no click at hand (a forfeit after a restart) keeps its language."""
    _, channel, (marie, bob) = guild_with(simcord_env, "marie", "bob")
    client_locales[marie.id] = "fr"
    await marie.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)
    await bob.click(board, label="Accepter")
    old = simcord_env.bot
    assert isinstance(old, TicTacToeBot)
    await old.release()
    await simcord_env.restart_bot(make_bot())

    await simcord_env.advance_time(400)

    assert "n'a plus de temps" in text(simcord_env, board)


async def test_commands_are_synced_with_their_localisations(simcord_env: Env) -> None:
    """Discord receives the command names, descriptions, options and choices in every
    language with a catalog."""
    commands = {c["name"]: c for c in simcord_env.backend.commands[None].values()}
    game = commands["tictactoe"]

    assert game["name_localizations"]["fr"] == "morpion"
    assert game["name_localizations"]["ja"] == "まるばつ"
    assert game["description_localizations"]["de"].startswith("Spiele Tic-Tac-Toe")
    options = {o["name"]: o for o in game["options"]}
    assert options["opponent"]["name_localizations"]["pt-BR"] == "oponente"
    first = {c["value"]: c for c in options["first"]["choices"]}
    assert first["opponent"]["name_localizations"]["es-ES"] == "Mi rival"
    assert commands["tictactoe-settings"]["name_localizations"]["ru"] == (
        "крестики-нолики-настройки"
    )


async def test_a_community_server_plays_in_its_own_language(
    simcord_env: Env, client_locales: dict[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Community server's preferred language is its boards' (SimCord knows no Community
    servers: its simulated Discord is made to announce every server as one)."""
    import simcord.backend.serializers as serializers

    original = serializers.guild_create_payload

    def community(backend: Any, guild: Any) -> Any:
        return {**original(backend, guild), "features": ["COMMUNITY"]}

    monkeypatch.setattr(serializers, "guild_create_payload", community)
    guild = simcord_env.create_guild(preferred_locale="ja")
    channel = guild.create_text_channel("games")
    marie = guild.add_member(simcord_env.create_user("marie"))
    paul = guild.add_member(simcord_env.create_user("paul"))
    client_locales[marie.id] = client_locales[paul.id] = "fr"

    await marie.slash(channel, "tictactoe")
    board = board_message(channel)
    refused = await paul.click(board, custom_id="ttt:1:8")

    assert "まるばつ · 3×3、3 個並べ" in text(simcord_env, board)
    assert refused.response.content.startswith("Cette partie oppose")


async def test_edge_replies_speak_the_readers_language_and_a_mention_the_servers(
    simcord_env: Env, client_locales: dict[int, str]
) -> None:
    """A French member's refusal of a click on a board that moved on, of an unknown subcommand
    and of a mistyped option are French, naming the French commands; a mention in a server whose
    preferred language is French is answered in French (a message carries no author language)."""
    guild = simcord_env.create_guild(preferred_locale="fr")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    client_locales[bob.id] = "fr"
    await alice.slash(channel, "tictactoe", opponent=bob)
    board = board_message(channel)  # in English, the language of the one who started it
    await bob.click(board, label="Accept")

    _, late = await click_together(
        simcord_env, [(alice, board, "ttt:1:4"), (bob, board, "ttt:1:0")]
    )
    unknown = await raw_slash(
        simcord_env, bob, channel, "tictactoe", [{"name": "teleport", "type": 1, "options": []}]
    )
    mistyped = await raw_slash(
        simcord_env, bob, channel, "tictactoe", [{"name": "opponent", "type": 3, "value": "x"}]
    )
    bot_id = simcord_env.backend.bot_user.id
    await alice.send(channel, f"<@{bot_id}> salut")

    assert late.response.content.startswith(
        "Le plateau a changé avant l'arrivée de votre clic : X a joué B2. Le voici"
    )
    assert unknown.response.content == (
        "/morpion n'a pas de sous-commande teleport : lancez /morpion et choisissez parmi ses "
        "options."
    )
    assert mistyped.response.content.startswith(
        "L'option adversaire est arrivée avec le mauvais type (reçu : du texte ; attendu : un "
        "membre)"
    )
    (answer,) = [m for m in channel.history() if m.author.id == bot_id and m.reference]
    assert answer.content == (
        "Je ne réponds qu'aux commandes slash : tapez /morpion pour jouer (ou /morpion-stats)."
    )
