"""Slash commands in every shipped language: discord.py asks this translator for each command
name, description, option name and choice while it builds the command sync's payload.

The words come from the same gettext catalogs as the replies (``bot.i18n``). A name must be one
Discord accepts (lowercase, 1 to 32 letters, digits, ``-`` or ``_``); a translated name that is
not is left out, so Discord shows the English one instead of refusing the whole sync.
"""

from __future__ import annotations

import logging
import unicodedata

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import has_catalog, translation

log = logging.getLogger(__name__)

NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
# Scripts whose combining marks Discord's name pattern allows (\p{sc=Deva}, \p{sc=Thai}).
MARKED_SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))


def valid_name(name: str) -> bool:
    """Whether Discord accepts `name` as a command or option name."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        if char in "-_" or unicodedata.category(char)[0] in "LN":
            continue
        if not any(low <= ord(char) <= high for low, high in MARKED_SCRIPTS):
            return False
    return True


class CatalogTranslator(app_commands.Translator):
    """Localises the command tree from the message catalogs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The words in `locale`, or None to keep the English ones."""
        if not has_catalog(locale.value):
            return None
        words = translation(locale.value).gettext(string.message)
        if words == string.message:
            return None
        if context.location in NAMES and not valid_name(words):
            log.warning("the %s name %r is not valid for Discord; kept English", locale, words)
            return None
        if len(words) > 100:  # Discord's limit for descriptions and choice names
            log.warning("the %s text %r is too long for Discord; kept English", locale, words)
            return None
        return words
