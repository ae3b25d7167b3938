"""The message catalogs: complete in every language, the same placeholders as the English, the
compiled catalogs and the template up to date with the sources, every localised command within
Discord's rules, and the longest texts within Discord's sizes in every language."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.discord_ui import board
from bot.discord_ui.translator import valid_name
from bot.games import rules
from bot.games.record import Ending, GameRecord, Status
from bot.i18n import DOMAIN, LOCALE_DIR, N_, NP_, Text, shipped, translation

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "bot" / "i18n" / "tictactoe.pot"
KEYWORDS = {"N_": None, "NP_": (1, 2), "_l": None, "_t": (2,)}
# The Discord locales the bot speaks, each served by a catalog.
DISCORD_LOCALES = (
    "de",
    "es-ES",
    "fr",
    "id",
    "it",
    "nl",
    "pl",
    "pt-BR",
    "ru",
    "th",
    "tr",
    "vi",
    "ja",
    "ko",
    "zh-CN",
    "uk",
)
LOCALES = sorted(shipped())


def po(locale: str) -> Catalog:
    path = LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def fields(text: str) -> set[str]:
    """The placeholder names of a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def ids(catalog: Catalog) -> set[Any]:
    return {message.id for message in catalog if message.id}


def test_sixteen_languages_ship_and_each_discord_locale_finds_its_own() -> None:
    """Every locale asked for is served by a catalog, not by the English fallback."""
    assert len(LOCALES) >= 16
    for locale in DISCORD_LOCALES:
        assert isinstance(translation(locale), gettext.GNUTranslations), locale


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated_with_the_same_placeholders(locale: str) -> None:
    """No message is missing, empty or fuzzy; each form keeps exactly the English fields."""
    with POT.open("rb") as file:
        template = read_po(file)
    catalog = po(locale)
    assert ids(catalog) == ids(template)
    forms = catalog.num_plurals
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if isinstance(message.id, tuple):
            assert len(message.string) == forms, message.id
            expected = fields(message.id[0]) | fields(message.id[1])
            for form in message.string:
                assert form.strip(), message.id
                # A form may leave out {n} where the number is implied ("one"), never add one.
                assert fields(form) - {"n"} == expected - {"n"}, (message.id, form)
        else:
            assert message.string.strip(), message.id
            assert fields(message.string) == fields(message.id), (message.id, message.string)


def compiled(catalog: Catalog) -> bytes:
    """The .mo that Babel writes for `catalog` today."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def shipped_mo(locale: str) -> bytes:
    return (LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()


def meaning(mo: bytes) -> tuple[object, ...]:
    """What a compiled catalog tells a reader: every message and its translation (plural forms
    included), which form each number takes, the charset and the language; not the header's
    other fields (the tool and its version, dates), which change with the tool that wrote it."""
    catalog = gettext.GNUTranslations(io.BytesIO(mo))
    messages = {key: text for key, text in catalog._catalog.items() if key != ""}  # type: ignore[attr-defined]
    forms = tuple(catalog.plural(n) for n in range(1000))  # type: ignore[attr-defined]
    return messages, forms, catalog.charset(), catalog.info().get("language")


@pytest.mark.parametrize("locale", LOCALES)
def test_compiled_catalogs_match_their_sources(locale: str) -> None:
    """The shipped .mo says what its .po says (run scripts/catalogs.sh after edits)."""
    assert meaning(shipped_mo(locale)) == meaning(compiled(po(locale)))


def test_the_comparison_ignores_the_version_of_the_tool_that_wrote_the_catalog() -> None:
    """A .mo that differs only in the Babel version of its header reads the same."""
    mo = compiled(po("de"))
    # The same length, so that the table's offsets stay right: 2.18.0 becomes 9.99.9.
    nines = lambda found: re.sub(rb"[0-9]", b"9", found[0])  # noqa: E731
    other = re.sub(rb"(?<=Generated-By: Babel )[0-9.]+", nines, mo)
    assert other != mo and len(other) == len(mo)
    assert meaning(other) == meaning(mo)


def test_the_comparison_fails_when_a_translation_or_a_plural_rule_changes() -> None:
    """A changed translation, a changed plural form or a changed plural rule is a difference."""
    shipped = meaning(shipped_mo("pl"))
    changed = po("pl")
    message = next(m for m in changed if m.id and isinstance(m.id, str))
    message.string = message.string + "!"
    assert meaning(compiled(changed)) != shipped
    changed = po("pl")
    message = next(m for m in changed if isinstance(m.id, tuple))
    message.string = (message.string[0], message.string[2], message.string[1])
    assert meaning(compiled(changed)) != shipped
    changed = po("pl")
    changed.mime_headers = [("Plural-Forms", "nplurals=3; plural=(n==1 ? 0 : n<5 ? 1 : 2);")]
    assert meaning(compiled(changed)) != shipped


def test_the_template_holds_every_marked_message_of_the_sources() -> None:
    """Every N_/NP_/_l message in bot/ is in the template, and nothing else."""
    found = set()
    for _, _, message, _, _ in extract_from_dir(
        str(ROOT / "bot"), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    with POT.open("rb") as file:
        assert found == ids(read_po(file))


def test_every_localised_command_name_is_valid_for_discord() -> None:
    """Command, group and option names: lowercase, 1-32 letters, digits, - or _."""
    names = ["tictactoe", "tictactoe-stats", "tictactoe-leaderboard", "tictactoe-settings"]
    names += ["tictactoe-puzzle", "tictactoe-puzzle-leaderboard", "puzzle"]
    names += ["opponent", "difficulty", "first", "size", "win_length", "user", "variant", "style"]
    for locale in LOCALES:
        catalog = translation(locale.replace("_", "-"))
        for name in names:
            words = catalog.gettext(name)
            assert valid_name(words), (locale, name, words)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("morpion", True),
        ("крестики-нолики", True),
        ("โอเอ็กซ์", True),
        ("まるばつ-設定", True),
        ("Morpion", False),
        ("two words", False),
        ("x" * 33, False),
        ("", False),
        ("a!", False),
    ],
)
def test_the_name_check_follows_discords_pattern(name: str, valid: bool) -> None:
    """The check itself: case, length, spaces and punctuation."""
    assert valid_name(name) is valid


async def test_the_synced_payload_keeps_discords_limits_in_every_language(simcord_env: Any) -> None:
    """Names up to 32, descriptions and choice names up to 100, and at most 4,000 characters of
    names, descriptions and choices per command in each language."""
    for command in simcord_env.backend.commands[None].values():
        per_locale: dict[str, int] = {}
        for item in _items(command):
            for locale, words in (item.get("name_localizations") or {}).items():
                limit = 100 if item.get("choice") else 32
                assert 1 <= len(words) <= limit, (locale, words)
                per_locale[locale] = per_locale.get(locale, 0) + len(words)
            for locale, words in (item.get("description_localizations") or {}).items():
                assert 1 <= len(words) <= 100, (locale, words)
                per_locale[locale] = per_locale.get(locale, 0) + len(words)
        assert len(per_locale) >= 16, command["name"]
        assert max(per_locale.values()) <= 4000


def _items(node: dict[str, Any], choice: bool = False) -> list[dict[str, Any]]:
    out = [{**node, "choice": choice}]
    for option in node.get("options") or []:
        out += _items(option)
    for item in node.get("choices") or []:
        out.append({**item, "choice": True})
    return out


LONG_ID = 10**19 - 1  # the longest snowflake a mention can carry


def _longest_board(locale: str, ending: Ending) -> GameRecord:
    game = GameRecord(
        id=LONG_ID,
        guild_id=LONG_ID,
        channel_id=LONG_ID,
        x_id=LONG_ID - 1,
        o_id=LONG_ID,
        challenger_id=LONG_ID,
        size=5,
        k=5,
        ai_side="O",
        ai_level="unbeatable",
        moves=(0, 5, 1, 6, 2, 7, 3, 8, 4),
        locale=locale.replace("_", "-"),
    )
    return rules.finish(game, ending, "X") if ending is not Ending.ABANDONED else game


@pytest.mark.parametrize("locale", LOCALES)
def test_the_board_fits_discords_limits_in_every_language(locale: str) -> None:
    """The board's text within a text display's 4,000 characters, its labels within 80."""
    for ending in (Ending.WIN, Ending.TIMEOUT, Ending.RESIGN):
        game = _longest_board(locale, ending)
        assert len(board.text(game)) <= 4000
        for action in board.LOOKS:
            assert len(board.LOOKS[action][0].in_locale(game.locale)) <= 80
    challenge = GameRecord(
        id=LONG_ID,
        guild_id=LONG_ID,
        channel_id=LONG_ID,
        x_id=LONG_ID,
        o_id=LONG_ID - 1,
        challenger_id=LONG_ID,
        status=Status.CHALLENGE,
        locale=locale.replace("_", "-"),
    )
    assert len(board.text(challenge)) <= 4000


@pytest.mark.parametrize("locale", LOCALES)
def test_every_reply_fits_a_message_in_every_language(locale: str) -> None:
    """Each message, its placeholders filled with the longest values they take, stays within
    the 2,000 characters of a message (refusals nest one message in another: counted too)."""
    catalog = translation(locale.replace("_", "-"))
    longest = 0
    with POT.open("rb") as file:
        template = read_po(file)
    for message in template:
        if not message.id:
            continue
        single = message.id if isinstance(message.id, str) else message.id[0]
        values = {name: _long_value(name) for name in fields(single)}
        if isinstance(message.id, tuple):
            values["n"] = 10
            words = NP_(message.id[0], message.id[1], 10, **values).render(catalog)
        else:
            words = N_(single, **values).render(catalog)
        longest = max(longest, len(words))
    assert longest <= 2000


def _long_value(name: str) -> object:
    if name in ("refusal", "why", "who", "kept", "record"):
        return "x" * 400  # another message, long
    if name in ("channels", "roles", "permissions"):
        return ", ".join([f"<#{LONG_ID}>"] * 25)
    if name == "link":
        return f"https://discord.com/channels/{LONG_ID}/{LONG_ID}/{LONG_ID}"
    return f"<@{LONG_ID}>"


def test_a_message_translates_its_nested_values_in_the_same_language() -> None:
    """A Text inside a Text is put into the same language."""
    nested = N_("{value} (default)", value=N_("everyone"))
    assert nested.in_locale("fr") == "tout le monde (par défaut)"
    assert nested.in_locale("de") == "alle Mitglieder (Standard)"
    assert nested.in_locale(None) == "everyone (default)"
    assert isinstance(nested, Text)


def test_plural_forms_follow_the_language() -> None:
    """Polish has three forms, Japanese one, English two."""
    moves = lambda n: NP_(  # noqa: E731
        "Play {cell}: it wins in {n} move.", "Play {cell}: it wins in {n} moves.", n, cell="A1"
    )
    assert [moves(n).in_locale("pl") for n in (1, 3, 5)] == [
        "Zagraj A1: to wygrywa w 1 ruchu.",
        "Zagraj A1: to wygrywa w 3 ruchach.",
        "Zagraj A1: to wygrywa w 5 ruchach.",
    ]
    assert moves(2).in_locale("ru") == "Сыграй A1: это выигрывает за 2 хода."
    assert moves(5).in_locale("ru") == "Сыграй A1: это выигрывает за 5 ходов."
    assert moves(1).in_locale("en-US") == "Play A1: it wins in 1 move."


def test_commands_named_in_a_translation_are_that_languages_command_names() -> None:
    """A reply that names a command (/morpion) names it as the same language's sync does."""
    commands = ["tictactoe", "tictactoe-stats", "tictactoe-leaderboard", "tictactoe-settings"]
    commands += ["tictactoe-puzzle", "tictactoe-puzzle-leaderboard"]
    for locale in LOCALES:
        catalog = translation(locale.replace("_", "-"))
        local = {catalog.gettext(name) for name in commands}
        for message in po(locale):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                for named in re.findall(r"(?<![\w<])/([^\s`:.,;)）。，]+)", form or ""):
                    if named.startswith("{"):
                        continue  # a placeholder: the name filled in is the reader's (tree.py)
                    assert named in local, (locale, named, form)
